import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { useIntl, useT } from '../../lib/intl';
import type { OwnerKey } from '../../lib/device-db';
import { formatStorage } from './format-storage';
import {
  imageStorageUsage,
  isImageSetKept,
  keepImageSet,
  NoRoomError,
  removeAllKeptImages,
  removeKeptImageSet,
  type ImageStorageUsage,
  type ScreeningImageSet,
} from './kept-images';
import { keepViewerCode } from '../../lib/viewer-code';
import { KeepOnDevice, useKeepsCopies } from '../../documents/KeepOnDevice';

type Phase = { name: 'idle' } | { name: 'saving'; done: number; total: number } | { name: 'failed'; message: string };

/**
 * "Keep images on this device": a screening's images kept for offline viewing, only when she asks,
 * within a device storage limit she sees (used of limit) and can clear. Like her documents they
 * are kept sealed, so only once she chose to keep copies on this device and set her PIN (issue 16):
 * the section offers that choice too.
 */
export function KeepImagesSection({ set, ownerKey, offline }: { set: ScreeningImageSet; ownerKey: OwnerKey; offline: boolean }) {
  const t = useT();
  const intl = useIntl();
  const [kept, setKept] = useState<boolean | null>(null);
  const [usage, setUsage] = useState<ImageStorageUsage | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const keepsCopies = useKeepsCopies(ownerKey);

  // Bumped after each change (kept, removed, cleared): the effect below reads the device again.
  const [changes, setChanges] = useState(0);
  const refresh = useCallback(() => setChanges((count) => count + 1), []);

  useEffect(() => {
    let current = true;
    Promise.all([isImageSetKept(ownerKey, set.screeningId), imageStorageUsage(ownerKey)]).then(
      ([isKept, nowUsed]) => {
        if (!current) return;
        setKept(isKept);
        setUsage(nowUsed);
      },
      () => current && setKept(false),
    );
    return () => {
      current = false;
    };
    // Her choice switched off deletes her kept images: read again when it changes.
  }, [ownerKey, set.screeningId, changes, keepsCopies]);

  // Kept images opened online: the worker fetches whatever of this version's viewer code the
  // device lacks (a new version's, or a part whose keeping broke off), so they still open offline.
  useEffect(() => {
    if (kept && !offline) void keepViewerCode();
  }, [kept, offline]);

  const keep = async () => {
    try {
      await keepImageSet(ownerKey, set, (done, total) => setPhase({ name: 'saving', done, total }));
      setPhase({ name: 'idle' });
    } catch (error) {
      const message =
        error instanceof NoRoomError
          ? t('images.offline.noRoom', { size: formatStorage(intl, error.sizeBytes), left: formatStorage(intl, error.leftBytes) })
          : t('images.offline.failed');
      setPhase({ name: 'failed', message });
    }
    refresh();
  };

  const saving = phase.name === 'saving';
  return (
    <section className="keep-images" aria-labelledby="keep-images-title">
      <h2 id="keep-images-title" className="image-viewer__subtitle">
        {t('images.offline.title')}
      </h2>
      <p>{t('images.offline.lead')}</p>
      {usage && (
        <p className="keep-images__usage">
          {t('images.offline.usage', { used: formatStorage(intl, usage.usedBytes), limit: formatStorage(intl, usage.limitBytes) })}
        </p>
      )}
      {kept && <p className="keep-images__kept">{t('images.offline.kept')}</p>}
      {keepsCopies === false && !offline && <p>{t('images.offline.needsKeeping')}</p>}
      <KeepOnDevice ownerKey={ownerKey} />
      <div className="keep-images__actions">
        {kept === false && keepsCopies && !offline && (
          <Button isPending={saving} onPress={() => void keep()}>
            {t('images.offline.keep')}
          </Button>
        )}
        {kept && (
          <Button variant="secondary" onPress={() => void removeKeptImageSet(ownerKey, set.screeningId).then(refresh)}>
            {t('images.offline.remove')}
          </Button>
        )}
        {usage && usage.usedBytes > 0 && (
          <Button variant="danger" onPress={() => void removeAllKeptImages(ownerKey).then(refresh)}>
            {t('images.offline.clear')}
          </Button>
        )}
      </div>
      {saving && (
        <p role="status" className="keep-images__progress">
          {t('images.offline.saving', { done: phase.done, total: phase.total })}
        </p>
      )}
      {phase.name === 'failed' && <p role="alert">{phase.message}</p>}
    </section>
  );
}
