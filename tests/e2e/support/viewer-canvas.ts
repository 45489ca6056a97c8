import { expect, type Locator } from '@playwright/test';

/**
 * What the canvas of a viewport shows: how many of its sampled pixels are not black, and how many
 * grey levels they take. A drawn mammogram has many; a blank or a one-colour canvas has one or two.
 */
export async function canvasInk(viewport: Locator): Promise<{ lit: number; levels: number }> {
  return viewport
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) return { lit: 0, levels: 0 };
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const levels = new Set<number>();
      let lit = 0;
      const step = Math.max(1, Math.floor(data.length / 4 / 20_000)) * 4;
      for (let index = 0; index < data.length; index += step) {
        const grey = data[index]!;
        levels.add(grey);
        if (grey > 16) lit++;
      }
      return { lit, levels: levels.size };
    });
}

/** The viewport says it drew its image, and its canvas shows a picture, not a blank. */
export async function expectDrawn(viewport: Locator): Promise<void> {
  await expect(viewport).toHaveAttribute('data-status', 'drawn', { timeout: 20_000 });
  await expect.poll(async () => (await canvasInk(viewport)).levels, { timeout: 10_000 }).toBeGreaterThan(8);
  expect((await canvasInk(viewport)).lit).toBeGreaterThan(100);
}
