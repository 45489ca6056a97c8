import { describe, expect, it } from 'vitest';
import { PART_OVERHEAD_BYTES, planBatches } from './upload-batches';

const sized = (size: number, path = 'f') => ({ size, path });

describe('planBatches', () => {
  it('never puts more files in a request than the server takes', () => {
    const files = Array.from({ length: 25 }, () => sized(10));
    const batches = planBatches(files, { maxFilesPerRequest: 10, maxRequestBytes: 1e9 });
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(files);
  });

  it('starts a new request before the bytes, part headers included, would pass the limit', () => {
    const limit = 3 * (1000 + PART_OVERHEAD_BYTES + 3);
    const batches = planBatches([sized(1000), sized(1000), sized(1000), sized(1), sized(1000)], {
      maxFilesPerRequest: 100,
      maxRequestBytes: limit,
    });
    expect(batches.map((batch) => batch.map((file) => file.size))).toEqual([
      [1000, 1000, 1000],
      [1, 1000],
    ]);
  });

  it('sends a file larger than a whole request alone rather than never', () => {
    const batches = planBatches([sized(10), sized(5000), sized(10)], { maxFilesPerRequest: 100, maxRequestBytes: 4000 });
    expect(batches.map((batch) => batch.map((file) => file.size))).toEqual([[10], [5000], [10]]);
  });

  it('plans nothing for no files', () => {
    expect(planBatches([], { maxFilesPerRequest: 10, maxRequestBytes: 10 })).toEqual([]);
  });
});
