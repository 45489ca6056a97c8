import type { FirstViewPreview } from './first-view-messages';
import type { Flips } from './orientation';

export type Placement = { x: number; y: number; width: number; height: number };

/**
 * Where cornerstone3D puts a whole image in a canvas when it opens it (Viewport.resetCamera
 * without the legacy inset): as large as fits, centred.
 */
export function fittedPlacement(columns: number, rows: number, canvasWidth: number, canvasHeight: number): Placement {
  const scale = Math.min(canvasWidth / columns, canvasHeight / rows);
  const width = columns * scale;
  const height = rows * scale;
  return { x: (canvasWidth - width) / 2, y: (canvasHeight - height) / 2, width, height };
}

/**
 * Draws the first view into `canvas`, sized to its box in device pixels as cornerstone sizes its
 * own, turned as the viewport hangs the image (the same flips about the centre).
 */
export function drawFirstView(canvas: HTMLCanvasElement, preview: FirstViewPreview, flips: Flips): void {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, width, height);
  const { columns, rows, step, bitmap } = preview;
  const place = fittedPlacement(columns, rows, width, height);
  context.setTransform(
    flips.flipHorizontal ? -1 : 1,
    0,
    0,
    flips.flipVertical ? -1 : 1,
    flips.flipHorizontal ? width : 0,
    flips.flipVertical ? height : 0,
  );
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  // The picture's last boxes may reach past the image's edge: only the image's own part is drawn.
  context.drawImage(bitmap, 0, 0, columns / step, rows / step, place.x, place.y, place.width, place.height);
}
