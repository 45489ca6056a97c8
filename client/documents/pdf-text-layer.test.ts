import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** A stylesheet's rules without comments, quotes and layout, which prettier may change. */
function normalized(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/["']/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,()])\s*/g, '$1')
    .trim();
}

/** The first top-level `.textLayer { … }` rule of pdf.js's viewer stylesheet. */
function textLayerRule(css: string): string {
  const start = css.indexOf('\n.textLayer {\n') + 1;
  const end = css.indexOf('\n}\n', start) + 2;
  return css.slice(start, end);
}

describe('pdf-text-layer.css', () => {
  it('is the text layer rule of the installed pdfjs-dist, whose TextLayer draws the spans it styles', () => {
    const pdfjs = readFileSync(new URL('../../node_modules/pdfjs-dist/web/pdf_viewer.css', import.meta.url), 'utf8');
    const ours = readFileSync(new URL('./pdf-text-layer.css', import.meta.url), 'utf8');
    const rule = textLayerRule(pdfjs);
    expect(rule).toContain('--text-scale-factor');
    expect(normalized(ours)).toBe(normalized(rule));
  });
});
