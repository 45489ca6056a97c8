import { Workbox } from 'workbox-window';
import { offerUpdate } from './update-store';

// A portal tab may stay open all day; browsers only look for a new worker on navigation, which a
// single-page app rarely does.
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

let workbox: Workbox | null = null;
let registration: ServiceWorkerRegistration | undefined;

/**
 * Installs the service worker that keeps the public pages available offline. Development builds
 * never register it, so a stale cached bundle can never hide a code change.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || workbox) return;

  workbox = new Workbox('/sw.js', { scope: '/' });
  // Fired for a worker installed in this visit and for one that was already waiting on load.
  workbox.addEventListener('waiting', offerUpdate);
  workbox
    .register()
    .then((registered) => {
      registration = registered;
      setInterval(() => void workbox?.update(), UPDATE_CHECK_INTERVAL_MS);
    })
    .catch((error: unknown) => {
      // Without a worker the portal still works online; there is nothing to show the user, so
      // the console is the only place a developer can see why.
      // eslint-disable-next-line no-console
      console.error('Service worker registration failed', error);
    });
}

/** Lets the waiting worker take over and reloads the page once it controls it. */
export function reloadIntoNewVersion(): void {
  if (!workbox || !registration?.waiting) {
    // Another tab already activated the new worker: a reload is all this tab needs.
    window.location.reload();
    return;
  }
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
