/**
 * The one wrapper of pdfjs-dist. Browser only, and imported lazily by the result page alone, so
 * the PDF engine never weighs on other pages. The worker file is served as a separate asset.
 * The CSP forbids eval: pdfjs-dist 6 no longer compiles fonts with eval (its `isEvalSupported`
 * option is gone), so nothing needs switching off. Its WebAssembly image decoders need only
 * `'wasm-unsafe-eval'` (server/lib/security-headers.ts); its data files: ./pdf-data-urls.ts.
 */
import { getDocument, GlobalWorkerOptions, version, type PDFDocumentLoadingTask, type PDFDocumentProxy } from 'pdfjs-dist';
import { pdfWorker } from './pdf-worker';
import { pdfjsDataUrls } from './pdf-data-urls';

// One worker for every document, possibly started before this module loaded (./pdf-worker.ts).
GlobalWorkerOptions.workerPort = pdfWorker();

export type PdfDocument = {
  pageCount: number;
  /** Draws page `pageNumber` (1-based) into the canvas, `cssWidth` pixels wide on screen. */
  renderPage(pageNumber: number, canvas: HTMLCanvasElement, cssWidth: number): Promise<void>;
  destroy(): Promise<void>;
};

/** Thrown when the bytes are not a PDF PDF.js can read ("Invalid file format" in the UI). */
class InvalidPdfError extends Error {
  constructor(cause: unknown) {
    super('Invalid PDF', { cause });
    this.name = 'InvalidPdfError';
  }
}

function wrap(task: PDFDocumentLoadingTask, document: PDFDocumentProxy): PdfDocument {
  return {
    pageCount: document.numPages,
    async renderPage(pageNumber, canvas, cssWidth) {
      const page = await document.getPage(pageNumber);
      const unscaled = page.getViewport({ scale: 1 });
      // Sharp on high-density screens: draw at device pixels, show at CSS pixels.
      const pixelRatio = globalThis.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (cssWidth / unscaled.width) * pixelRatio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.aspectRatio = `${unscaled.width} / ${unscaled.height}`;
      await page.render({ canvas, viewport }).promise;
      page.cleanup();
    },
    // Destroying the loading task frees the document and its worker-side data.
    destroy: () => task.destroy(),
  };
}

export async function openPdf(data: ArrayBuffer): Promise<PdfDocument> {
  try {
    const task = getDocument({ data: new Uint8Array(data), ...pdfjsDataUrls(document.baseURI, version) });
    return wrap(task, await task.promise);
  } catch (error) {
    throw new InvalidPdfError(error);
  }
}
