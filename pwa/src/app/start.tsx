import type { ComponentType } from 'react';
import { persistStore } from 'redux-persist';
import { App } from './App';
import { makeStore } from './store';
import { preloadRoute } from './router';

/**
 * The app, ready to render: its store made and the saved preferences rehydrated (redux-persist
 * reads them from localStorage in a few microtasks), so a sign-out at start cannot be undone by a
 * late rehydrate. Loaded at start on every page but a visitor's landing page, which loads it when
 * one of its links is followed (main.tsx).
 */
export function startApp(): Promise<ComponentType> {
  preloadRoute(window.location.pathname);
  const store = makeStore();
  return new Promise((resolve) => {
    const persistor = persistStore(store, null, () => resolve(() => <App store={store} />));
    // redux-persist writes a change on its next timer tick; a reload or a closed tab must not drop it.
    window.addEventListener('pagehide', () => void persistor.flush());
  });
}
