/**
 * The viewer's code on the device, beside the images kept there: the service worker does not
 * precache it (6 MB most installations never use) and keeps it only when asked (sw/sw.ts,
 * sw/README.md). Without a worker (development builds, a browser without one) there is nothing to
 * ask, and the images open offline only while the browser's own cache holds the code.
 */

/** The worker answers on the port given; a worker busy or gone must not hold the page forever. */
const ANSWER_TIMEOUT_MS = 60_000;

/** The messages sw/viewer-code.ts names KEEP_VIEWER_CODE and DROP_VIEWER_CODE. */
type Request = 'KEEP_VIEWER_CODE' | 'DROP_VIEWER_CODE';

function ask(type: Request): Promise<boolean> {
  const worker = globalThis.navigator?.serviceWorker?.controller;
  if (!worker) return Promise.resolve(false);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), ANSWER_TIMEOUT_MS);
    channel.port1.onmessage = (event: MessageEvent<{ ok?: unknown } | null>) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(event.data?.ok === true);
    };
    worker.postMessage({ type }, [channel.port2]);
  });
}

/** Has the worker fetch whatever part of this version's viewer code the device lacks; whether it is all there. */
export const keepViewerCode = (): Promise<boolean> => ask('KEEP_VIEWER_CODE');

/** Lets the worker delete the viewer's code: nothing kept needs it. */
export const dropViewerCode = (): Promise<boolean> => ask('DROP_VIEWER_CODE');
