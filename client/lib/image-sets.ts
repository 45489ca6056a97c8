import type { ImageSet, ImageSetsResponse } from '@common/types/images';
import { api } from './api';

/**
 * GET /api/images, shared by the links and thumbnails of the result page, the screenings list and
 * the upload page (none of them loads the viewer's code): one request serves every link of a
 * page; a page opened later asks again, so a new upload shows.
 */
let pending: { at: number; answer: Promise<ImageSet[]> } | null = null;
const REUSE_MS = 5_000;

export function fetchImageSets(): Promise<ImageSet[]> {
  const now = Date.now();
  if (!pending || now - pending.at > REUSE_MS) {
    const answer = api.get<ImageSetsResponse>('/images').then((response) => response.sets);
    // A failure is not kept: the next caller asks again.
    answer.catch(() => {
      if (pending?.answer === answer) pending = null;
    });
    pending = { at: now, answer };
  }
  return pending.answer;
}

export function screeningSetOf(sets: readonly ImageSet[], screeningId: number) {
  return sets.find((set): set is Extract<ImageSet, { kind: 'screening' }> => set.kind === 'screening' && set.screeningId === screeningId);
}

export function uploadSetOf(sets: readonly ImageSet[], studyInstanceUid: string) {
  return sets.find(
    (set): set is Extract<ImageSet, { kind: 'upload' }> => set.kind === 'upload' && set.studyInstanceUid === studyInstanceUid,
  );
}

/**
 * The screening to compare with: the newest set of kind 'screening' examined before this one
 * (the sets come newest first, but the order is not trusted).
 */
export function priorScreeningSet(sets: readonly ImageSet[], current: Extract<ImageSet, { kind: 'screening' }>) {
  return sets
    .filter((set): set is Extract<ImageSet, { kind: 'screening' }> => set.kind === 'screening' && set.examinedAt < current.examinedAt)
    .sort((a, b) => b.examinedAt.localeCompare(a.examinedAt))[0];
}
