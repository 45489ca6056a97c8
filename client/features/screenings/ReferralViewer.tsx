import { useEffect, useId, useState } from 'react';
import type { ReferralListItem } from '@common/types/screenings';
import { Button } from '../../components/ui/Button';
import { api } from '../../lib/api';
import { useIntl, useT } from '../../lib/intl';
import type { PdfDocument } from '../../lib/pdf';
import { notify } from '../../stores/notification-store';
import { downloadName } from '../../documents/download-names';
import { PdfError, PdfLoading, PdfPages } from '../../documents/PdfViewer';
import { saveBlob } from '../../documents/save-blob';
import { LoadFailure } from '../../components/ui/LoadFailure';

type ViewerState =
  | { kind: 'loading' }
  /** `document` is null when the bytes are no PDF the browser can draw: they can still be saved. */
  | { kind: 'shown'; blob: Blob; document: PdfDocument | null }
  | { kind: 'failed' };

/** The referral is a Polish document: it is asked for in Polish and saved under its Polish name. */
const REFERRAL_LANGUAGE = 'pl';

async function fetchReferral(screeningId: number, signal: AbortSignal): Promise<{ blob: Blob; document: PdfDocument | null }> {
  const [blob, { openPdf }] = await Promise.all([
    api.getBlob('/screening/referral', { query: { id: screeningId, lang: REFERRAL_LANGUAGE }, signal }),
    import('../../lib/pdf'),
  ]);
  const document = await openPdf(await blob.arrayBuffer()).catch(() => null);
  return { blob, document };
}

/**
 * The selected referral (spec section 2, referral screen): fetched as soon as its row is chosen,
 * drawn page by page, and saved as `skierowanie-YYYY-MM-DD.pdf` whatever the UI language.
 */
export function ReferralViewer({ referral }: { referral: ReferralListItem }) {
  const t = useT();
  const intl = useIntl();
  const headingId = useId();
  const [attempt, setAttempt] = useState(0);
  // Each answer remembers the request it is for: another referral shows loading until its own.
  const requestKey = `${referral.screeningId}#${attempt}`;
  const [answer, setAnswer] = useState<{ key: string; state: ViewerState } | null>(null);
  const state: ViewerState = answer?.key === requestKey ? answer.state : { kind: 'loading' };
  const title = t('referrals.viewer.title', { date: intl.formatDate(referral.createdAt, { dateStyle: 'long' }) });

  useEffect(() => {
    const controller = new AbortController();
    const key = `${referral.screeningId}#${attempt}`;
    let opened: PdfDocument | null = null;
    fetchReferral(referral.screeningId, controller.signal).then(
      ({ blob, document }) => {
        if (controller.signal.aborted) {
          void document?.destroy();
          return;
        }
        opened = document;
        setAnswer({ key, state: { kind: 'shown', blob, document } });
      },
      () => {
        if (controller.signal.aborted) return;
        setAnswer({ key, state: { kind: 'failed' } });
        notify({ kind: 'error', key: 'result.errors.referral' });
      },
    );
    return () => {
      controller.abort();
      void opened?.destroy();
    };
  }, [referral.screeningId, attempt]);

  return (
    <section className="card referral-viewer pdf-viewer" aria-labelledby={headingId} aria-busy={state.kind === 'loading' || undefined}>
      <div className="pdf-viewer__bar">
        <h2 id={headingId} className="pdf-viewer__title">
          {title}
        </h2>
        {state.kind === 'shown' && (
          <div className="pdf-viewer__actions">
            <Button
              variant="secondary"
              onPress={() => saveBlob(state.blob, downloadName('referral', REFERRAL_LANGUAGE, { examinedAt: referral.createdAt }))}
            >
              {t('result.pdf.download')}
            </Button>
          </div>
        )}
      </div>
      {state.kind === 'loading' && <PdfLoading />}
      {state.kind === 'failed' && <LoadFailure message={t('result.errors.referral')} onRetry={() => setAttempt((count) => count + 1)} />}
      {state.kind === 'shown' &&
        (state.document ? <PdfPages document={state.document} title={title} /> : <PdfError>{t('result.pdf.invalidFormat')}</PdfError>)}
    </section>
  );
}
