import type { Page } from '@playwright/test';

/** Whether the PDF page's canvas holds anything but one flat colour (a drawn page has text and lines). */
export function canvasHasDrawing(page: Page, name: RegExp): Promise<boolean> {
  return page
    .getByRole('img', { name })
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) return false;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let index = 4; index < data.length; index += 4) {
        if (data[index] !== data[0] || data[index + 1] !== data[1] || data[index + 2] !== data[2]) return true;
      }
      return false;
    });
}
