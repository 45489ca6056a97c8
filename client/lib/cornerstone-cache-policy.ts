/**
 * How much decoded pixel data the viewer keeps (cornerstone's image cache). A tablet with 2-4 GB
 * of memory shares it with the browser and the system: an eighth of it, within 128 MB and 1 GB.
 * Browsers that do not report `navigator.deviceMemory` (Safari, Firefox: most tablets) get the
 * figure of a 2 GB device. The cache always holds at least the largest image, or it could not be
 * drawn at all (cornerstone refuses an image bigger than its whole cache).
 */
const MB = 1024 * 1024;
const MIN_CACHE = 128 * MB;
const MAX_CACHE = 1024 * MB;
const UNKNOWN_DEVICE_GB = 2;

export function cacheLimitBytes(deviceMemoryGb: number | undefined, largestImageBytes = 0): number {
  const memory = deviceMemoryGb && deviceMemoryGb > 0 ? deviceMemoryGb : UNKNOWN_DEVICE_GB;
  const share = Math.min(MAX_CACHE, Math.max(MIN_CACHE, (memory * 1024 * MB) / 8));
  // Twice the largest image: it and the next one of a pager fit side by side while it turns.
  return Math.max(share, 2 * largestImageBytes);
}

/**
 * The images of a pager (a stack paged one image at a time) worth keeping decoded: the one shown
 * and its neighbours, which she is likely to turn to next. Every other image she paged past is
 * released at once, so paging through 100 images holds three, not a cache full.
 */
export function pagerKeepWindow(imageIds: readonly string[], currentIndex: number): Set<string> {
  return new Set(imageIds.slice(Math.max(0, currentIndex - 1), currentIndex + 2));
}

/** The decoded images of this pager to release after turning to `currentIndex`. */
export function pagerReleases(imageIds: readonly string[], currentIndex: number, cached: (imageId: string) => boolean): string[] {
  const keep = pagerKeepWindow(imageIds, currentIndex);
  return imageIds.filter((imageId) => !keep.has(imageId) && cached(imageId));
}
