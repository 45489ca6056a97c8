import type { ImageRef, ImageSet } from '@common/types/images';
import { fetchImageSets, screeningSetOf, uploadSetOf } from '../../lib/image-sets';
import { routeForPath } from '../../routes/paths';
import { hangImages, SLOT_NAMES } from './hanging';
import type { FirstViewPreview, FromFirstViewWorker, ToFirstViewWorker } from './first-view-messages';
import { isWideLayout } from './use-wide-layout';

/**
 * The first view of an image (issue 15: a 50 MB mammogram on screen within a second). Its bytes
 * are downloaded as soon as the viewer's page knows which images it shows, before cornerstone3D's
 * 4 MB are even running, and a worker (first-view.worker.ts) turns them into a picture of the
 * screen's size while they arrive. The viewport draws that picture at once; cornerstone then
 * decodes the same bytes (handed over, not downloaded again) and its full-resolution drawing,
 * which zooms and windows, takes the picture's place.
 */
export type FirstView = {
  /** The picture to draw at once; null when there is none (not a plain greyscale image), and cornerstone draws first. */
  preview: Promise<FirstViewPreview | null>;
  /** The whole file for cornerstone; null when it did not arrive this way, and cornerstone downloads it itself. */
  file: Promise<ArrayBuffer | null>;
};

/** A download nobody drew (she left the page before it was shown) is let go after this. */
const KEEP_UNCLAIMED_MS = 60_000;

/** The first views under way or ready, by the server's image id. */
const views = new Map<string, FirstView>();

/** The first view of an image, its download started now unless it already was. */
export function firstViewOf(imageId: string): FirstView {
  let view = views.get(imageId);
  if (!view) {
    view = startFirstView(imageId);
    views.set(imageId, view);
    const started = view;
    setTimeout(() => {
      if (views.get(imageId) === started) views.delete(imageId);
    }, KEEP_UNCLAIMED_MS);
  }
  return view;
}

/** cornerstone has the file now: the page keeps no second reference to its bytes. */
export function releaseFirstView(imageId: string): void {
  views.delete(imageId);
}

/**
 * Starts the first views of the viewer's page at `location`, as soon as its code runs: React
 * shows a page that finished loading only some 300 ms after its "loading" placeholder appeared
 * (it throttles such reveals), and the download need not wait for that. The page itself asks for
 * the same list (fetchImageSets shares one request) and takes these views when it is drawn.
 */
export function startFirstViewsOf(location: string): void {
  const found = routeForPath(location);
  if (!found) return;
  const { route, params } = found;
  if (route.name !== 'uploaded_study' && route.name !== 'images_of_screening') return;
  // The same choice of set as ViewerPage.tsx makes.
  const setOf = (sets: ImageSet[]): ImageSet | undefined => {
    if (route.name === 'uploaded_study' && params.studyUid) return uploadSetOf(sets, params.studyUid);
    if (params.id && /^\d+$/.test(params.id)) return screeningSetOf(sets, Number(params.id));
    return undefined;
  };
  // The worker starts beside the list's request rather than after it.
  startWorker();
  fetchImageSets()
    .then(
      (sets) => {
        const set = setOf(sets);
        if (set) for (const image of imagesShownFirst(set, isWideLayout())) firstViewOf(image.id);
      },
      // Offline, or the list failed: the page says so, and nothing is downloaded ahead of it.
      () => undefined,
    )
    .finally(stopWorkerWhenIdle);
}

/**
 * The images the viewer (ImageSetViewer.tsx) shows as it opens: the four hung views on a wide
 * screen, the first of them on a phone, and the first image of the pager below them.
 */
export function imagesShownFirst(set: ImageSet, wide: boolean): ImageRef[] {
  const { slots, others } = hangImages(set.images);
  const hung = SLOT_NAMES.map((slot) => slots[slot]).filter((image): image is ImageRef => image !== null);
  return [...(wide ? hung : hung.slice(0, 1)), ...others.slice(0, 1)];
}

/**
 * How many screen pixels the picture's longer side should have: enough for the largest viewport
 * the window can hold at its pixel density, within what a phone's memory handles easily.
 */
function targetLongSide(): number {
  const screenSide = Math.max(window.innerWidth, window.innerHeight) * (window.devicePixelRatio || 1);
  return Math.min(2048, Math.max(512, Math.ceil(screenSide)));
}

// One worker for all the page's images; it ends when none is under way.
let worker: Worker | null = null;
let nextJob = 1;
const settlers = new Map<number, (message: FromFirstViewWorker | null) => void>();

function send(message: ToFirstViewWorker, transfer: Transferable[] = []): void {
  worker?.postMessage(message, transfer);
}

function startWorker(): void {
  if (worker) return;
  worker = new Worker(new URL('./first-view.worker.ts', import.meta.url), { type: 'module', name: 'first-view' });
  worker.onmessage = (event: MessageEvent<FromFirstViewWorker>) => settlers.get(event.data.id)?.(event.data);
  // A worker that could not start (its file missing from an old cache): cornerstone does it all.
  worker.onerror = () => {
    for (const settle of [...settlers.values()]) settle(null);
  };
}

function stopWorkerWhenIdle(): void {
  if (settlers.size > 0 || !worker) return;
  worker.terminate();
  worker = null;
}

// The bench (bench/viewer.ts) times the first view from this mark, the first image's request: the
// worker's requests are not in the page's own resource timing.
let requestMarked = false;
function markImageRequested(at: number): void {
  if (requestMarked) return;
  requestMarked = true;
  performance.mark('images:image-requested', { startTime: Math.max(0, at - performance.timeOrigin) });
}

/** The first views whose pictures may still come: cornerstone's code waits for them (firstPicturesSettled). */
const picturesToCome = new Set<Promise<void>>();

/**
 * Resolves once every first view started so far has its picture, or knows it will have none. The
 * viewer loads cornerstone's 4 MB only then: on a machine of two cores its parsing would slow the
 * download and the picture, and it could not draw the image before the whole file is here anyway.
 */
export async function firstPicturesSettled(): Promise<void> {
  await Promise.all([...picturesToCome]);
}

function startFirstView(imageId: string): FirstView {
  const job = nextJob++;
  let settlePreview!: (preview: FirstViewPreview | null) => void;
  let settleFile!: (file: ArrayBuffer | null) => void;
  let settlePicture!: () => void;
  const preview = new Promise<FirstViewPreview | null>((resolve) => (settlePreview = resolve));
  const file = new Promise<ArrayBuffer | null>((resolve) => (settleFile = resolve));
  const picture = new Promise<void>((resolve) => (settlePicture = resolve));
  picturesToCome.add(picture);
  void picture.then(() => picturesToCome.delete(picture));
  startWorker();
  settlers.set(job, (message) => {
    if (message?.kind === 'header') {
      markImageRequested(message.requestedAt);
      if (!message.previewable) settlePicture();
      return;
    }
    settlers.delete(job);
    const done = message?.kind === 'done' ? message : null;
    settlePreview(done?.preview ?? null);
    settleFile(done?.file ?? null);
    settlePicture();
    stopWorkerWhenIdle();
  });
  send({ kind: 'fetch', id: job, url: `/api/images/${encodeURIComponent(imageId)}`, targetLongSide: targetLongSide() });
  return { preview, file };
}
