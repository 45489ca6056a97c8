import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The data files pdf.js fetches at run time by URL, which no bundler can follow: the WebAssembly
 * decoders of JPEG 2000 (openjpeg) and JBIG2 images and the colour management (qcms), the
 * standard fonts a PDF may name without embedding, the CMaps of CJK fonts and the CMYK colour
 * profile. Copied from pdfjs-dist into the build, so they come from our own origin (CSP
 * `connect-src 'self'`); the WebAssembly needs `'wasm-unsafe-eval'` in script-src
 * (server/lib/security-headers.ts).
 *
 * They go to /assets/pdfjs-<version>/: the server caches /assets for good, which is safe because a
 * new pdfjs-dist changes the path. They are not precached by the service worker: its glob takes no
 * .wasm/.pfb/.ttf/.bcmap/.icc, so the 4 MB stay off every installation for the few PDFs (scans)
 * that need them; the portal's own PDFs render without them, offline too.
 */
const SUBDIRECTORIES: Readonly<Record<string, RegExp>> = {
  // The *_nowasm_fallback.js and quickjs (PDF scripting, never enabled here) are left out.
  wasm: /^(openjpeg|jbig2|qcms_bg)\.wasm$|^LICENSE/,
  standard_fonts: /\.(pfb|ttf)$|^LICENSE/,
  cmaps: /\.bcmap$|^LICENSE$/,
  iccs: /\.icc$|^LICENSE$/,
};

const require = createRequire(import.meta.url);

function pdfjsRoot(): string {
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

/** `assets/pdfjs-<version>`, the same path client/lib/pdf.ts builds from pdfjs-dist's `version`. */
export function pdfjsAssetDir(version: string): string {
  return `assets/pdfjs-${version}`;
}

/** Every file to copy: its path under the asset directory and where it is in node_modules. */
export function pdfjsDataFiles(root = pdfjsRoot()): Array<{ name: string; source: string }> {
  return Object.entries(SUBDIRECTORIES).flatMap(([directory, wanted]) =>
    readdirSync(path.join(root, directory))
      .filter((file) => wanted.test(file))
      .map((file) => ({ name: `${directory}/${file}`, source: path.join(root, directory, file) })),
  );
}

export function pdfjsAssets(): Plugin {
  const root = pdfjsRoot();
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const assetDir = pdfjsAssetDir(version);
  const files = pdfjsDataFiles(root);
  return {
    name: 'pdfjs-assets',
    // The dev server answers the same URLs straight from node_modules.
    configureServer(server) {
      const byUrl = new Map(files.map((file) => [`/${assetDir}/${file.name}`, file.source]));
      server.middlewares.use((req, res, next) => {
        const source = req.url ? byUrl.get(req.url.split('?')[0] ?? '') : undefined;
        if (!source) return next();
        if (source.endsWith('.wasm')) res.setHeader('Content-Type', 'application/wasm');
        res.end(readFileSync(source));
      });
    },
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: `${assetDir}/${file.name}`, source: readFileSync(file.source) });
    },
  };
}
