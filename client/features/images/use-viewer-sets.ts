import { useCallback, useEffect, useState } from 'react';
import type { ImageSet } from '@common/types/images';
import { isApiError } from '../../lib/api';
import type { OwnerKey } from '../../lib/device-db';
import { fetchImageSets } from '../../lib/image-sets';
import { keptImageSets, onKeptImagesChange } from './kept-images';
import { isCopiesLocked } from '../../documents/copies-lock';

export type ViewerSetsLoad =
  | { kind: 'loading' }
  /** `offline`: the server could not be reached and these are the sets kept on the device. */
  | { kind: 'loaded'; sets: ImageSet[]; offline: boolean }
  | { kind: 'failed'; offline: boolean }
  /** Offline, her images are kept but sealed: the page asks for her PIN. */
  | { kind: 'locked'; ownerKey: OwnerKey };

type Answer = Exclude<ViewerSetsLoad, { kind: 'loading' }> & { request: string };

/**
 * The image sets the viewer can show: the server's, or, when the server cannot be reached, the ones
 * kept on this device for `ownerKey` (the signed-in patient, or offline the one remembered here),
 * once her PIN opened them.
 */
export function useViewerSets(ownerKey: OwnerKey | null): ViewerSetsLoad & { reload: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const request = `${ownerKey}#${attempt}`;
  useEffect(() => {
    let current = true;
    fetchImageSets().then(
      (sets) => current && setAnswer({ kind: 'loaded', sets, offline: false, request }),
      async (error: unknown) => {
        const offline = isApiError(error, 'NETWORK');
        let locked = false;
        const kept =
          offline && ownerKey
            ? await keptImageSets(ownerKey).catch((readError: unknown) => {
                locked = isCopiesLocked(readError);
                return [];
              })
            : [];
        if (!current) return;
        if (locked && ownerKey) setAnswer({ kind: 'locked', ownerKey, request });
        else setAnswer(kept.length > 0 ? { kind: 'loaded', sets: kept, offline: true, request } : { kind: 'failed', offline, request });
      },
    );
    return () => {
      current = false;
    };
  }, [ownerKey, request]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  // Offline the page shows only what the device keeps: images removed there are gone from it too.
  const fromDevice = answer?.kind === 'loaded' && answer.offline;
  useEffect(() => (fromDevice ? onKeptImagesChange(reload) : undefined), [fromDevice, reload]);
  return answer?.request === request ? { ...answer, reload } : { kind: 'loading', reload };
}
