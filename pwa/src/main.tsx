import './lib/zodConfig';
import { startTransition, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './Root';
import { watchInstallPrompt } from './lib/install';
import { applyThemeChoice, readThemeChoice } from './lib/theme';
import { activateLocale } from './lib/i18n/i18n';
import { initialLocale, SOURCE_LOCALE } from './lib/i18n/locales';
import { registerServiceWorker } from './lib/serviceWorker';
import { shouldRestoreAtStart } from './lib/sessionHint';
import { holdPrerenderedForm, holdPrerenderedLanguage } from './lib/prerenderedForm';
import './index.css';

// Before rendering: the chosen theme (no flash of the other one), and the browser may offer installation before any component mounts.
applyThemeChoice(readThemeChoice());
watchInstallPrompt();
// The language's catalog (its own small chunk) loads meanwhile; the first render waits for it, so
// no page shows in one language and then another. A catalog that cannot load (offline before it
// was ever cached) leaves the interface in English.
const languageReady = activateLocale(initialLocale())
  .catch(() => activateLocale(SOURCE_LOCALE))
  .catch(() => undefined);
if (import.meta.env.PROD) registerServiceWorker();

let appLoad: Promise<ComponentType> | null = null;
/** The app (app/start.tsx: router, store, realtime, the pages), loaded once. */
function loadApp(): Promise<ComponentType> {
  if (!appLoad) {
    const load = import('./app/start').then((m) => m.startApp());
    // A failed load (offline, a build replaced meanwhile) is tried again next time.
    load.catch(() => appLoad === load && (appLoad = null));
    appLoad = load;
  }
  return appLoad;
}

// A visitor's landing page runs as a small island that loads the app when a link is followed;
// anyone signed in on this device before (their landing page shows the way into the app) and
// every other page get the app at once. The server sends `/` pre-rendered (vite-plugin-prerender.ts),
// which this render replaces with the same layout, so nothing shifts or flashes.
const onLanding = window.location.pathname === '/' && !shouldRestoreAtStart('/');
const root = document.getElementById('root')!;
// `/login` comes pre-rendered too: its form is usable while the app loads, and carries over.
if (root.dataset.prerendered === '/login' && window.location.pathname === '/login') holdPrerenderedForm(root, '/login');
// Over a pre-rendered page, which is already painted and usable, the first render is a transition:
// React renders in slices and the browser stays free to answer taps and keys meanwhile. An empty
// shell shows nothing until it: that render is urgent.
const prerendered = root.dataset.prerendered === window.location.pathname;
if (prerendered) holdPrerenderedLanguage(root);
void Promise.all([onLanding ? null : loadApp(), languageReady]).then(
  ([initialApp]) => {
    const app = createRoot(root);
    const render = () =>
      app.render(
        <StrictMode>
          <Root initialApp={initialApp} loadApp={loadApp} />
        </StrictMode>,
      );
    if (prerendered) startTransition(render);
    else render();
  },
  (err: unknown) => console.error('Parley could not start', err),
);
