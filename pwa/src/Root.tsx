import { useCallback, useEffect, useState, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { LandingIsland } from './features/landing/LandingIsland';

/**
 * Puts the page the island's link leads to in the browser's history as the app's router writes its
 * entries (`usr` the state, `key`, `idx` the position), so the app starts on it with that state.
 */
function pushAppEntry(to: string, state: unknown) {
  const current = window.history.state as { idx?: number } | null;
  const idx = current?.idx ?? 0;
  if (current?.idx === undefined) window.history.replaceState({ ...current, usr: null, key: 'default', idx }, '');
  window.history.pushState({ usr: state ?? null, key: Math.random().toString(36).slice(2, 10), idx: idx + 1 }, '', to);
}

type RootProps = {
  /** The app when it was loaded at start; null on a visitor's landing page. */
  initialApp: ComponentType | null;
  /** Loads the app (router, store, realtime, the pages) once. */
  loadApp: () => Promise<ComponentType>;
};

/**
 * A visitor's landing page is a small island (LandingIsland) until one of its links is followed;
 * then the app takes over the same root in one render, on the link's page.
 */
export function Root({ initialApp, loadApp }: RootProps) {
  const [App, setApp] = useState<ComponentType | null>(() => initialApp);
  const preload = useCallback(() => void loadApp().catch(() => undefined), [loadApp]);
  const enter = useCallback(
    (to: string, state?: unknown) => {
      // Shown while the app loads: a bar along the top (styles/frame.css) where touch shows no cursor.
      const html = document.documentElement;
      html.dataset.entering = '';
      html.setAttribute('aria-busy', 'true');
      loadApp().then(
        (Loaded) => {
          delete html.dataset.entering;
          html.removeAttribute('aria-busy');
          pushAppEntry(to, state);
          flushSync(() => setApp(() => Loaded));
          window.scrollTo(0, 0);
        },
        // The app could not load here (a newer build replaced it, the connection dropped): the
        // browser opens the page itself, as a link without script would.
        () => window.location.assign(to),
      );
    },
    [loadApp],
  );
  // Another page put in the history from outside (a notification's link, sw.ts): the app opens it.
  useEffect(() => {
    if (App) return;
    const onPopState = () => {
      if (window.location.pathname !== '/')
        void loadApp().then(
          (Loaded) => setApp(() => Loaded),
          () => window.location.reload(),
        );
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [App, loadApp]);
  return App ? <App /> : <LandingIsland enter={enter} preload={preload} />;
}
