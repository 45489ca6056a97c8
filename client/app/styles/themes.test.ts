import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THEMES } from '../../stores/prefs-store';

/** WCAG 2.x contrast of the theme tokens in themes.css: AA for text, 3:1 for focus rings and borders. */
const css = readFileSync(new URL('./themes.css', import.meta.url), 'utf8');

function themeTokens(theme: string): Record<string, string> {
  const selector = theme === 'default' ? ":root,\n[data-theme='default']" : `[data-theme='${theme}']`;
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`themes.css has no block for ${theme}`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((match) => [match[1], match[2]]));
}

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((offset) => parseInt(hex.slice(offset, offset + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** [foreground, background, minimum ratio] */
const PAIRS: Array<[string, string, number]> = [
  ['text', 'bg', 4.5],
  ['text', 'surface', 4.5],
  ['text', 'surface-tint', 4.5],
  ['text', 'hover', 4.5],
  ['text', 'header-bg', 4.5],
  ['text-muted', 'surface', 4.5],
  ['text-muted', 'header-bg', 4.5],
  ['link', 'surface', 4.5],
  ['link', 'surface-tint', 4.5],
  ['link', 'header-bg', 4.5],
  ['on-primary', 'primary', 4.5],
  ['on-primary', 'primary-hover', 4.5],
  ['danger', 'surface', 4.5],
  ['focus', 'bg', 3],
  ['focus', 'surface', 3],
  ['focus', 'header-bg', 3],
  ['border', 'surface', 3],
  ['primary', 'surface', 3],
  ['success', 'surface', 3],
  ['info', 'surface', 3],
  ['warning', 'surface', 3],
  ['icon-line', 'icon-fill', 3],
];

describe.each(THEMES)('contrast theme %s', (theme) => {
  const tokens = themeTokens(theme);

  it.each(PAIRS)('%s on %s reaches %s:1', (foreground, background, minimum) => {
    const [fg, bg] = [tokens[foreground], tokens[background]];
    expect(fg, `--${foreground}`).toBeDefined();
    expect(bg, `--${background}`).toBeDefined();
    expect(contrast(fg as string, bg as string)).toBeGreaterThanOrEqual(minimum);
  });
});
