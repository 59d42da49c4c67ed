import { lazy, Suspense, useState } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { PersistGate } from 'redux-persist/integration/react';
import { persistStore } from 'redux-persist';
import { makeStore } from './store';
import { AppRoutes } from './router';
import { SessionRestore } from './SessionRestore';

// Radix Toast loads beside the first page rather than in it; toasts raised meanwhile wait in lib/toast.
const Toaster = lazy(() => import('../components/Toaster').then((m) => ({ default: m.Toaster })));

function createApp() {
  const store = makeStore();
  return { store, persistor: persistStore(store) };
}

/**
 * The providers, outermost first: Redux, the persisted preferences (rendering waits for them so
 * a sign-out at start cannot be undone by a late rehydrate), the session restore, the routes and
 * the always-present toast area.
 */
export function App() {
  const [{ store, persistor }] = useState(createApp);
  return (
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <SessionRestore />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </PersistGate>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </Provider>
  );
}
