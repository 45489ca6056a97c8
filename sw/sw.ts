/// <reference lib="webworker" />
/**
 * The portal's service worker. The caching policy, with the reason for every rule, is in
 * sw/README.md; keep the two in step.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { SHELL_NAVIGATION_DENYLIST } from './navigation-policy';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// The build replaces __WB_MANIFEST with every file of the app shell and its content revision.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every route of the app is rendered by index.html, so one precached copy opens them all offline.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SHELL_NAVIGATION_DENYLIST }));

// No route for /api: anything not precached goes to the network untouched (see README).

// The new version waits until the user accepts the update prompt; taking over a page mid-session
// would mix old and new code chunks.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
