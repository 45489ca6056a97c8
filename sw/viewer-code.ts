/**
 * The mammography viewer's code (client/features/images): cornerstone3D's chunk, its decoding
 * worker, the viewer's stylesheet and the codecs' WebAssembly. 6 MB that most installations never
 * use, so it is not precached; the worker keeps it in a cache of its own for a patient who keeps
 * images on the device (policy: sw/README.md). Pure, so it is tested without a worker.
 */

/** Paths relative to the build's root, as the precache manifest lists them; all content-hashed. */
const VIEWER_CODE_FILES = {
  cornerstone3D: /^assets\/cornerstone3d-[\w-]+\.js$/,
  decodingWorker: /^assets\/decodeImageFrameWorker-[\w-]+\.js$/,
  stylesheet: /^assets\/images-[\w-]+\.css$/,
  // Only the top level of assets/: pdf.js keeps wasm of its own under assets/pdfjs-<version>/.
  codecs: /^assets\/[\w-]+\.wasm$/,
} as const;

export const VIEWER_CODE_CACHE = 'viewer-code';

/** What the page posts to the worker (client/lib/viewer-code.ts), answered on its port with `{ ok }`. */
export const KEEP_VIEWER_CODE = 'KEEP_VIEWER_CODE';
export const DROP_VIEWER_CODE = 'DROP_VIEWER_CODE';

type ManifestEntry = string | { url: string };

const urlOf = (entry: ManifestEntry) => (typeof entry === 'string' ? entry : entry.url);
const relative = (url: string) => url.replace(/^\//, '');

export function isViewerCode(url: string): boolean {
  const path = relative(url);
  return Object.values(VIEWER_CODE_FILES).some((pattern) => pattern.test(path));
}

/** The build's file list, split into what is precached and the viewer's code. */
export function splitManifest<Entry extends ManifestEntry>(entries: readonly Entry[]): { precached: Entry[]; viewerCode: string[] } {
  const precached: Entry[] = [];
  const viewerCode: string[] = [];
  for (const entry of entries) {
    if (isViewerCode(urlOf(entry))) viewerCode.push(urlOf(entry));
    else precached.push(entry);
  }
  return { precached, viewerCode };
}

/**
 * Which parts of the viewer's code a build's file list lacks. The worker only knows the files the
 * manifest lists: a part left out (renamed, or over the size limit) would quietly break offline
 * viewing, so the build fails instead (vite.config.ts).
 */
export function missingViewerCode(entries: readonly ManifestEntry[]): string[] {
  const paths = entries.map((entry) => relative(urlOf(entry)));
  return Object.entries(VIEWER_CODE_FILES)
    .filter(([, pattern]) => !paths.some((path) => pattern.test(path)))
    .map(([part]) => part);
}

/** Kept files that belong to no current build's viewer: an older version's, to be deleted. */
export function staleViewerCode(keptUrls: readonly string[], currentUrls: ReadonlySet<string>): string[] {
  return keptUrls.filter((url) => !currentUrls.has(url));
}
