import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { inlineStylesheets } from './vite-inline-stylesheet';
import { pageHtml } from './vite-prerender';
import { startAfterPaint } from './vite-start-after-paint';

const BUILT = `<!doctype html>
<html lang="pl" data-theme="default">
  <head>
    <title>Portal Pacjentki – Mammografia</title>
    <script>prePaint()</script>
    <script type="module" crossorigin src="/assets/index-Q.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-R.js">
    <link rel="modulepreload" crossorigin href="/assets/react-D.js">
    <link rel="stylesheet" crossorigin href="/assets/style-S.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const bundle = { 'assets/style-S.css': { type: 'asset', fileName: 'assets/style-S.css', source: 'body{margin:0}' } } as never;

describe('the stylesheet inside index.html', () => {
  it('replaces the link with the stylesheet itself', () => {
    const html = inlineStylesheets(BUILT, bundle);
    expect(html).toContain('<style>body{margin:0}</style>');
    expect(html).not.toContain('style-S.css');
  });

  it('fails the build for a stylesheet it cannot find or inline', () => {
    expect(() => inlineStylesheets(BUILT, {} as never)).toThrow(/no stylesheet/);
    const closing = { 'assets/style-S.css': { type: 'asset', fileName: 'assets/style-S.css', source: 'a{}</style>' } } as never;
    expect(() => inlineStylesheets(BUILT, closing)).toThrow(/<\/style/);
  });
});

/** Runs the starter of `html` against a minimal page; `paint()` reports the first contentful paint. */
function runStarter(html: string, { rootChildren, hidden = false }: { rootChildren: boolean; hidden?: boolean }) {
  const starter = /<script>(\(function\(\)[\s\S]*?)<\/script>/.exec(html)![1]!;
  const imported: string[] = [];
  const preloaded: string[] = [];
  let reportPaint: ((list: unknown, observer: unknown) => void) | undefined;
  runInNewContext(starter.replace(/\bimport\(/g, '__import('), {
    __import: (url: string) => {
      imported.push(url);
      return url.includes('/missing-') ? Promise.reject(new Error('offline')) : Promise.resolve();
    },
    document: {
      getElementById: () => ({ hasChildNodes: () => rootChildren }),
      createElement: () => ({}),
      head: { appendChild: (link: { href: string }) => preloaded.push(link.href) },
    },
    getComputedStyle: () => ({ visibility: hidden ? 'hidden' : 'visible' }),
    PerformanceObserver: function PerformanceObserver(callback: typeof reportPaint) {
      reportPaint = callback;
      return { observe() {} };
    },
    setTimeout: (callback: () => void, ms: number) => (ms === 0 ? callback() : undefined),
  });
  const paint = () => reportPaint?.({ getEntriesByName: () => [{}] }, { disconnect() {} });
  return { imported, preloaded, paint };
}

describe('the app started after the first paint of a drawn page', () => {
  const index = startAfterPaint(BUILT);

  it("keeps index.html's downloads from the start, the entry's as a preload", () => {
    expect(index).toContain('<link rel="modulepreload" crossorigin href="/assets/index-Q.js">');
    expect(index).not.toContain('<script type="module"');
    expect(runStarter(index, { rootChildren: false }).imported).toEqual(['/assets/index-Q.js']);
  });

  it('draws a page into the root, inert, with no download before its first paint', () => {
    const page = pageHtml(startAfterPaint(BUILT), '<main>Treść</main>', 'FAQ &amp; pomoc – Portal Pacjentki');
    expect(page).toContain('<html data-prerendered lang="pl"');
    // The page's own title from the first paint, not the portal's name until the app has started.
    expect(page).toContain('<title>FAQ &amp; pomoc – Portal Pacjentki</title>');
    expect(page).not.toContain('Mammografia');
    expect(page).toContain('<div id="root" inert><main>Treść</main></div>');
    expect(page).not.toMatch(/<link rel="modulepreload"/);
    const started = runStarter(page, { rootChildren: true });
    expect(started.imported).toEqual([]);
    started.paint();
    expect(started.imported).toEqual(['/assets/index-Q.js']);
    expect(started.preloaded).toEqual(['/assets/runtime-R.js', '/assets/react-D.js']);
  });

  it("runs React's chunk first and the entry in a later task, both downloading from the start", async () => {
    const page = pageHtml(startAfterPaint(BUILT, 'assets/react-D.js'), '<main>Treść</main>', 'FAQ – Portal Pacjentki');
    const started = runStarter(page, { rootChildren: true });
    started.paint();
    expect(started.preloaded).toEqual(['/assets/runtime-R.js', '/assets/react-D.js']);
    expect(started.imported).toEqual(['/assets/react-D.js']);
    await Promise.resolve();
    expect(started.imported).toEqual(['/assets/react-D.js', '/assets/index-Q.js']);
  });

  it("still imports the entry when React's chunk fails to load, and fails the build without that chunk", async () => {
    const html = BUILT.replace('react-D.js', 'missing-D.js');
    const started = runStarter(startAfterPaint(html, 'assets/missing-D.js'), { rootChildren: false });
    await Promise.resolve();
    expect(started.imported).toEqual(['/assets/missing-D.js', '/assets/index-Q.js']);
    expect(() => startAfterPaint(BUILT, 'assets/other-X.js')).toThrow(/does not preload/);
  });

  it("draws the cookie dialog's picture beside the root, inert, where the app's first render leaves it", () => {
    const page = pageHtml(
      startAfterPaint(BUILT),
      '<main>Treść</main>',
      'FAQ – Portal Pacjentki',
      '<div class="modal-overlay">Pliki cookie</div>',
    );
    expect(page).toContain(
      '<div id="root" inert><main>Treść</main></div><div id="drawn-cookie-dialog" inert><div class="modal-overlay">Pliki cookie</div></div>',
    );
    // A page drawn without one (the server's result page) has no empty holder for it.
    expect(pageHtml(startAfterPaint(BUILT), '<main>Treść</main>', 'FAQ – Portal Pacjentki')).not.toContain('drawn-cookie-dialog');
  });

  it('starts at once when the drawn page is hidden (another language): it would paint nothing', () => {
    const page = pageHtml(startAfterPaint(BUILT), '<main>Treść</main>', 'FAQ – Portal Pacjentki');
    expect(runStarter(page, { rootChildren: true, hidden: true }).imported).toEqual(['/assets/index-Q.js']);
  });
});
