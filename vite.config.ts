import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { pdfjsAssets } from './scripts/vite-pdfjs-assets';
import { catalogPreload } from './scripts/vite-catalog-preload';
import { precompress } from './scripts/vite-precompress';

const root = fileURLToPath(new URL('./client', import.meta.url));

export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  plugins: [
    react(),
    // pdf.js's decoders, fonts and CMaps, served from our own origin (client/lib/pdf.ts).
    pdfjsAssets(),
    // PWA section: owned by the service-worker work (sw/ and the manifest).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '../sw',
      filename: 'sw.ts',
      // The update waits for the user's click on the prompt (client/features/pwa).
      registerType: 'prompt',
      // client/features/pwa/register.ts registers the worker with workbox-window, production only.
      injectRegister: false,
      // public/manifest.webmanifest is the manifest; index.html links it.
      manifest: false,
      injectManifest: {
        // The whole built app: every route's lazy chunk, the icons, the background image and the
        // static PDFs, so the public pages open offline after one visit (policy: sw/README.md).
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,jpg,jpeg,webp,avif,ico,woff2,pdf,webmanifest}'],
        // Headroom over workbox's 2 MiB default: a larger file is dropped from the precache with
        // only a build warning, and the pdfjs worker (over 1 MB) must stay in it for offline PDFs.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    // index.html starts loading the stored language's catalog at once (client/lib/intl.ts).
    catalogPreload(),
    // Brotli and gzip copies of the built text files, served by server/lib/static-client.ts.
    precompress(),
  ],
});
