import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import type { KeptListKind } from '../lib/device-db';
import { useT } from '../lib/intl';
import { OfflineCopyMark } from './OfflineCopyMark';

/**
 * Which lists on screen are the copies kept on the device, and from when. The lists load deep
 * inside their page (the screenings table, the referrals view): each reports here while it shows
 * a kept copy, the page shows one mark above them, and whatever needs the server reads it.
 */
const shownOffline = proxy<{ lists: Partial<Record<KeptListKind, string>> }>({ lists: {} });

/** A list on screen tells whether it shows the kept copy of `savedAt` (null: the server's answer). */
export function useReportOfflineList(kind: KeptListKind, savedAt: string | null): void {
  useEffect(() => {
    if (savedAt === null) return;
    shownOffline.lists[kind] = savedAt;
    return () => {
      if (shownOffline.lists[kind] === savedAt) delete shownOffline.lists[kind];
    };
  }, [kind, savedAt]);
}

/**
 * While lists on screen are the device's copies: when the oldest of them was kept; else null.
 * What needs the server (ordering, documents) reads it to say so instead of failing.
 */
export function useOfflineListSavedAt(): string | null {
  const { lists } = useSnapshot(shownOffline);
  return Object.values(lists).sort()[0] ?? null;
}

/** The page's "offline copy from <date>" mark while its lists are the kept ones. */
export function OfflineListsMark() {
  const t = useT();
  const savedAt = useOfflineListSavedAt();
  return savedAt ? <OfflineCopyMark savedAt={savedAt} note={t('offline.lists.needsConnection')} /> : null;
}
