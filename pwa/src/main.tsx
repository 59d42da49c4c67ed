import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { persistStore } from 'redux-persist';
import { App } from './app/App';
import { makeStore } from './app/store';
import { watchInstallPrompt } from './lib/install';
import { applyThemeChoice, readThemeChoice } from './lib/theme';
import { activateLocale } from './lib/i18n/i18n';
import { initialLocale, SOURCE_LOCALE } from './lib/i18n/locales';
import { registerServiceWorker } from './lib/serviceWorker';
import './index.css';

// Before rendering: the chosen theme (no flash of the other one), and the browser may offer installation before any component mounts.
applyThemeChoice(readThemeChoice());
watchInstallPrompt();
// The language's catalog (its own small chunk) loads while the preferences rehydrate; the first
// render waits for both, so no page shows in one language and then another. A catalog that cannot
// load (offline before it was ever cached) leaves the interface in English.
const languageReady = activateLocale(initialLocale()).catch(() => activateLocale(SOURCE_LOCALE));
if (import.meta.env.PROD) registerServiceWorker();

const store = makeStore();
// The first render waits for the saved preferences (redux-persist reads them from localStorage in a
// few microtasks), so a sign-out at start cannot be undone by a late rehydrate. The landing page's
// HTML is pre-rendered at build time (vite-plugin-prerender.ts) for a first paint without script;
// this render replaces it in one task with the same layout, so nothing shifts or flashes.
const persistor = persistStore(store, null, () => {
  void languageReady.finally(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    ),
  );
});
// redux-persist writes a change on its next timer tick; a reload or a closed tab must not drop it.
window.addEventListener('pagehide', () => void persistor.flush());
