import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { pdfjsAssets } from './scripts/vite-pdfjs-assets';
import { precompress } from './scripts/vite-precompress';
import { earlyStart } from './scripts/vite-early-start';
import { inlineStylesheet } from './scripts/vite-inline-stylesheet';
import { prerenderPublicPages } from './scripts/vite-prerender';
import { resultPageRenderer } from './scripts/vite-result-page-render';
import { startAppAfterPaint } from './scripts/vite-start-after-paint';
import { missingViewerCode } from './sw/viewer-code';

const root = fileURLToPath(new URL('./client', import.meta.url));

export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  resolve: {
    alias: {
      '@common': fileURLToPath(new URL('./common', import.meta.url)),
      // cornerstone3D's vtk.js mesh readers import xmlbuilder2, which needs Node's `events`: the
      // viewer never reads meshes, so a stub stands in (client/features/images/xmlbuilder2-stub.ts).
      xmlbuilder2: fileURLToPath(new URL('./client/features/images/xmlbuilder2-stub.ts', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // One stylesheet for every page (7 KB compressed in all): a lazy page's own would be one more
    // request in the queue of a phone's slow link.
    cssCodeSplit: false,
    // No preload links for what a lazy chunk imports: Vite's helper would append one <link> per
    // chunk as the app starts (its page and the cookie dialog, about 30), and on a phone that was
    // a fifth to a half of the entry script's start-up task (issue 16, Lighthouse's Total Blocking
    // Time). The browser fetches a chunk's imports as it reads the chunk; the entry's own imports
    // keep their links in index.html, which the starter uses (scripts/vite-start-after-paint.ts).
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      output: {
        // Fewer, larger chunks where a phone waits for them: over HTTP/1.1 a browser opens six
        // connections to a host, and on a slow link each request beyond them waits a round trip
        // (~0.56 s on Lighthouse's mobile profile) in the queue (issue 4).
        codeSplitting: {
          groups: [
            // Everything the entry imports statically: every page loads it all before its first
            // paint anyway, as one file rather than seven.
            { name: 'index', tags: ['$initial'], priority: 2 },
            // React and React DOM with its start-up (client/app/react-dom-first.ts): taken out of the
            // entry, so the starter runs them in a task of their own before the app's
            // (scripts/vite-start-after-paint.ts); each is short enough not to block a tap. The
            // bundler's own helpers, which both need, are a small chunk of their own (a group cannot
            // take them), preloaded with the two.
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]client[\\/]app[\\/]react-dom-first\.ts$/,
              priority: 3,
            },
            // The result page, the portal's main page, with all it imports (the UI parts it shares
            // with other pages included, which those pages then take from this chunk): one request
            // beside the guard's session check instead of nine.
            { name: 'ResultPage', test: /[\\/]client[\\/]features[\\/]result[\\/]ResultPage\.tsx$/, priority: 1 },
            // cornerstone3D (the DICOM viewer's 4 MB, client/features/images): one chunk of a fixed
            // name, shared by the viewer and the upload page's thumbnails, kept out of the precache.
            { name: 'cornerstone3d', test: /[\\/]node_modules[\\/](@cornerstonejs|@kitware)[\\/]/, priority: 1 },
            // What cornerstone3D shares with the upload page's marker scan: placed first, so the group
            // above (which takes its dependencies along) does not make the upload page load 4 MB.
            { name: 'dicom-shared', test: /[\\/]node_modules[\\/](dicom-parser|comlink)[\\/]/, priority: 3 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  // The DICOM viewer (client/features/images): the image loader starts its decoding worker with
  // `new URL('./decodeImageFrameWorker.js', import.meta.url)`, which only works from the package's
  // own files, so the dev server must not pre-bundle it; its CommonJS dependency must be.
  optimizeDeps: { exclude: ['@cornerstonejs/dicom-image-loader'], include: ['dicom-parser'] },
  // The decoding worker imports its codecs as ES modules.
  worker: { format: 'es' },
  plugins: [
    react(),
    // pdf.js's decoders, fonts and CMaps, served from our own origin (client/lib/pdf.ts).
    pdfjsAssets(),
    // PWA section: owned by the service-worker work (sw/ and the manifest).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '../sw',
      filename: 'sw.ts',
      // The update waits for the user's click on the prompt (client/shell/pwa).
      registerType: 'prompt',
      // client/shell/pwa/register.ts registers the worker with workbox-window, production only.
      injectRegister: false,
      // public/manifest.webmanifest is the manifest; index.html links it.
      manifest: false,
      injectManifest: {
        // The whole built app: every route's lazy chunk, the icons, the background image and the
        // static PDFs, so the public pages open offline after one visit (policy: sw/README.md).
        // The viewer's codecs (assets/*.wasm) are listed for the worker too; pdf.js's own wasm
        // (assets/pdfjs-*/) is not.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,jpg,jpeg,webp,avif,ico,woff2,pdf,webmanifest}', 'assets/*.wasm'],
        // The prerendered first paints are for a first visit over the network; offline, the
        // worker answers every page with index.html (scripts/vite-prerender.ts).
        globIgnores: ['prerendered/**'],
        // Headroom over workbox's 2 MiB default: a larger file is dropped from the manifest with
        // only a build warning. The pdfjs worker (over 1 MB) must stay in it for offline PDFs, and
        // cornerstone3D's chunk (3.9 MB) for kept images to open offline.
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        // The DICOM viewer's code (cornerstone3D, its decoding worker, stylesheet and codecs: 6 MB)
        // is listed, but sw/sw.ts does not precache it: every installation would download it and
        // most never open an image. The worker keeps it only for a patient who keeps images. It
        // knows the files only from this list, so a part missing from it fails the build.
        manifestTransforms: [
          (entries) => {
            const missing = missingViewerCode(entries);
            if (missing.length > 0) throw new Error(`The viewer's code is missing from the service worker's list: ${missing.join(', ')}`);
            return { manifest: entries };
          },
        ],
      },
    }),
    // The pre-paint script of index.html: preferences, the stored language's catalog and the
    // result page's first work, before the app's code has loaded (docs/early-start.md).
    earlyStart(),
    // The stylesheet inside index.html, and the public pages drawn into copies of it, so a phone
    // paints a page as soon as its HTML has arrived (issue 16).
    inlineStylesheet(),
    startAppAfterPaint(),
    prerenderPublicPages(),
    // Brotli and gzip copies of the built text files, served by server/lib/static-client.ts.
    precompress(),
    // The signed-in result page's frame and its render entry for Node, with which the server draws
    // the page for each request (server/result-page/); after precompress, as only the server reads them.
    resultPageRenderer(),
  ],
});
