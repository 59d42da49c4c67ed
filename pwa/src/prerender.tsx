/**
 * Build-time entry of vite-plugin-prerender.ts: the landing page `/` rendered to HTML, so its first
 * paint needs no JavaScript. The app replaces it with the same page when it starts (main.tsx);
 * other routes are served the empty shell.
 */
import { renderToString } from 'react-dom/server';
import { I18nProvider } from '@lingui/react';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router-dom';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { i18n } from './lib/i18n/i18n';
import { messages } from './locales/en/shell.po';

// The pre-rendered page is in English, the source language; the app re-renders it in the visitor's.
export function renderLanding(): string {
  i18n.loadAndActivate({ locale: 'en', messages });
  return renderToString(
    <I18nProvider i18n={i18n}>
      <Provider store={makeStore()}>
        <StaticRouter location="/">
          <AppRoutes />
        </StaticRouter>
      </Provider>
    </I18nProvider>,
  );
}
