import { describe, expect, it } from 'vitest';
import { RESULT_PAGE_BUILD } from '../common/drawn-result-page';
import { resultPageTemplate } from './vite-result-page-render';

const BUILT = `<!doctype html>
<html lang="pl" data-theme="default">
  <head>
    <title>Portal Pacjentki – Mammografia</title>
    <script>prePaint()</script>
    <link rel="modulepreload" crossorigin href="/assets/index-Q.js">
  </head>
  <body>
    <div id="root"></div>
    <script>startAfterPaint()</script>
  </body>
</html>`;

describe('the frame of the result page the server draws', () => {
  it('is index.html as a drawn page: inert root, marked drawn, its scripts downloaded after the first paint', () => {
    const { titleSlot, markupSlot, answersSlot } = RESULT_PAGE_BUILD;
    const frame = resultPageTemplate(BUILT);
    expect(frame).toContain('<html data-prerendered lang="pl"');
    expect(frame).toContain(`<title>${titleSlot}</title>`);
    expect(frame).toContain(`<div id="root" inert>${markupSlot}</div>${answersSlot}\n    <script>startAfterPaint()</script>`);
    expect(frame).not.toContain('modulepreload');
    // The inline scripts are index.html's own, so the Content-Security-Policy's hashes of them hold.
    expect(frame).toContain('<script>prePaint()</script>');
  });

  it('fails the build for an index.html without its root element', () => {
    expect(() => resultPageTemplate(BUILT.replace('<div id="root"></div>', ''))).toThrow(/root/);
  });
});
