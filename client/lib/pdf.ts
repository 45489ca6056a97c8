/**
 * The one wrapper of pdfjs-dist. Browser only, and imported lazily by the result page alone, so
 * the PDF engine never weighs on other pages. The worker file is served as a separate asset.
 * The CSP forbids eval: pdfjs-dist 6 no longer compiles fonts with eval (its `isEvalSupported`
 * option is gone), so nothing needs switching off. Its WebAssembly image decoders need only
 * `'wasm-unsafe-eval'` (server/lib/security-headers.ts); its data files: ./pdf-data-urls.ts.
 * Its text layer positions and sizes its spans through the CSSOM (element.style), which the CSP
 * does not restrict; its stylesheet is bundled (client/documents/pdf-text-layer.css).
 */
import {
  getDocument,
  GlobalWorkerOptions,
  TextLayer,
  Util,
  version,
  type PageViewport,
  type PDFDocumentLoadingTask,
  type PDFDocumentProxy,
  type PDFPageProxy,
  type RenderTask,
} from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { pdfWorker } from './pdf-worker';
import { pdfjsDataUrls } from './pdf-data-urls';
import { groupTextBlocks, type PositionedText, type TextBlock } from './pdf-text';

// One worker for every document, possibly started before this module loaded (./pdf-worker.ts).
GlobalWorkerOptions.workerPort = pdfWorker();

/** Where a page is drawn: its canvas, and the element pdf.js fills with its selectable text. */
type PageTarget = { canvas: HTMLCanvasElement; textLayer?: HTMLElement | null };

/**
 * How large a page is drawn: as wide as `width` CSS pixels (the viewer), but never at a scale
 * (CSS pixels per PDF point) below `minScale`, so that on a phone the text stays readable and the
 * viewer pans sideways instead.
 */
type PageFit = { width: number; minScale: number };

export type PdfDocument = {
  pageCount: number;
  /**
   * Draws page `pageNumber` (1-based) into the target; drawn again into the same target (a new
   * size), only the canvas is redrawn and the text layer rescaled. An aborted `signal` stops it.
   */
  renderPage(pageNumber: number, target: PageTarget, fit: PageFit, signal?: AbortSignal): Promise<void>;
  /** The text of each page, as headings and paragraphs (the "read as text" view). */
  readText(): Promise<TextBlock[][]>;
  destroy(): Promise<void>;
};

/**
 * A page's canvas holds at most this many pixels: pdf.js's own viewer limit on phones, where a
 * page drawn large at a screen's 3 device pixels per CSS pixel would otherwise take 60 MB.
 */
const MAX_CANVAS_PIXELS = 5_242_880;

/** Thrown when the bytes are not a PDF PDF.js can read ("Invalid file format" in the UI). */
class InvalidPdfError extends Error {
  constructor(cause: unknown) {
    super('Invalid PDF', { cause });
    this.name = 'InvalidPdfError';
  }
}

/** The drawing under way in a canvas: pdf.js refuses a second one into the same canvas. */
const drawing = new WeakMap<HTMLCanvasElement, RenderTask>();
/** Text layers drawn or being drawn, so a redraw only rescales them. */
const textLayers = new WeakMap<HTMLElement, TextLayer>();

function pageScale(unscaled: PageViewport, fit: PageFit): number {
  return Math.max(fit.width / unscaled.width, fit.minScale);
}

async function drawCanvas(canvas: HTMLCanvasElement, page: PDFPageProxy, viewport: PageViewport) {
  const earlier = drawing.get(canvas);
  if (earlier) {
    earlier.cancel();
    await earlier.promise.catch(() => undefined);
  }
  const cssWidth = Math.floor(viewport.width);
  const cssHeight = Math.floor(viewport.height);
  // Sharp on high-density screens: drawn at device pixels, shown at CSS pixels.
  const pixelRatio = Math.min(globalThis.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (cssWidth * cssHeight)));
  const deviceViewport = viewport.clone({ scale: viewport.scale * pixelRatio });
  canvas.width = Math.floor(deviceViewport.width);
  canvas.height = Math.floor(deviceViewport.height);
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const task = page.render({ canvas, viewport: deviceViewport });
  drawing.set(canvas, task);
  try {
    await task.promise;
  } finally {
    if (drawing.get(canvas) === task) drawing.delete(canvas);
  }
}

