import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ToggleButton } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { Button } from '../components/ui/Button';
import { api, isApiError, type QueryValue } from '../lib/api';
import { useT, type MessageKey } from '../lib/intl';
import type { PdfDocument } from '../lib/pdf';
import type { TextBlock } from '../lib/pdf-text';
import { prefs } from '../stores/prefs-store';
import { warmUpPdfWorker } from '../lib/pdf-worker';
import type { KeptPdf } from '../early-start/kept-descriptions';
import type { KeptDocument } from './kept-documents';
import type { OwnerKey } from '../lib/device-db';
import type { ScreeningResult } from '@common/types/result';
import { saveBlob } from './save-blob';
import { useOfflineListSavedAt } from './offline-lists';
import './pdf-text-layer.css';

type PdfSource = { path: string; query: Record<string, QueryValue> };

type ViewerState =
  { kind: 'closed' } | { kind: 'loading' } | { kind: 'shown'; document: PdfDocument } | { kind: 'failed'; message: MessageKey };

export type PdfViewerProps = {
  title: string;
  source: PdfSource;
  fileName: string;
  /** Shown when the file cannot be fetched (spec section 8 names one per document kind). */
  fetchErrorKey?: MessageKey;
  deviceCopy?: DeviceCopy;
  /**
   * Offline, opened as soon as the document is found on the device: the patient came back to read
   * it and it costs no data. Online a viewer opens on request only (each opening is an audited
   * read and a download).
   */
  openWhenKept?: boolean;
};

/**
 * The offline copy of this viewer's document: online, a document of the result is kept on the
 * device once fetched, sealed, when she chose to keep copies there (otherwise it lives only in
 * this page's memory); offline (`offline`), it is read from there. Without `document` (a referral
 * the result does not list) nothing is kept, so offline it is not available.
 */
type DeviceCopy = {
  offline: boolean;
  ownerKey: OwnerKey | null;
  result: ScreeningResult;
  document?: KeptDocument;
};

// Loading the viewers' code starts the PDF engine's worker (when its code is on the device), so
// opening a document never waits for the engine to start (issue 4: 300 ms offline).
warmUpPdfWorker();

/** The device database's code, loaded when a document is read or kept, not with the page. */
const offlineCopies = () => import('./offline-copies');
const keptPdfs = () => import('../early-start/kept-descriptions');

class NotKeptOfflineError extends Error {
  constructor() {
    super('Not kept on this device');
    this.name = 'NotKeptOfflineError';
  }
}

async function fetchPdf(source: PdfSource, deviceCopy: DeviceCopy | undefined): Promise<Blob> {
  const { offline = false, ownerKey = null, result, document } = deviceCopy ?? {};
  if (offline) {
    const kept = ownerKey && document && (await (await offlineCopies()).readKeptPdf(ownerKey, document.id));
    if (!kept) throw new NotKeptOfflineError();
    return kept;
  }
  const blob = await api.getBlob(source.path, { query: source.query });
  if (ownerKey && result && document) {
    // Kept only when she chose to (keepDocument does nothing otherwise). A full or refused device
    // storage must not stop the patient from reading her document.
    await offlineCopies()
      .then(({ keepDocument }) => keepDocument(ownerKey, result, document, blob))
      .catch(() => undefined);
  }
  return blob;
}

/**
 * Offline: the copy of this viewer's document kept on the device (already open when the offline
 * gate started opening it), null when there is none, undefined while asking (and online, where
 * the server has it).
 */
function useKeptOffline(deviceCopy: DeviceCopy | undefined): KeptPdf | null | undefined {
  // A viewer of a list shown from the device (the screenings page offline) keeps no copy: not available.
  const listOffline = useOfflineListSavedAt() !== null;
  const offline = deviceCopy?.offline ?? listOffline;
  const ownerKey = deviceCopy?.ownerKey ?? null;
  const documentId = deviceCopy?.document?.id;
  const [kept, setKept] = useState<{ documentId: string | undefined; copy: KeptPdf | null } | null>(null);
  useEffect(() => {
    if (!offline) return;
    let current = true;
    const lookup =
      ownerKey && documentId
        ? keptPdfs()
            .then(({ takeKeptPdf }) => takeKeptPdf(ownerKey, documentId))
            .catch(() => null)
        : Promise.resolve(null);
    void lookup.then((copy) => {
      if (current) setKept({ documentId, copy });
      // A document opened for a viewer that is gone is shown by nobody.
      else void copy?.document?.destroy();
    });
    return () => {
      current = false;
    };
  }, [offline, ownerKey, documentId]);
  return offline && kept && kept.documentId === documentId ? kept.copy : undefined;
}

