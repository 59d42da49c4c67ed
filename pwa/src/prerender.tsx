/**
 * Build-time entry of vite-plugin-prerender.ts: the landing page `/` rendered to HTML, so its first
 * paint needs no JavaScript. The app replaces it with the same page when it starts (main.tsx);
 * other routes are served the empty shell.
 */
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router-dom';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';

export function renderLanding(): string {
  return renderToString(
    <Provider store={makeStore()}>
      <StaticRouter location="/">
        <AppRoutes />
      </StaticRouter>
    </Provider>,
  );
}
