import path from 'node:path';
import type { Plugin } from 'vite';
import { fillIndexHtmlMarker } from './vite-index-html-marker';

/**
 * The message catalogs are lazy chunks (client/lib/intl.ts), fetched only once the entry script
 * has run: one more round trip before the first text shows, over half a second on a phone's link.
 * The pre-paint script of index.html knows the stored language, so it starts that catalog's
 * download beside the entry script's; this plugin gives it the built chunks' URLs, written over
 * the `{}` after the marker. Without a build (dev server, tests) the map stays empty.
 */
export const CATALOG_URLS_MARKER = '/* catalog-urls */ {}';

/** `{ pl: '/assets/pl-<hash>.js', ... }` from the chunks whose module is client/i18n/<lang>.json. */
export function catalogUrls(chunks: Array<{ fileName: string; facadeModuleId: string | null }>, base = '/'): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const { fileName, facadeModuleId } of chunks) {
    const catalog = facadeModuleId && /[\\/]i18n[\\/]([a-z]{2})\.json$/.exec(facadeModuleId);
    if (catalog) urls[catalog[1]!] = path.posix.join(base, fileName);
  }
  return urls;
}

export function catalogPreload(): Plugin {
  return fillIndexHtmlMarker('catalog-preload', CATALOG_URLS_MARKER, (bundle, base) => {
    const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
    const urls = catalogUrls(chunks, base);
    if (!urls.pl) throw new Error('the build has no chunk of client/i18n/pl.json');
    return urls;
  });
}
