import type { IndexHtmlTransformContext, Plugin } from 'vite';

/**
 * Puts the app's one stylesheet (vite.config.ts: cssCodeSplit off) into index.html as a
 * `<style>`, in place of its `<link>`: a linked stylesheet blocks the first paint for one more
 * round trip, over half a second on a phone's slow link (issue 16, Lighthouse). It is about 8 KB
 * compressed, sent with the page. The server's Content-Security-Policy allows it by its hash
 * (server/lib/security-headers.ts). Every page is index.html or a copy of it (the service worker
 * answers offline with index.html too), so the file itself is then left out of the build: nothing
 * would fetch it, and the service worker, which precaches every built stylesheet, would download
 * it on each installation for nothing.
 */
type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g;

/** index.html with each linked stylesheet inside it; `inlined` collects their files' names. */
export function inlineStylesheets(html: string, bundle: Bundle, base = '/', inlined?: Set<string>): string {
  return html.replace(STYLESHEET_LINK, (_link, href: string) => {
    const asset = Object.values(bundle).find((output) => output.type === 'asset' && `${base}${output.fileName}` === href);
    if (!asset || asset.type !== 'asset') throw new Error(`the build has no stylesheet ${href} to inline`);
    const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
    if (/<\/style/i.test(css)) throw new Error(`${href} cannot be inlined: it contains </style`);
    inlined?.add(asset.fileName);
    return `<style>${css}</style>`;
  });
}

const textOf = (output: Bundle[string]) =>
  output.type === 'chunk' ? output.code : typeof output.source === 'string' ? output.source : new TextDecoder().decode(output.source);

/**
 * Takes the inlined stylesheets out of the bundle, unless another built file still names one (a
 * page other than index.html linking it, a script loading it): only those are unused. Returns the
 * names of the files taken out.
 */
export function dropInlinedStylesheets(bundle: Bundle, inlined: ReadonlySet<string>): string[] {
  const dropped: string[] = [];
  for (const fileName of inlined) {
    const name = fileName.slice(fileName.lastIndexOf('/') + 1);
    const named = Object.values(bundle).some((output) => output.fileName !== fileName && textOf(output).includes(name));
    if (bundle[fileName] && !named) {
      delete bundle[fileName];
      dropped.push(fileName);
    }
  }
  return dropped;
}

export function inlineStylesheet(): Plugin {
  let base = '/';
  const inlined = new Set<string>();
  return {
    name: 'inline-stylesheet',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    buildStart() {
      inlined.clear();
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) => (bundle ? inlineStylesheets(html, bundle, base, inlined) : html),
    },
    // After every HTML page has been written into the bundle (Vite's own generateBundle).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        dropInlinedStylesheets(bundle, inlined);
      },
    },
  };
}
