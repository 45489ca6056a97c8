import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THEMES } from '../../stores/prefs-store';

/** The red of the "password change required" notice, against each theme's own backgrounds. */
const themesCss = readFileSync(new URL('../../app/styles/themes.css', import.meta.url), 'utf8');
const profileCss = readFileSync(new URL('./profile.css', import.meta.url), 'utf8');

function tokenOf(css: string, theme: string, token: string): string | undefined {
  const selector = theme === 'default' ? ":root,\n[data-theme='default']" : `[data-theme='${theme}']`;
  const start = css.indexOf(`${selector} {`);
  if (start < 0) return undefined;
  const block = css.slice(start, css.indexOf('}', start));
  return new RegExp(`--${token}:\\s*(#[0-9a-f]{6})\\s*;`, 'i').exec(block)?.[1];
}

// WCAG 2.x relative luminance and contrast ratio.
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((offset) => parseInt(hex.slice(offset, offset + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function isRed(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((offset) => parseInt(hex.slice(offset, offset + 2), 16)) as [number, number, number];
  return r > 2 * Math.max(g, b) || (r >= 0xf0 && g < 0x80 && b < 0x80);
}

describe.each(THEMES)('password change notice in theme %s', (theme) => {
  const notice = tokenOf(profileCss, theme, 'password-notice');

  it('is red', () => {
    expect(notice, '--password-notice').toBeDefined();
    expect(isRed(notice!)).toBe(true);
  });

  it.each(['surface', 'bg'])('reads at 4.5:1 or better on --%s', (background) => {
    const color = tokenOf(themesCss, theme, background);
    expect(color, `--${background}`).toBeDefined();
    expect(contrast(notice!, color!)).toBeGreaterThanOrEqual(4.5);
  });
});
