/// <reference lib="webworker" />
/**
 * The portal's service worker. The caching policy, with the reason for every rule, is in
 * sw/README.md; keep the two in step.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { SHELL_NAVIGATION_DENYLIST } from './navigation-policy';
import { DROP_VIEWER_CODE, KEEP_VIEWER_CODE, splitManifest, staleViewerCode, VIEWER_CODE_CACHE } from './viewer-code';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// The build replaces __WB_MANIFEST with every file of the app and its content revision. All of it
// is precached but the viewer's code, which is kept only for a patient who keeps images.
const { precached, viewerCode } = splitManifest(self.__WB_MANIFEST);
precacheAndRoute(precached);
cleanupOutdatedCaches();

// Every route of the app is rendered by index.html, so one precached copy opens them all offline.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: SHELL_NAVIGATION_DENYLIST }));

// The viewer's code of this build, as absolute URLs without a query.
const viewerCodeUrls = new Set(viewerCode.map((url) => new URL(url, self.location.href).href));

// Kept on the device: answered from there, also online (the names are content-hashed, so a kept
// file is never stale). Otherwise the network, without keeping: opening the viewer keeps nothing.
registerRoute(
  ({ url }) => viewerCodeUrls.has(`${url.origin}${url.pathname}`),
  async ({ request }) => {
    const kept = await (await caches.open(VIEWER_CODE_CACHE)).match(request, { ignoreSearch: true, ignoreVary: true });
    return kept ?? fetch(request);
  },
);

/** Fetches the parts of this build's viewer code the device does not keep yet. */
async function keepViewerCode(): Promise<void> {
  const cache = await caches.open(VIEWER_CODE_CACHE);
  const kept = new Set((await cache.keys()).map((request) => request.url));
  // cache.add fails on an answer that is not 2xx, so a missing file is never kept as an error page.
  await Promise.all([...viewerCodeUrls].filter((url) => !kept.has(url)).map((url) => cache.add(url)));
}

async function keptViewerCodeUrls(): Promise<string[]> {
  if (!(await caches.has(VIEWER_CODE_CACHE))) return [];
  return (await (await caches.open(VIEWER_CODE_CACHE)).keys()).map((request) => request.url);
}

// No route for /api: anything else goes to the network untouched (see README).

self.addEventListener('install', (event: ExtendableEvent) => {
  // A new version with images kept on the device: its viewer code is fetched now, while online,
  // so the kept images still open offline once the patient switches to it. A failure leaves the
  // install alone; the viewer page asks again when it is next opened online.
  event.waitUntil(
    keptViewerCodeUrls().then(
      (kept) => (kept.length > 0 ? keepViewerCode().catch(() => undefined) : undefined),
      () => undefined,
    ),
  );
});

self.addEventListener('activate', (event: ExtendableEvent) => {
  // The older versions' viewer code is of no use to this version's pages.
  event.waitUntil(
    (async () => {
      const stale = staleViewerCode(await keptViewerCodeUrls(), viewerCodeUrls);
      if (stale.length === 0) return;
      const cache = await caches.open(VIEWER_CODE_CACHE);
      await Promise.all(stale.map((url) => cache.delete(url)));
    })().catch(() => undefined),
  );
});

/** What the page asks of the viewer's code (client/lib/viewer-code.ts). */
function viewerCodeAnswer(type: unknown): (() => Promise<unknown>) | null {
  if (type === KEEP_VIEWER_CODE) return keepViewerCode;
  // Nothing kept on the device any more: the code is of no use offline either.
  if (type === DROP_VIEWER_CODE) return () => caches.delete(VIEWER_CODE_CACHE);
  return null;
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  // The new version waits until the user accepts the update prompt; taking over a page
  // mid-session would mix old and new code chunks.
  if (type === 'SKIP_WAITING') {
    void self.skipWaiting();
    return;
  }
  const answer = viewerCodeAnswer(type);
  if (!answer) return;
  const reply = (ok: boolean) => event.ports[0]?.postMessage({ ok });
  event.waitUntil(
    answer().then(
      () => reply(true),
      () => reply(false),
    ),
  );
});

clientsClaim();
