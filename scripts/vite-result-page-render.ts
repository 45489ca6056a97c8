import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { RESULT_PAGE_BUILD } from '../common/drawn-result-page';
import { afterBuild } from './vite-after-build';
import { pageHtml } from './vite-prerender';

/**
 * What the server needs to draw the signed-in result page for each request (server/result-page/):
 * client/prerender/render-result-page.tsx bundled for Node with everything it imports (the built
 * client is served from anywhere, with no node_modules beside it), and the built index.html as the
 * page's frame, made as the public pages drawn at build time are (./vite-prerender.ts: `inert`,
 * `data-prerendered`, no modulepreload links), with slots for the page's title, its markup and the
 * answers the app starts from. Both go under `prerendered/`, which the service worker does not precache.
 */
export function resultPageTemplate(indexHtml: string): string {
  const { titleSlot, markupSlot, answersSlot } = RESULT_PAGE_BUILD;
  const root = `<div id="root" inert>${markupSlot}</div>`;
  const page = pageHtml(indexHtml, markupSlot, titleSlot);
  if (!page.includes(root)) throw new Error('the drawn page has no root element to fill');
  return page.replace(root, () => `${root}${answersSlot}`);
}

async function buildRenderer(config: ResolvedConfig, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: config.root,
    mode: 'production',
    logLevel: 'warn',
    resolve: { alias: config.resolve.alias },
    // React's production build; the server has no other NODE_ENV to pick it by.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
    build: {
      ssr: 'prerender/render-result-page.tsx',
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      rolldownOptions: { output: { entryFileNames: RESULT_PAGE_BUILD.renderer, chunkFileNames: 'chunk-[hash].mjs' } },
    },
  });
}

async function writeResultPageRenderer(config: ResolvedConfig): Promise<void> {
  const clientDir = path.resolve(config.root, config.build.outDir);
  const outDir = path.join(clientDir, RESULT_PAGE_BUILD.dir);
  mkdirSync(outDir, { recursive: true });
  const indexHtml = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  writeFileSync(path.join(outDir, RESULT_PAGE_BUILD.template), resultPageTemplate(indexHtml));
  await buildRenderer(config, outDir);
}

export function resultPageRenderer(): Plugin {
  // Last (vite.config.ts): no compressed copies of files only the server reads.
  return afterBuild('result-page-renderer', 'post', writeResultPageRenderer);
}
