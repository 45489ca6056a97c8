import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../components/ui/Button';
import { api, isApiError, type QueryValue } from '../lib/api';
import { useT, type MessageKey } from '../lib/intl';
import type { PdfDocument } from '../lib/pdf';
import { warmUpPdfWorker } from '../lib/pdf-worker';
import type { KeptPdf } from '../early-start/kept-descriptions';
import type { KeptDocument } from './kept-documents';
import type { OwnerKey } from '../lib/device-db';
import type { ScreeningResult } from '@common/types/result';
import { saveBlob } from './save-blob';

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
 * device once fetched; offline (`offline`), it is read from there. Without `document` (a referral
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
    // A full or refused device storage must not stop the patient from reading her document.
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
  const offline = deviceCopy?.offline ?? false;
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
              <Button variant="secondary" onPress={() => void open()} isPending={state.kind === 'loading'}>
                {t('result.pdf.open')}
              </Button>
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
      {state.kind === 'shown' && <PdfPages document={state.document} title={title} />}
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

/** The drawn pages of an open document; the referral screen shows its PDF with these too. */
export function PdfPages({ document, title }: { document: PdfDocument; title: string }) {
  const t = useT();
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRefs = useRef<Array<HTMLCanvasElement | null>>([]);
  const [renderFailed, setRenderFailed] = useState(false);
  const pages = Array.from({ length: document.pageCount }, (_, index) => index + 1);

  useEffect(() => {
    let cancelled = false;
    const width = containerRef.current?.clientWidth ?? 600;
    void (async () => {
      try {
        // One page after another: a phone draws the first page soonest that way.
        for (const pageNumber of pages) {
          const canvas = canvasRefs.current[pageNumber - 1];
          if (cancelled || !canvas) return;
          await document.renderPage(pageNumber, canvas, width);
          // User Timing mark for `npm run bench` (issue 4: first page offline within 300 ms).
          if (pageNumber === 1) performance.mark('pdf-first-page-rendered');
        }
      } catch {
        if (!cancelled) setRenderFailed(true);
      }
    })();
    return () => {
      cancelled = true;
    };
    // `pages` follows from `document`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [document]);

  if (renderFailed) return <PdfError>{t('result.pdf.invalidFormat')}</PdfError>;
  return (
    <div
      ref={containerRef}
      className="pdf-viewer__pages"
      role="region"
      aria-label={t('result.pdf.pagesLabel', { title })}
      // Scrollable, so keyboard users must be able to focus it to scroll with the arrow keys
      // (WCAG 2.1.1; axe's scrollable-region-focusable asks for exactly this).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
    >
      {pages.map((pageNumber) => (
        <canvas
          key={pageNumber}
          ref={(element) => {
            canvasRefs.current[pageNumber - 1] = element;
          }}
          className="pdf-viewer__page"
          role="img"
          aria-label={t('result.pdf.pageLabel', { page: pageNumber, pages: document.pageCount })}
        />
      ))}
    </div>
  );
}
