import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { watchInstallPrompt } from './lib/install';
import { registerServiceWorker } from './lib/serviceWorker';
import './index.css';

// Before rendering: the browser may offer installation before any component mounts.
watchInstallPrompt();
if (import.meta.env.PROD) registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
