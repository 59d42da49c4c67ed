/**
 * Build-time entry of vite-plugin-prerender.ts: the landing page `/` rendered to HTML, so its first
 * paint needs no JavaScript. It is the landing island (features/landing/LandingIsland), which the
 * browser renders again over it (main.tsx); other routes are served the empty shell.
 */
import { renderToString } from 'react-dom/server';
import { LandingIsland } from './features/landing/LandingIsland';
import { i18n } from './lib/i18n/i18n';
import { messages } from './locales/en/shell.po';

const nothing = () => undefined;

// The pre-rendered page is in English, the source language; the browser re-renders it in the visitor's.
export function renderLanding(): string {
  i18n.loadAndActivate({ locale: 'en', messages });
  return renderToString(<LandingIsland enter={nothing} preload={nothing} />);
}
