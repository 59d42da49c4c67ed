/**
 * Build-time entry of vite-plugin-prerender.ts: pages rendered to HTML, so their first paint needs
 * no JavaScript. The landing page `/` is the landing island (features/landing/LandingIsland); the
 * login page is the app's own route tree at `/login`. The browser renders each again over its
 * markup (main.tsx); other routes are served the empty shell.
 */
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { text } from 'node:stream/consumers';
import { I18nProvider } from '@lingui/react';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router';
import { LandingIsland } from './features/landing/LandingIsland';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { i18n } from './lib/i18n/i18n';
import { messages } from './locales/en/shell.po';

const nothing = () => undefined;

// The pre-rendered pages are in English, the source language; the browser re-renders them in the visitor's.
function english() {
  i18n.loadAndActivate({ locale: 'en', messages });
}

export function renderLanding(): string {
  english();
  return renderToString(<LandingIsland enter={nothing} preload={nothing} />);
}

/**
 * `/login` as the app first renders it for a visitor: the session still restoring, nothing typed.
 * Rendered to completion (lazy parts included); a page that cannot render here fails the build
 * instead of shipping its loading state.
 */
export async function renderLogin(): Promise<string> {
  english();
  const failures: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <I18nProvider i18n={i18n}>
      <Provider store={makeStore()}>
        <StaticRouter location="/login">
          <AppRoutes />
        </StaticRouter>
      </Provider>
    </I18nProvider>,
    { onError: (err: unknown) => void failures.push(err) },
  );
  const html = await text(prelude);
  if (failures.length > 0) throw new AggregateError(failures, '/login could not be pre-rendered');
  return html;
}
