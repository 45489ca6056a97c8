import { describe, expect, it } from 'vitest';
import type { ImageSet } from '@common/types/images';
import { priorScreeningSet, screeningSetOf, uploadSetOf } from './image-sets';

const screening = (screeningId: number, examinedAt: string): ImageSet => ({ kind: 'screening', screeningId, examinedAt, images: [] });
const upload = (studyInstanceUid: string, studyDate: string): ImageSet => ({ kind: 'upload', studyInstanceUid, studyDate, images: [] });

describe('image sets', () => {
  const sets = [
    screening(3, '2025-03-14T08:00:00Z'),
    upload('1.2.3', '2024-06-01'),
    screening(1, '2021-02-01T08:00:00Z'),
    screening(2, '2023-03-01T08:00:00Z'),
  ];

  it('finds the set of a screening or an uploaded study', () => {
    expect(screeningSetOf(sets, 2)?.examinedAt).toBe('2023-03-01T08:00:00Z');
    expect(uploadSetOf(sets, '1.2.3')?.studyDate).toBe('2024-06-01');
    expect(screeningSetOf(sets, 9)).toBeUndefined();
  });

  it('compares with the newest earlier screening, never an upload or a later one', () => {
    expect(priorScreeningSet(sets, screeningSetOf(sets, 3)!)?.screeningId).toBe(2);
    expect(priorScreeningSet(sets, screeningSetOf(sets, 2)!)?.screeningId).toBe(1);
    expect(priorScreeningSet(sets, screeningSetOf(sets, 1)!)).toBeUndefined();
  });
});
