import { useCallback, useEffect, useState } from 'react';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { Dialog } from '../components/ui/Dialog';
import type { OwnerKey } from '../lib/device-db';
import { useIntl, useT, type MessageKey } from '../lib/intl';
import { deleteAllKept, deleteKeptScreening, keptListTimes, listKept, onKeptChange, type KeptScreeningSummary } from './offline-copies';
import { KeepOnDevice, useKeepsCopies } from './KeepOnDevice';

const DOCUMENT_LABELS: Record<'pl' | 'en' | 'de' | 'none', MessageKey> = {
  pl: 'result.documents.descriptionPl',
  en: 'result.documents.descriptionEn',
  de: 'result.documents.descriptionDe',
  none: 'result.documents.descriptionPl',
};

function documentLabel(document: KeptScreeningSummary['documents'][number]): MessageKey {
  if (document.type === 'referral') return 'result.documents.referral';
  if (document.type === 'facilitiesList') return 'result.documents.facilitiesList';
  return DOCUMENT_LABELS[document.language ?? 'none'];
}

/** What the confirmation dialog is about to delete: one screening's copy, or all of them. */
type PendingDelete = { kind: 'one'; screeningId: number } | { kind: 'all' };

/**
 * "Saved on this device": her choice to keep copies here at all (issue 16), and, once she made it,
 * the owner's offline copies, each deletable, all at once too (her kept lists with them). Listing
 * them needs no PIN: only ids, sizes and dates are stored in clear.
 */
export function SavedCopies({ ownerKey }: { ownerKey: OwnerKey }) {
  const t = useT();
  const keeps = useKeepsCopies(ownerKey);
  const [kept, setKept] = useState<KeptScreeningSummary[] | null>(null);
  // When the newest of her lists (screenings, referrals) was kept; null when none is.
  const [listsSavedAt, setListsSavedAt] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingDelete | null>(null);

  const reload = useCallback(() => {
    void listKept(ownerKey)
      .then(setKept)
      .catch(() => setKept([]));
    void keptListTimes(ownerKey)
      .then((times) => setListsSavedAt(times.at(-1) ?? null))
      .catch(() => setListsSavedAt(null));
  }, [ownerKey]);
  useEffect(() => {
    reload();
    return onKeptChange(reload);
  }, [reload]);

  async function confirmDelete(what: PendingDelete) {
    if (what.kind === 'all') await deleteAllKept(ownerKey);
    else await deleteKeptScreening(ownerKey, what.screeningId);
    setPending(null);
  }

  return (
    <Card title={t('offline.saved.title')} className="result-card saved-copies">
      <KeepOnDevice ownerKey={ownerKey} />
      {keeps && kept && <KeptCopiesList kept={kept} listsSavedAt={listsSavedAt} onDelete={setPending} />}
      <Dialog
        title={t(pending?.kind === 'all' ? 'offline.saved.confirmAllTitle' : 'offline.saved.confirmOneTitle')}
        isOpen={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        role="alertdialog"
      >
        {({ close }) => (
          <>
            <p>{t(pending?.kind === 'all' ? 'offline.saved.confirmAllText' : 'offline.saved.confirmOneText')}</p>
            <div className="dialog__actions">
              <Button variant="secondary" onPress={close}>
                {t('offline.saved.cancel')}
              </Button>
              <Button onPress={() => pending && void confirmDelete(pending)}>{t('offline.saved.confirmDelete')}</Button>
            </div>
          </>
        )}
      </Dialog>
    </Card>
  );
}

type KeptCopiesListProps = {
  kept: KeptScreeningSummary[];
  listsSavedAt: string | null;
  onDelete: (what: PendingDelete) => void;
};

function KeptCopiesList({ kept, listsSavedAt, onDelete }: KeptCopiesListProps) {
  const t = useT();
  const intl = useIntl();
  const empty = kept.length === 0 && !listsSavedAt;
  return (
    <>
      {!empty && (
        <div className="saved-copies__bar">
          <Button variant="secondary" onPress={() => onDelete({ kind: 'all' })}>
            {t('offline.saved.deleteAll')}
          </Button>
        </div>
      )}
      {empty && <p>{t('offline.saved.empty')}</p>}
      {listsSavedAt && (
        <p>{t('offline.lists.saved', { date: intl.formatDate(listsSavedAt, { dateStyle: 'long', timeStyle: 'short' }) })}</p>
      )}
      {kept.length > 0 && (
        <ul className="saved-copies__list">
          {kept.map((copy) => {
            const examined = intl.formatDate(copy.examinedAt, { dateStyle: 'long' });
            return (
              <li key={copy.screeningId} className="saved-copies__item">
                <p className="saved-copies__heading">{t('offline.saved.screening', { date: examined })}</p>
                <ul>
                  {copy.documents.map((document) => (
                    <li key={document.documentId}>
                      {t(documentLabel(document))}
                      {' – '}
                      {t('offline.saved.size', { kilobytes: Math.max(1, Math.round(document.sizeBytes / 1024)) })}
                    </li>
                  ))}
                </ul>
                <p>{t('offline.saved.savedAt', { date: intl.formatDate(copy.savedAt, { dateStyle: 'long', timeStyle: 'short' }) })}</p>
                <Button
                  variant="secondary"
                  aria-label={t('offline.saved.deleteOneLabel', { date: examined })}
                  onPress={() => onDelete({ kind: 'one', screeningId: copy.screeningId })}
                >
                  {t('offline.saved.delete')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