function failureKey(error: unknown, fetchErrorKey: MessageKey): MessageKey {
  if (error instanceof Error && error.name === 'InvalidPdfError') return 'result.pdf.invalidFormat';
  if (error instanceof NotKeptOfflineError) return 'offline.notAvailable';
  if (isApiError(error, 'NETWORK')) return 'errors.offline';
  return fetchErrorKey;
}

/**
 * One PDF document of the result page: opened on request (each opening is an audited read and a
 * download on a phone), its pages drawn into canvases that scroll within 512 px, and a download
 * button that doubles as the text alternative of the drawn pages.
 */
export function PdfViewer({
  title,
  source,
  fileName,
  fetchErrorKey = 'result.errors.fetch',
  deviceCopy,
  openWhenKept = false,
}: PdfViewerProps) {
  const t = useT();
  const headingId = useId();
  const [state, setState] = useState<ViewerState>({ kind: 'closed' });
  const [asText, setAsText] = useState(false);
  const shownRef = useRef<HTMLDivElement>(null);
  // Set when the patient asks for the document: once shown, it takes the focus the button had.
  const focusWhenShown = useRef(false);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState<MessageKey | null>(null);
  const keptCopy = useKeptOffline(deviceCopy);
  // Online the server has every document; offline only a kept one can be opened.
  const notKept = keptCopy === null;

  useEffect(() => {
    if (state.kind !== 'shown') return;
    const shown = state.document;
    return () => void shown.destroy();
  }, [state]);

  // The "show document" button is gone once the document is shown: without this, focus would
  // fall to <body> and a keyboard or screen reader user would start again from the page's top.
  // Not when the document opened by itself (offline): nobody asked, so nothing is taken away.
  useEffect(() => {
    if (state.kind === 'failed') focusWhenShown.current = false;
    if (state.kind !== 'shown' || !focusWhenShown.current) return;
    focusWhenShown.current = false;
    shownRef.current?.focus();
  }, [state]);

  const openedOnArrival = useRef(false);
  useEffect(() => {
    if (!openWhenKept || !keptCopy || openedOnArrival.current) return;
    openedOnArrival.current = true;
    void open(keptCopy);
    // `open` reads the props of this render, which are the ones that found the document kept.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openWhenKept, keptCopy]);

  /** `kept`: the document as already read from the device (and maybe opened), not read again. */
  async function open(kept?: KeptPdf) {
    if (kept?.document) {
      setState({ kind: 'shown', document: kept.document });
      return;
    }
    setState({ kind: 'loading' });
    try {
      const [blob, { openPdf }] = await Promise.all([kept?.blob ?? fetchPdf(source, deviceCopy), import('../lib/pdf')]);
      setState({ kind: 'shown', document: await openPdf(await blob.arrayBuffer()) });
    } catch (error) {
      setState({ kind: 'failed', message: failureKey(error, fetchErrorKey) });
    }
  }

  async function download() {
    setDownloading(true);
    setDownloadFailed(null);
    try {
      saveBlob(await fetchPdf(source, deviceCopy), fileName);
    } catch (error) {
      setDownloadFailed(failureKey(error, fetchErrorKey));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="pdf-viewer" aria-labelledby={headingId}>
      <div className="pdf-viewer__bar">
        <h3 id={headingId} className="pdf-viewer__title">
          {title}
        </h3>
        {notKept ? (
          <p className="pdf-viewer__status">{t('offline.notAvailable')}</p>
        ) : (
          <div className="pdf-viewer__actions">
            {state.kind !== 'shown' && (
              // Not `isPending`: react-aria would announce the pending button by its id, and the
              // button is gone once the document shows (a dangling live-region entry for 7 s); the
              // viewer's own status line says the document is opening.
              <Button
                variant="secondary"
                onPress={() => {
                  if (state.kind === 'loading') return;
                  focusWhenShown.current = true;
                  void open();
                }}
                aria-disabled={state.kind === 'loading' || undefined}
              >
                {t('result.pdf.open')}
              </Button>
            )}
            {state.kind === 'shown' && (
              <ToggleButton className="btn btn--secondary pdf-viewer__toggle" isSelected={asText} onChange={setAsText}>
                {t('result.pdf.readAsText')}
              </ToggleButton>
            )}
            <Button variant="secondary" onPress={() => void download()} isPending={downloading}>
              {t('result.pdf.download')}
            </Button>
          </div>
        )}
      </div>
      {state.kind === 'loading' && <PdfLoading />}
      {state.kind === 'failed' && <PdfError>{t(state.message)}</PdfError>}
      {downloadFailed && <PdfError>{t(downloadFailed)}</PdfError>}
      {state.kind === 'shown' && (
        <PdfPages
          document={state.document}
          title={title}
          lang={deviceCopy?.document?.language ?? undefined}
          asText={asText}
          regionRef={shownRef}
        />
      )}
    </section>
  );
}

/** A viewer's line while its document loads; the referral screen's viewer shows it too. */
export function PdfLoading() {
  const t = useT();
  return (
    <p role="status" className="pdf-viewer__status">
      {t('result.pdf.loading')}
    </p>
  );
}

/** A viewer's failure, announced at once; the referral screen's viewer and the result's documents show it too. */
export function PdfError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="pdf-viewer__error">
      {children}
    </p>
  );
}

/**
 * Below this scale (CSS pixels per PDF point) a page is not drawn at the standard text size: a
 * description's 10 pt body text then stands 12 px high. It grows with the patient's text size
 * (the root font size: 14 px at the standard size, times 1.4 or 1.6, times the browser's own
 * setting), so on a phone the page is drawn larger than the screen and pans inside the viewer.
 */
const READABLE_SCALE = 1.2;
const STANDARD_ROOT_FONT_PX = 14;

function minimumScale(): number {
  const rootFontPx = parseFloat(getComputedStyle(window.document.documentElement).fontSize);
  return (READABLE_SCALE * (rootFontPx > 0 ? rootFontPx : STANDARD_ROOT_FONT_PX)) / STANDARD_ROOT_FONT_PX;
}

/** The width the pages may take in the viewer, in CSS pixels (its content box, without scrollbar). */
function useContentWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
      const next = Math.max(0, Math.floor(element.clientWidth - padding));
      setWidth((current) => (current === next ? current : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export type PdfPagesProps = {
  document: PdfDocument;
  title: string;
  /** The document's language, when it is not the portal's: screen readers then read it in it. */
  lang?: string;
  /** The "read as text" view: the document's text as the portal's own HTML. */
  asText?: boolean;
  /** The scrolling region shown (pages or text), for the viewer to move focus to. */
  regionRef?: RefObject<HTMLDivElement | null>;
};

/**
 * An open document, as its drawn pages with pdf.js's text layer over them (selectable, found by
 * the browser's search, read by screen readers) or as its text; the referral screen shows its PDF
 * with these too.
 */
export function PdfPages({ asText = false, ...props }: PdfPagesProps) {
  return asText ? <PdfText {...props} /> : <PdfDrawnPages {...props} />;
}

function PdfDrawnPages({ document, title, lang, regionRef }: Omit<PdfPagesProps, 'asText'>) {
  const t = useT();
  const { fontScale } = useSnapshot(prefs);
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRefs = useRef<Array<HTMLCanvasElement | null>>([]);
  const textLayerRefs = useRef<Array<HTMLDivElement | null>>([]);
  const firstPageMarked = useRef(false);
  const [renderFailed, setRenderFailed] = useState(false);
  const width = useContentWidth(containerRef);
  const pages = Array.from({ length: document.pageCount }, (_, index) => index + 1);

  useEffect(() => {
    if (width === null) return;
    const controller = new AbortController();
    const fit = { width, minScale: minimumScale() };
    void (async () => {
      try {
        // One page after another: a phone draws the first page soonest that way.
        for (const pageNumber of pages) {
          const canvas = canvasRefs.current[pageNumber - 1];
          if (controller.signal.aborted || !canvas) return;
          await document.renderPage(pageNumber, { canvas, textLayer: textLayerRefs.current[pageNumber - 1] }, fit, controller.signal);
          // User Timing mark for `npm run bench` (issue 4: first page offline within 300 ms).
          if (pageNumber === 1 && !firstPageMarked.current) {
            firstPageMarked.current = true;
            performance.mark('pdf-first-page-rendered');
          }
        }
      } catch {
        if (!controller.signal.aborted) setRenderFailed(true);
      }
    })();
    return () => controller.abort();
    // `pages` follows from `document`; the font scale changes the smallest readable scale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [document, width, fontScale]);

  if (renderFailed) return <PdfError>{t('result.pdf.invalidFormat')}</PdfError>;
  return (
    <div
      ref={(element) => {
        containerRef.current = element;
        if (regionRef) regionRef.current = element;
      }}
      className="pdf-viewer__pages"
      role="region"
      aria-label={t('result.pdf.pagesLabel', { title })}
      // Scrollable, so keyboard users must be able to focus it to scroll with the arrow keys
      // (WCAG 2.1.1; axe's scrollable-region-focusable asks for exactly this).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
    >
      {pages.map((pageNumber) => (
        <div key={pageNumber} className="pdf-viewer__sheet">
          <canvas
            ref={(element) => {
              canvasRefs.current[pageNumber - 1] = element;
            }}
            className="pdf-viewer__page"
            role="img"
            aria-label={t('result.pdf.pageLabel', { page: pageNumber, pages: document.pageCount })}
          />
          <div
            ref={(element) => {
              textLayerRefs.current[pageNumber - 1] = element;
            }}
            className="textLayer"
            lang={lang}
          />
        </div>
      ))}
    </div>
  );
}

/** Consecutive two-column rows (a label and its value) as one list of pairs; other blocks as they are. */
function groupFields(blocks: TextBlock[]): Array<TextBlock | Array<[string, string]>> {
  const groups: Array<TextBlock | Array<[string, string]>> = [];
  for (const block of blocks) {
    const [label, value, ...more] = block.cells ?? [];
    if (block.kind !== 'paragraph' || label === undefined || value === undefined || more.length > 0) {
      groups.push(block);
      continue;
    }
    const last = groups.at(-1);
    if (Array.isArray(last)) last.push([label, value]);
    else groups.push([[label, value]]);
  }
  return groups;
}

type TextState = { kind: 'reading' } | { kind: 'read'; pages: TextBlock[][] } | { kind: 'failed' };

/**
 * The "read as text" view: the document's text in the portal's own font, size and colours, which
 * reflows on a phone. Read from the open document, so offline it comes from the kept copy.
 */
function PdfText({ document, title, lang, regionRef }: Omit<PdfPagesProps, 'asText'>) {
  const t = useT();
  const [read, setRead] = useState<{ of: PdfDocument; text: TextState } | null>(null);
  const text: TextState = read?.of === document ? read.text : { kind: 'reading' };

  useEffect(() => {
    let current = true;
    document.readText().then(
      (pages) => current && setRead({ of: document, text: { kind: 'read', pages } }),
      () => current && setRead({ of: document, text: { kind: 'failed' } }),
    );
    return () => {
      current = false;
    };
  }, [document]);

  const pages = text.kind === 'read' ? text.pages : [];
  const empty = text.kind === 'read' && pages.every((blocks) => blocks.length === 0);
  return (
    <div
      ref={regionRef}
      className="pdf-viewer__text"
      role="region"
      aria-label={t('result.pdf.textLabel', { title })}
      aria-busy={text.kind === 'reading' || undefined}
      // Scrollable within 512 px like the pages, so it must be reachable by keyboard.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
    >
      {text.kind === 'reading' && (
        <p role="status" className="pdf-viewer__status">
          {t('result.pdf.textLoading')}
        </p>
      )}
      {text.kind === 'failed' && <PdfError>{t('result.pdf.textFailed')}</PdfError>}
      {empty && <p className="pdf-viewer__status">{t('result.pdf.textEmpty')}</p>}
      {!empty &&
        pages.map((blocks, index) => (
          <div key={index} className="pdf-viewer__text-page">
            {pages.length > 1 && (
              <p className="pdf-viewer__text-page-label">{t('result.pdf.pageLabel', { page: index + 1, pages: pages.length })}</p>
            )}
            <div lang={lang}>
              {groupFields(blocks).map((group, groupIndex) =>
                Array.isArray(group) ? (
                  // A run of label and value rows (the patient's data, the examination's fields).
                  <dl key={groupIndex} className="pdf-viewer__text-fields">
                    {group.map(([label, value], rowIndex) => (
                      <div key={rowIndex}>
                        <dt>{label}</dt>
                        <dd>{value}</dd>
                      </div>
                    ))}
                  </dl>
                ) : group.kind === 'heading' ? (
                  // The viewer's title is a level-3 heading; the document's own headings go under it.
                  <h4 key={groupIndex} className="pdf-viewer__text-heading">
                    {group.text}
                  </h4>
                ) : (
                  <p key={groupIndex}>{group.text}</p>
                ),
              )}
            </div>
          </div>
        ))}
    </div>
  );
}
