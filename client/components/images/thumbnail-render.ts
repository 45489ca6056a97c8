import { cache, utilities } from '@cornerstonejs/core';
import { imageIdOfServerImage, startCornerstone } from '../../lib/cornerstone';

/**
 * Draws image `id` small onto `canvas`, on the CPU: a list of thumbnails must not take a WebGL
 * context each. The decoded full image is released at once; the thumbnail keeps only its pixels.
 */
export async function renderThumbnail(canvas: HTMLCanvasElement, id: string, sizeBytes: number): Promise<void> {
  startCornerstone(sizeBytes);
  const imageId = imageIdOfServerImage(id);
  try {
    await utilities.loadImageToCanvas({ canvas, imageId, useCPURendering: true, thumbnail: true });
  } finally {
    cache.removeImageLoadObject(imageId, { force: true });
  }
}
