import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropInlinedStylesheets, inlineStylesheet } from './vite-inline-stylesheet';

const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source });
const chunk = (fileName: string, code: string) => ({ type: 'chunk', fileName, code });

describe('the inlined stylesheet left out of the build', () => {
  it('is taken out when no other built file names it', () => {
    const bundle = {
      'assets/style-S.css': asset('assets/style-S.css', 'body{margin:0}'),
      'index.html': asset('index.html', '<style>body{margin:0}</style>'),
    };
    expect(dropInlinedStylesheets(bundle as never, new Set(['assets/style-S.css']))).toEqual(['assets/style-S.css']);
    expect(Object.keys(bundle)).toEqual(['index.html']);
  });

  it('stays while a page or a script still loads it', () => {
    const linked = {
      'assets/style-S.css': asset('assets/style-S.css', 'a{}'),
      'other.html': asset('other.html', '<link rel="stylesheet" href="/assets/style-S.css">'),
    };
    expect(dropInlinedStylesheets(linked as never, new Set(['assets/style-S.css']))).toEqual([]);
    const loaded = {
      'assets/style-S.css': asset('assets/style-S.css', 'a{}'),
      'assets/page-P.js': chunk('assets/page-P.js', 'load("style-S.css")'),
    };
    expect(dropInlinedStylesheets(loaded as never, new Set(['assets/style-S.css']))).toEqual([]);
    expect(Object.keys(loaded)).toContain('assets/style-S.css');
  });
});

/**
 * A small app built by Vite with the plugin and the service worker's precache list
 * (vite-plugin-pwa's injectManifest, as vite.config.ts): every stylesheet the worker precaches
 * must be one a built page or script loads.
 */
describe('the service worker of a build with the stylesheet inside index.html', () => {
  let dir: string;
  let outDir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'inline-stylesheet-'));
    outDir = path.join(dir, 'dist');
    mkdirSync(path.join(dir, 'sw'));
    writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/main.js"></script></head><body></body></html>',
    );
    writeFileSync(path.join(dir, 'main.js'), "import './style.css';\nvoid import('./page.js');\n");
    writeFileSync(path.join(dir, 'page.js'), "import './page.css';\nexport const page = 'page';\n");
    writeFileSync(path.join(dir, 'style.css'), 'body { margin: 0 }\n');
    writeFileSync(path.join(dir, 'page.css'), '.page { color: red }\n');
    writeFileSync(path.join(dir, 'sw', 'sw.js'), 'self.manifest = self.__WB_MANIFEST;\n');
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, cssCodeSplit: false },
      plugins: [
        inlineStylesheet(),
        VitePWA({
          strategies: 'injectManifest',
          srcDir: 'sw',
          filename: 'sw.js',
          injectRegister: false,
          manifest: false,
          injectManifest: { globPatterns: ['**/*.{js,css,html}'] },
        }),
      ],
    });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('precaches no stylesheet that nothing loads', () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('<style>');
    const scripts = readdirSync(path.join(outDir, 'assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(outDir, 'assets', name), 'utf8'));
    const precachedCss = [...readFileSync(path.join(outDir, 'sw.js'), 'utf8').matchAll(/"?url"?:\s*"([^"]+\.css)"/g)].map(
      (match) => match[1]!,
    );
    const unused = precachedCss.filter((url) => ![html, ...scripts].some((text) => text.includes(path.posix.basename(url))));
    expect(unused).toEqual([]);
    expect(readdirSync(path.join(outDir, 'assets')).filter((name) => name.endsWith('.css'))).toEqual([]);
  });
});
