import type { IndexHtmlTransformContext, Plugin } from 'vite';

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;

/**
 * A build-only plugin that writes a value known only after bundling (a hashed file name) into
 * the pre-paint script of index.html, over `marker`, as JSON. Without a build (dev server, tests)
 * the marker's own default stays. A build whose index.html lacks the marker fails.
 */
export function fillIndexHtmlMarker(name: string, marker: string, value: (bundle: Bundle, base: string) => unknown): Plugin {
  let base = '/';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !html.includes(marker)) throw new Error(`index.html has no "${marker}" to fill`);
        return html.replace(marker, JSON.stringify(value(bundle, base)));
      },
    },
  };
}
