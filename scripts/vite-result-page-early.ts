import path from 'node:path';
import type { Plugin } from 'vite';
import { fillIndexHtmlMarker } from './vite-index-html-marker';

/**
 * The result page is what patients come for, and on a phone's link every round trip before it
 * shows is over half a second (issue 4). The pre-paint script of index.html starts its work
 * before the app's own code has loaded: online it sends the page's first requests and preloads its
 * chunk, offline in the installed app it starts the PDF engine's worker, the slowest part of
 * opening a kept description (client/lib/pdf-worker.ts takes it over). This plugin gives it the
 * built files' URLs, written over the `{}` after the marker. Without a build (dev server, tests)
 * it stays empty and all of it starts with the app, as before.
 */
export const RESULT_PAGE_URLS_MARKER = '/* result-page-urls */ {}';

export type ResultPageUrls = { pdfWorker: string; pageScript: string };

type Chunk = { fileName: string; name: string; type: 'chunk' };
type Output = Chunk | { fileName: string; type: 'asset' };

function one<T>(found: T[], what: string): T {
  if (found.length !== 1) throw new Error(`expected one ${what} in the build, found ${found.length}`);
  return found[0]!;
}

/**
 * The emitted pdf.js worker (client/lib/pdf-worker.ts imports it with `?url`) and the result
 * page's chunk (vite.config.ts groups the page with all it imports; its styles are in the one
 * stylesheet of every page).
 */
export function resultPageUrls(outputs: Output[], base = '/'): ResultPageUrls {
  const url = (fileName: string) => path.posix.join(base, fileName);
  const worker = one(
    outputs.filter((output) => /(^|\/)pdf\.worker\.min-[\w-]+\.mjs$/.test(output.fileName)),
    'pdf.js worker',
  );
  const page = one(
    outputs.filter((output): output is Chunk => output.type === 'chunk' && output.name === 'ResultPage'),
    'ResultPage chunk',
  );
  return { pdfWorker: url(worker.fileName), pageScript: url(page.fileName) };
}

export function resultPageEarlyStart(): Plugin {
  return fillIndexHtmlMarker('result-page-early-start', RESULT_PAGE_URLS_MARKER, (bundle, base) =>
    resultPageUrls(Object.values(bundle) as Output[], base),
  );
}
