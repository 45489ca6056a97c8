// First: no module makes a zod schema before zod is told not to try eval (see the module).
import '../lib/zod-without-eval';
// React DOM's start-up is its own chunk, run a task before this one (see the module).
import './react-dom-first';
import { startTransition, StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { startIntl } from '../lib/intl';
import { App } from './App';
import { startSessionCheck } from './guards';
import { preloadPage } from './pages';
import { routeForPath } from '../routes/paths';
import { preloadCookieDialog } from '../shell/consent/CookieConsent';
import { consentDialog } from '../shell/consent/consent-store';
import { watchDeviceSession } from '../shell/layout/device-session';
import { afterPageLoad } from '../shell/layout/after-page-load';
import { adoptDrawnResultPage } from '../early-start/drawn-result-page';
import { startTokenCheck } from '../features/password-reset/token-check';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * The app in place of the page drawn into the HTML at build time (scripts/vite-prerender.ts):
 * React empties the root at its first commit; only then is the root made usable again.
 */
function TakeOverPrerenderedPage({ root }: { root: HTMLElement }) {
  useLayoutEffect(() => {
    root.removeAttribute('inert');
    document.documentElement.removeAttribute('data-prerendered');
  }, [root]);
  return <App />;
}

// A result page the server drew with her result starts from its answers (signed in, her result).
adoptDrawnResultPage();
// The server is asked who is signed in while the catalog loads, not after the first render.
startSessionCheck(window.location.pathname);
// A reset link is checked meanwhile too, so its page's first render shows the form or the refusal.
startTokenCheck(window.location.pathname);

// The catalog of the preferred language loads before the first render, so no text ever flashes
// in the wrong language (index.html has already applied theme, scale and <html lang>). Over a page
// drawn at build time, the page's code too: the first render shows what that page shows, not a
// loading state. The cookie dialog's code loads meanwhile without holding the first render back:
// the drawn picture of the dialog stays until the real one mounts (shell/consent/drawn-cookie-dialog.ts).
const prerendered = document.documentElement.hasAttribute('data-prerendered');
const prerenderedRoute = prerendered ? routeForPath(window.location.pathname)?.route : undefined;
if (prerendered && consentDialog.isOpen) preloadCookieDialog();
void Promise.all([startIntl(), prerenderedRoute && preloadPage(prerenderedRoute.name)]).then(() => {
  const root = createRoot(container);
  // Rendered as a transition, which React splits into short slices: on a phone the first render
  // of a page is hundreds of milliseconds of work, and as one task it would keep the page from
  // answering a tap (issue 16, Lighthouse's Total Blocking Time).
  startTransition(() => {
    root.render(
      <StrictMode>
        <TakeOverPrerenderedPage root={container} />
      </StrictMode>,
    );
  });
});

// The service worker, and workbox-window's code with it, after the page: its start-up was 2-4 ms of
// the entry's task, and it has nothing to do before the page has loaded (issue 16).
void afterPageLoad()
  .then(() => import('../shell/pwa/register'))
  .then((worker) => worker.registerServiceWorker());

// What the device holds of a patient beyond what she chose to keep ends with her session (issue 16).
watchDeviceSession(afterPageLoad());
