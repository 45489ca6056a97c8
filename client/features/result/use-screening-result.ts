import { useEffect, useState } from 'react';
import { isApiError } from '../../lib/api';
import type { OwnerKey } from '../../lib/device-db';
import { arrivedResult, fetchResult } from '../../early-start/result-requests';
import { isCopiesLocked } from '../../documents/copies-lock';
import type { ScreeningResult } from '@common/types/result';

export type ResultLoad =
  | { kind: 'loading' }
  /** `offlineSavedAt`: the network is off and this is the copy kept on the device at that time. */
  | { kind: 'loaded'; result: ScreeningResult; offlineSavedAt?: string }
  | { kind: 'failed'; offline: boolean }
  /** Offline, her copy is kept but sealed: the page asks for her PIN, then reads it again. */
  | { kind: 'locked'; ownerKey: OwnerKey };

/** The device database's code, loaded once the page shows: it never holds up the first render. */
const offlineCopies = () => import('../../documents/offline-copies');

const keptPdfs = () => import('../../early-start/kept-descriptions');

async function keptCopy(id: number | undefined, ownerKey: OwnerKey | null): Promise<ResultLoad> {
  if (!ownerKey) return { kind: 'failed', offline: true };
  try {
    const kept = await (await offlineCopies()).readKeptScreening(ownerKey, id);
    if (!kept) return { kind: 'failed', offline: true };
    // The page will open the kept descriptions at once (PdfViewer's openWhenKept): they are read
    // and opened while it renders (issue 4).
    (await keptPdfs()).startOpeningKeptDescriptions(ownerKey, kept.result);
    return { kind: 'loaded', result: kept.result, offlineSavedAt: kept.savedAt };
  } catch (error) {
    return isCopiesLocked(error) ? { kind: 'locked', ownerKey } : { kind: 'failed', offline: true };
  }
}

async function loadResult(id: number | undefined, ownerKey: OwnerKey | null): Promise<ResultLoad> {
  // A browser that knows it has no network goes straight to the device's copy.
  if (navigator.onLine === false) return keptCopy(id, ownerKey);
  try {
    const result = await fetchResult(id);
    if (ownerKey)
      await offlineCopies()
        .then(({ refreshKeptScreening }) => refreshKeptScreening(ownerKey, result))
        .catch(() => undefined);
    return { kind: 'loaded', result };
  } catch (error) {
    return isApiError(error, 'NETWORK') ? keptCopy(id, ownerKey) : { kind: 'failed', offline: false };
  }
}

const isSameAnswer = (shown: ResultLoad, loaded: ResultLoad) =>
  shown.kind === 'loaded' && loaded.kind === 'loaded' && shown.result === loaded.result && shown.offlineSavedAt === loaded.offlineSavedAt;

/**
 * `GET /api/screening/result`: the guest's screening (no id) or the patient's screening `id`.
 * With the network off, the copy of `ownerKey` kept on this device stands in for it, once her PIN
 * opened her copies.
 */
export function useScreeningResult(id: number | undefined, ownerKey: OwnerKey | null): ResultLoad {
  // Each answer remembers the screening it is for, so another id shows loading until its own. An
  // answer already here (sent with the page the server drew) shows in the first render.
  const [answer, setAnswer] = useState<{ id: number | undefined; load: ResultLoad } | null>(() => {
    const arrived = arrivedResult(id);
    return arrived ? { id, load: { kind: 'loaded', result: arrived } } : null;
  });
  useEffect(() => {
    let current = true;
    void loadResult(id, ownerKey).then((load) => {
      // The very answer the first render showed (sent with the page) is not shown again: that
      // would render the whole page once more, on a phone's busy main thread, for nothing.
      if (current) setAnswer((shown) => (shown !== null && shown.id === id && isSameAnswer(shown.load, load) ? shown : { id, load }));
    });
    return () => {
      current = false;
    };
  }, [id, ownerKey]);
  return answer && answer.id === id ? answer.load : { kind: 'loading' };
}
