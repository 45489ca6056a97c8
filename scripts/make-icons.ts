/**
 * Renders the portal's app icons (public/icons/*.png) from one SVG mark in headless Chromium,
 * so the PNGs are pixel-exact at their declared sizes and can be regenerated after a brand change:
 *   npx tsx scripts/make-icons.ts
 * Each maskable icon is checked after rendering: the mark must stay inside the central circle of
 * 40% radius that every platform mask keeps visible (the W3C "safe zone").
 */
import { chromium, type Page } from '@playwright/test';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Keep in step with theme_color / background_color in public/manifest.webmanifest. */
const BRAND_PINK = '#ad1457';
const MARK_COLOUR = '#ffffff';
const SAFE_ZONE_RADIUS = 0.4;

type IconVariant = 'any' | 'maskable';

interface IconSpec {
  file: string;
  size: number;
  variant: IconVariant;
}

const ICONS: IconSpec[] = [
  { file: 'icon-192.png', size: 192, variant: 'any' },
  { file: 'icon-512.png', size: 512, variant: 'any' },
  { file: 'icon-maskable-192.png', size: 192, variant: 'maskable' },
  { file: 'icon-maskable-512.png', size: 512, variant: 'maskable' },
  { file: 'apple-touch-icon-180.png', size: 180, variant: 'maskable' },
];

const outputDir = fileURLToPath(new URL('../public/icons/', import.meta.url));

/**
 * An awareness ribbon drawn in a 100 x 100 box centred on (50, 50): the strand from the left tail
 * crosses over the strand that runs down to the right tail; a thin gap in the brand colour along
 * the upper strand makes the crossing readable at 48 px.
 */
function ribbon(background: string): string {
  const strand = `fill="none" stroke="${MARK_COLOUR}" stroke-width="13" stroke-linejoin="round"`;
  return `
    <clipPath id="tails"><rect x="0" y="0" width="100" height="93"/></clipPath>
    <g clip-path="url(#tails)">
      <path ${strand} d="M50 10 C28 10 31 25 50 56 L75 97"/>
      <path fill="none" stroke="${background}" stroke-width="19" d="M38 75.6 L57.5 43.8"/>
      <path ${strand} d="M25 97 L50 56 C69 25 72 10 50 10"/>
    </g>`;
}

/** The whole icon as SVG; also written out as a scalable favicon. */
function iconSvg(variant: IconVariant): string {
  // "any" icons get a rounded tile and a large mark; maskable ones fill the square edge to edge
  // and shrink the mark into the safe zone, because the platform cuts its own shape out of them.
  const tile =
    variant === 'any'
      ? `<rect width="100" height="100" rx="22" fill="${BRAND_PINK}"/>`
      : `<rect width="100" height="100" fill="${BRAND_PINK}"/>`;
  const markScale = variant === 'any' ? 0.8 : 0.66;
  const offset = (100 - 100 * markScale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  ${tile}
  <g transform="translate(${offset} ${offset}) scale(${markScale})">${ribbon(BRAND_PINK)}</g>
</svg>`;
}

async function renderPng(page: Page, svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">
      <div style="width:${size}px;height:${size}px">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</div>
    </body></html>`,
  );
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

/** Largest distance from the centre, as a fraction of the icon size, of any mark-coloured pixel. */
async function markReach(page: Page, png: Buffer): Promise<number> {
  const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  return page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
    let reach = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        // Anti-aliased edge pixels blend pink and white; count anything clearly lighter than pink.
        if (data[i + 1]! > 128) reach = Math.max(reach, Math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2) / width);
      }
    }
    return reach;
  }, dataUrl);
}

async function main(): Promise<void> {
  await mkdir(outputDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const icon of ICONS) {
      const png = await renderPng(page, iconSvg(icon.variant), icon.size);
      if (icon.variant === 'maskable') {
        const reach = await markReach(page, png);
        if (reach > SAFE_ZONE_RADIUS) {
          throw new Error(`${icon.file}: the mark reaches ${(reach * 100).toFixed(1)}% from the centre, outside the safe zone`);
        }
      }
      await writeFile(`${outputDir}${icon.file}`, png);
      console.log(`${icon.file} ${icon.size}x${icon.size} ${png.length} bytes`);
    }
    await writeFile(`${outputDir}favicon.svg`, `${iconSvg('any')}\n`);
    console.log('favicon.svg');
  } finally {
    await browser.close();
  }
}

await main();
