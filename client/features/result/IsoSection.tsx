import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { api } from '../../lib/api';
import { useT, type MessageKey } from '../../lib/intl';
import { checkIsoDownload, isoDownloadUrl, startIsoDownload } from './iso-download';
import { ISO_POLL_INTERVAL_MS, isoGenerateErrorKey, isoViewOf, isWaitingForIso } from './iso-view';
import type { IsoStatus } from '@common/types/result';

/** The ISO disc image of the screening's pictures: request it, wait for it, download it. */
export function IsoSection({ screeningId, initialStatus }: { screeningId: number; initialStatus: IsoStatus }) {
  const t = useT();
  const [status, setStatus] = useState<IsoStatus>(initialStatus);
  const [requesting, setRequesting] = useState(false);
  const [checkingDownload, setCheckingDownload] = useState(false);
  const [error, setError] = useState<MessageKey | null>(null);
  const waiting = isWaitingForIso(status);

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      api
        .get<{ status: IsoStatus }>('/iso/status', { query: { id: screeningId } })
        .then((answer) => setStatus(answer.status))
        // A missed poll is retried by the next tick; the page keeps the accepted message meanwhile.
        .catch(() => undefined);
    }, ISO_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [waiting, screeningId]);

  async function generate() {
    setRequesting(true);
    setError(null);
    try {
      const answer = await api.post<{ status: IsoStatus }>('/iso/generate', { id: screeningId });
      setStatus(answer.status);
    } catch (failure) {
      setError(isoGenerateErrorKey(failure));
    } finally {
      setRequesting(false);
    }
  }

  async function download() {
    setCheckingDownload(true);
    setError(null);
    const url = isoDownloadUrl(screeningId);
    const check = await checkIsoDownload(url);
    setCheckingDownload(false);
    if (check.ok) {
      startIsoDownload(url);
      return;
    }
    setError(check.message);
    if (check.imageGone) {
      // The server marked it removed: the section offers to generate it again.
      await api
        .get<{ status: IsoStatus }>('/iso/status', { query: { id: screeningId } })
        .then((answer) => setStatus(answer.status))
        .catch(() => undefined);
    }
  }

  const view = isoViewOf(status);
  if (view === 'hidden') return null;
  return (
    <Card title={t('result.iso.title')} className="result-card">
      <p>{t('result.iso.lead')}</p>
      {view === 'generate' && (
        <Button onPress={() => void generate()} isPending={requesting}>
          {t('result.iso.generate')}
        </Button>
      )}
      {view === 'accepted' && (
        <p role="status" className="result-iso__accepted">
          {t('result.iso.accepted')}
        </p>
      )}
      {view === 'download' && (
        <Button onPress={() => void download()} isPending={checkingDownload}>
          {t('result.iso.download')}
        </Button>
      )}
      {error && (
        <p role="alert" className="result-iso__error">
          {t(error)}
        </p>
      )}
    </Card>
  );
}
