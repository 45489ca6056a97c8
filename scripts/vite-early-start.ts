import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { minify, transformWithOxc, type IndexHtmlTransformContext, type Plugin } from 'vite';
import type { EarlyStartUrls } from '../client/early-start/pre-paint';

/**
 * Writes the pre-paint script (client/early-start/pre-paint.ts, docs/early-start.md) into
 * index.html, over `<script data-early-start></script>`: compiled from TypeScript, minified, and
 * called with the built files' URLs. Without a build (dev server) it is called with none, and the
 * app starts all of the work itself.
 */
const PLACEHOLDER = '<script data-early-start></script>';
const SOURCE = new URL('../client/early-start/pre-paint.ts', import.meta.url);
const URLS_TOKEN = 'EARLY_START_URLS';

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type Chunk = { fileName: string; name: string; type: 'chunk'; facadeModuleId?: string | null };
type Output = Chunk | { fileName: string; type: 'asset' };

let compiled: Promise<string> | undefined;

/** The script's body: `prePaint(URLS)` with the function compiled from its TypeScript source. */
function compilePrePaint(): Promise<string> {
  compiled ??= (async () => {
    const source = await readFile(SOURCE, 'utf8');
    const { code } = await transformWithOxc(source, 'pre-paint.ts', { lang: 'ts', sourcemap: false });
    // An inline script is not a module: the exports become plain declarations.
    const script = `${code.replace(/^export /gm, '')}\nprePaint(${URLS_TOKEN});`;
    const minified = await minify('pre-paint.js', script, { compress: true, mangle: { toplevel: false } });
    if (minified.errors.length > 0) throw new Error(`pre-paint script: ${minified.errors.map((error) => error.message).join('; ')}`);
    return minified.code.trim();
  })();
  return compiled;
}

/** The inline script as index.html carries it, with `urls` written in (`<` escaped, so nothing closes the tag). */
export async function earlyStartScript(urls: EarlyStartUrls): Promise<string> {
  return (await compilePrePaint()).replace(URLS_TOKEN, () => JSON.stringify(urls).replace(/</g, '\\u003c'));
}

/** `{ pl: '/assets/pl-<hash>.js', ... }` from the chunks whose module is client/i18n/<lang>.json. */
export function catalogUrls(chunks: Array<{ fileName: string; facadeModuleId?: string | null }>, base = '/'): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const { fileName, facadeModuleId } of chunks) {
    const catalog = facadeModuleId && /[\\/]i18n[\\/]([a-z]{2})\.json$/.exec(facadeModuleId);
    if (catalog) urls[catalog[1]!] = path.posix.join(base, fileName);
  }
  return urls;
}

function one<T>(found: T[], what: string): T {
  if (found.length !== 1) throw new Error(`expected one ${what} in the build, found ${found.length}`);
  return found[0]!;
}

/**
 * The emitted pdf.js worker (client/lib/pdf-worker.ts imports it with `?url`) and the result
 * page's chunk (vite.config.ts groups the page with all it imports; its styles are in the one
 * stylesheet of every page).
 */
export function resultPageUrls(outputs: Output[], base = '/'): Required<Pick<EarlyStartUrls, 'pdfWorker' | 'resultPage'>> {
  const url = (fileName: string) => path.posix.join(base, fileName);
  const worker = one(
    outputs.filter((output) => /(^|\/)pdf\.worker\.min-[\w-]+\.mjs$/.test(output.fileName)),
    'pdf.js worker',
  );
  const page = one(
    outputs.filter((output): output is Chunk => output.type === 'chunk' && output.name === 'ResultPage'),
    'ResultPage chunk',
  );
  return { pdfWorker: url(worker.fileName), resultPage: url(page.fileName) };
}

function builtUrls(bundle: Bundle, base: string): EarlyStartUrls {
  const outputs = Object.values(bundle) as Output[];
  const catalogs = catalogUrls(
    outputs.flatMap((output) => (output.type === 'chunk' ? [output] : [])),
    base,
  );
  if (!catalogs.pl) throw new Error('the build has no chunk of client/i18n/pl.json');
  return { catalogs, ...resultPageUrls(outputs, base) };
}

export function earlyStart(): Plugin {
  let base = '/';
  return {
    name: 'early-start',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle }) {
        if (!html.includes(PLACEHOLDER)) throw new Error(`index.html has no ${PLACEHOLDER} to fill`);
        const script = await earlyStartScript(bundle ? builtUrls(bundle, base) : {});
        return html.replace(PLACEHOLDER, () => `<script>${script}</script>`);
      },
    },
  };
}
