import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The public pages the build drew into copies of index.html (scripts/vite-prerender.ts), by exact
 * path: `/faq` -> that page's HTML. Empty for a build without them; every other path gets the
 * plain index.html. The copies differ from index.html only inside its root element, so the
 * Content-Security-Policy computed from index.html covers them.
 */
export function readPrerenderedPages(clientDir: string): Map<string, string> {
  const dir = path.join(clientDir, 'prerendered');
  const listPath = path.join(dir, 'pages.json');
  if (!existsSync(listPath)) return new Map();
  const list = JSON.parse(readFileSync(listPath, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(list).map(([urlPath, file]) => [urlPath, readFileSync(path.join(dir, path.basename(file)), 'utf8')]));
}
