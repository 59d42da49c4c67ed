import { lazy, Suspense } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { AppStore } from './store';
import { AppRoutes } from './router';
import { SessionRestore } from './SessionRestore';

// Radix Toast loads beside the first page rather than in it; toasts raised meanwhile wait in lib/toast.
const Toaster = lazy(() => import('../components/Toaster').then((m) => ({ default: m.Toaster })));

/**
 * The providers, outermost first: Redux (its persisted preferences already rehydrated, main.tsx),
 * the session restore, the routes and the always-present toast area.
 */
export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <SessionRestore />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </Provider>
  );
}
