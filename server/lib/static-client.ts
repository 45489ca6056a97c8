import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { setLoggedPath } from './logger';
import { readPrerenderedPages } from './prerendered-pages';

export type BuiltClient = { dir: string; indexHtml: string };

/**
 * The built SPA, or undefined before `npm run build` (API-only, e.g. in server tests). `dir` may
 * be relative to the working directory (`CLIENT_DIR=dist/client`); files are sent by absolute path.
 */
export function readBuiltClient(relativeOrAbsoluteDir: string): BuiltClient | undefined {
  const dir = path.resolve(relativeOrAbsoluteDir);
  const indexPath = path.join(dir, 'index.html');
  return existsSync(indexPath) ? { dir, indexHtml: readFileSync(indexPath, 'utf8') } : undefined;
}

const HASHED_ASSET = /^\/assets\//;
/** Whatever names a new version without changing its URL must be revalidated each time. */
const REVALIDATE = 'no-cache';
const FOREVER = 'public, max-age=31536000, immutable';

const cacheControlOf = (urlPath: string) => (HASHED_ASSET.test(urlPath) ? FOREVER : REVALIDATE);

/**
 * The encodings the build writes next to a file (scripts/vite-precompress.ts), best first. Only
 * the static client is compressed: /api answers are not, because a compressed answer that holds
 * a secret (the CSRF token, personal data) beside text the requester chose leaks the secret
 * through its length (BREACH).
 */
const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;
type EncodingName = (typeof ENCODINGS)[number]['name'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** URL path -> the compressed copies of that file, found once at start: no file-system look-ups per request. */
function findCompressedCopies(dir: string): Map<string, Partial<Record<EncodingName, string>>> {
  const files = new Set(filesUnder(dir));
  const copies = new Map<string, Partial<Record<EncodingName, string>>>();
  for (const file of files) {
    const encoding = ENCODINGS.find(({ extension }) => file.endsWith(extension));
    const original = encoding && file.slice(0, -encoding.extension.length);
    if (!encoding || !original || !files.has(original)) continue;
    const urlPath = `/${path.relative(dir, original).split(path.sep).join('/')}`;
    copies.set(urlPath, { ...copies.get(urlPath), [encoding.name]: file });
  }
  return copies;
}

/**
 * The first of `available` (best first) the request accepts, or undefined for the file as it is.
 * The server's order decides: browsers list gzip before br with the same weight.
 */
function chooseEncoding(req: Request, available: readonly EncodingName[]): EncodingName | undefined {
  return available.find((name) => req.acceptsEncodings(name) === name);
}

/** Serves a file's precompressed copy when the browser takes it; otherwise express.static serves the file. */
function compressedCopies(dir: string): RequestHandler {
  const copies = findCompressedCopies(dir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = copies.get(req.path);
    if (!found) return next();
    // Caches between keep one answer per encoding, the identity one included.
    res.vary('Accept-Encoding');
    const encoding = chooseEncoding(
      req,
      ENCODINGS.map(({ name }) => name).filter((name) => found[name]),
    );
    if (!encoding) return next();
    res.type(path.extname(req.path));
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Cache-Control', cacheControlOf(req.path));
    setLoggedPath(res, req.path);
    res.sendFile(found[encoding]!, { cacheControl: false }, (error) => {
      // Unreadable copy: the file as it is. (Once sending began, the browser only sees a cut answer.)
      if (!error || res.headersSent) return;
      res.removeHeader('Content-Encoding');
      next();
    });
  };
}

/** index.html as the page of every route, and its compressed forms, made once. */
function pageAnswer(indexHtml: string) {
  const identity = Buffer.from(indexHtml);
  const bodies: Record<EncodingName, Buffer> = { br: brotliCompressSync(identity), gzip: gzipSync(identity, { level: 9 }) };
  return (req: Request, res: Response) => {
    const encoding = chooseEncoding(req, ['br', 'gzip']);
    res.set('Cache-Control', REVALIDATE).type('html').vary('Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.send(encoding ? bodies[encoding] : identity);
  };
}

/** A file name's extension in the last segment of a path: `/sw.js`, not `/screening/12`. */
const FILE_EXTENSION = /\.[a-z0-9]+$/i;

/**
 * A page of the app: every path without a file extension whatever the Accept header (a plain
 * `curl /` or a link checker gets the page too), or any browser navigation. A missing script or
 * image (a file name, or anything under /assets) stays a 404, never HTML.
 */
function isPageRequest(req: express.Request): boolean {
  if (HASHED_ASSET.test(req.path)) return false;
  return !FILE_EXTENSION.test(req.path) || !!req.headers.accept?.includes('text/html');
}

/**
 * Serves the built client. Files under /assets carry a content hash in their name and are cached
 * for good; index.html, sw.js, the manifest and the other public files are revalidated, so a new
 * release reaches the user on the next visit. Every other page path (isPageRequest) gets index.html: the client's router shows the page, or the home page for an unknown path.
 * Text files go out brotli- or gzip-compressed when the browser accepts it.
 */
export function clientRouter(client: BuiltClient): Router {
  const router = Router();
  router.use(compressedCopies(client.dir));
  router.use(
    express.static(client.dir, {
      index: false,
      setHeaders: (res, filePath) => {
        const urlPath = `/${path.relative(client.dir, filePath).split(path.sep).join('/')}`;
        res.setHeader('Cache-Control', cacheControlOf(urlPath));
        setLoggedPath(res as express.Response, urlPath);
      },
    }),
  );
  const sendPage = pageAnswer(client.indexHtml);
  // A public page drawn at build time goes out with its content, painted before the app runs.
  const drawn = readPrerenderedPages(client.dir).map((page) => ({ matches: page.matches, send: pageAnswer(page.html) }));
  router.get(/.*/, (req, res, next) => {
    if (!isPageRequest(req)) return next();
    setLoggedPath(res, '(spa)');
    (drawn.find((page) => page.matches(req.path))?.send ?? sendPage)(req, res);
  });
  return router;
}