/**
 * pdf.js's text layer: transparent spans over the drawn text, so it can be selected, found with
 * the browser's search, enlarged with the browser's zoom and read by a screen reader. Its sizes
 * follow `--total-scale-factor`, so a page drawn at another scale only changes that.
 */
async function drawTextLayer(container: HTMLElement, page: PDFPageProxy, viewport: PageViewport) {
  container.style.setProperty('--total-scale-factor', String(viewport.scale));
  const drawn = textLayers.get(container);
  if (drawn) {
    drawn.update({ viewport });
    return;
  }
  container.classList.add('textLayer');
  container.replaceChildren();
  const layer = new TextLayer({
    // The options of pdf.js's own viewer (web/text_layer_builder.js).
    textContentSource: page.streamTextContent({ includeMarkedContent: true, disableNormalization: true }),
    container,
    viewport,
  });
  textLayers.set(container, layer);
  try {
    await layer.render();
  } catch (error) {
    textLayers.delete(container);
    container.replaceChildren();
    throw error;
  }
  // As in pdf.js's viewer: while the mouse selects, this block under the text keeps the
  // selection from jumping to the end of the page when the pointer is between two lines.
  const endOfContent = document.createElement('div');
  endOfContent.className = 'endOfContent';
  container.append(endOfContent);
  container.addEventListener('mousedown', () => {
    container.classList.add('selecting');
    globalThis.addEventListener('pointerup', () => container.classList.remove('selecting'), { once: true });
  });
}

/** A text run of pdf.js placed on the page as it is shown (rotation and crop applied), unscaled. */
function positioned(item: TextItem, viewport: PageViewport): PositionedText {
  const [, , c = 0, d = 0, x = 0, y = 0] = Util.transform(viewport.transform, item.transform) as number[];
  return { text: item.str, x, y, width: item.dir === 'ttb' ? item.height : item.width, size: Math.hypot(c, d) };
}

function wrap(task: PDFDocumentLoadingTask, document: PDFDocumentProxy): PdfDocument {
  let text: Promise<TextBlock[][]> | null = null;

  async function readPageText(pageNumber: number): Promise<TextBlock[]> {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = content.items.filter((item): item is TextItem => 'str' in item);
    return groupTextBlocks(items.map((item) => positioned(item, viewport)));
  }

  return {
    pageCount: document.numPages,
    async renderPage(pageNumber, { canvas, textLayer }, fit, signal) {
      const page = await document.getPage(pageNumber);
      signal?.throwIfAborted();
      const viewport = page.getViewport({ scale: pageScale(page.getViewport({ scale: 1 }), fit) });
      const cancel = () => {
        drawing.get(canvas)?.cancel();
        const layer = textLayer && textLayers.get(textLayer);
        if (layer && textLayer) {
          layer.cancel();
          textLayers.delete(textLayer);
        }
      };
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        await Promise.all([drawCanvas(canvas, page, viewport), textLayer ? drawTextLayer(textLayer, page, viewport) : undefined]);
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    },
    readText() {
      text ??= (async () => {
        const pages: TextBlock[][] = [];
        for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber += 1) pages.push(await readPageText(pageNumber));
        return pages;
      })().catch((error: unknown) => {
        // A failed reading may succeed when asked again.
        text = null;
        throw error;
      });
      return text;
    },
    // Destroying the loading task frees the document and its worker-side data.
    async destroy() {
      await task.destroy();
      TextLayer.cleanup();
    },
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
