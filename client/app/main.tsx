import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerServiceWorker } from '../shell/pwa/register';
import { startIntl } from '../lib/intl';
import { App } from './App';
import { startSessionCheck } from './guards';
import { watchDeviceSession } from '../shell/layout/device-session';
import { afterPageLoad } from '../shell/layout/after-page-load';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The server is asked who is signed in while the catalog loads, not after the first render.
startSessionCheck(window.location.pathname);

// The catalog of the preferred language loads before the first render, so no text ever flashes
// in the wrong language (index.html has already applied theme, scale and <html lang>).
void startIntl().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

registerServiceWorker();

// What the device holds of a patient beyond what she chose to keep ends with her session (issue 16).
watchDeviceSession(afterPageLoad());
