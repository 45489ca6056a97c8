import type { UploadLimits } from '@common/types/upload';

/**
 * Room left for each file's multipart part headers (boundary, Content-Disposition with the path,
 * Content-Type), so a batch counted by file sizes stays under the server's request limit.
 */
export const PART_OVERHEAD_BYTES = 1024;

type Sized = { size: number; path: string };

/**
 * Splits the files, in order, into requests of at most `maxFilesPerRequest` files and
 * `maxRequestBytes` bytes. A file that alone passes the byte limit (the per-file limit should
 * prevent it) still travels, alone, so the server answers for it.
 */
export function planBatches<T extends Sized>(
  files: readonly T[],
  limits: Pick<UploadLimits, 'maxFilesPerRequest' | 'maxRequestBytes'>,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of files) {
    const size = item.size + PART_OVERHEAD_BYTES + item.path.length * 3;
    if (current.length > 0 && (current.length >= limits.maxFilesPerRequest || bytes + size > limits.maxRequestBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
