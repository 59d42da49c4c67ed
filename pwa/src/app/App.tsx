import { lazy, Suspense } from 'react';
import { I18nProvider } from '@lingui/react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { AppStore } from './store';
import { AppRoutes } from './router';
import { SessionRestore } from './SessionRestore';
import { i18n } from '../lib/i18n/i18n';

// Radix Toast loads beside the first page rather than in it; toasts raised meanwhile wait in lib/toast.
const Toaster = lazy(() => import('../components/Toaster').then((m) => ({ default: m.Toaster })));

/**
 * The providers, outermost first: the interface language (its catalog already loaded, main.tsx),
 * Redux (its persisted preferences already rehydrated), the session restore, the routes and the
 * always-present toast area.
 */
export function App({ store }: { store: AppStore }) {
  return (
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <SessionRestore />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </Provider>
    </I18nProvider>
  );
}
