import type { IndexHtmlTransformContext, Plugin } from 'vite';

/**
 * Puts the app's one stylesheet (vite.config.ts: cssCodeSplit off) into index.html as a
 * `<style>`, in place of its `<link>`: a linked stylesheet blocks the first paint for one more
 * round trip, over half a second on a phone's slow link (issue 16, Lighthouse). It is about 8 KB
 * compressed, sent with the page. The server's Content-Security-Policy allows it by its hash
 * (server/lib/security-headers.ts). The file stays in the build for the service worker's list.
 */
type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g;

export function inlineStylesheets(html: string, bundle: Bundle, base = '/'): string {
  return html.replace(STYLESHEET_LINK, (_link, href: string) => {
    const asset = Object.values(bundle).find((output) => output.type === 'asset' && `${base}${output.fileName}` === href);
    if (!asset || asset.type !== 'asset') throw new Error(`the build has no stylesheet ${href} to inline`);
    const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
    if (/<\/style/i.test(css)) throw new Error(`${href} cannot be inlined: it contains </style`);
    return `<style>${css}</style>`;
  });
}

export function inlineStylesheet(): Plugin {
  let base = '/';
  return {
    name: 'inline-stylesheet',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) => (bundle ? inlineStylesheets(html, bundle, base) : html),
    },
  };
}
