import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { setLoggedPath } from './logger';

export type BuiltClient = { dir: string; indexHtml: string };

/** The built SPA, or undefined before `npm run build` (API-only, e.g. in server tests). */
export function readBuiltClient(dir: string): BuiltClient | undefined {
  const indexPath = path.join(dir, 'index.html');
  return existsSync(indexPath) ? { dir, indexHtml: readFileSync(indexPath, 'utf8') } : undefined;
}

const HASHED_ASSET = /^\/assets\//;
/** Whatever names a new version without changing its URL must be revalidated each time. */
const REVALIDATE = 'no-cache';
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * Serves the built client. Files under /assets carry a content hash in their name and are cached
 * for good; index.html, sw.js, the manifest and the other public files are revalidated, so a new
 * release reaches the user on the next visit. Every other page navigation (Accept: text/html)
 * gets index.html: the client's router shows the page, or the home page for an unknown path.
 */
export function clientRouter(client: BuiltClient): Router {
  const router = Router();
  router.use(
    express.static(client.dir, {
      index: false,
      setHeaders: (res, filePath) => {
        const urlPath = `/${path.relative(client.dir, filePath).split(path.sep).join('/')}`;
        res.setHeader('Cache-Control', HASHED_ASSET.test(urlPath) ? FOREVER : REVALIDATE);
        setLoggedPath(res as express.Response, urlPath);
      },
    }),
  );
  router.get(/.*/, (req, res, next) => {
    // Only page navigations: a missing script or image must stay a 404, not turn into HTML.
    const navigation = req.headers.accept?.includes('text/html') && !HASHED_ASSET.test(req.path);
    if (!navigation) return next();
    setLoggedPath(res, '(spa)');
    res.set('Cache-Control', REVALIDATE).type('html').send(client.indexHtml);
  });
  return router;
}
