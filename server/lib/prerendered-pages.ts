import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A page the build drew, for the paths its pattern matches (`/faq`, `/change-password/:token`). */
export type PrerenderedPage = { matches(urlPath: string): boolean; html: string };

/**
 * The public pages the build drew into copies of index.html (scripts/vite-prerender.ts), by path
 * pattern. Empty for a build without them; every other path gets the plain index.html. The copies
 * differ from index.html only inside its root element, so the Content-Security-Policy computed
 * from index.html covers them.
 */
export function readPrerenderedPages(clientDir: string): PrerenderedPage[] {
  const dir = path.join(clientDir, 'prerendered');
  const listPath = path.join(dir, 'pages.json');
  if (!existsSync(listPath)) return [];
  const list = JSON.parse(readFileSync(listPath, 'utf8')) as Record<string, string>;
  return Object.entries(list).map(([pattern, file]) => {
    const matcher = patternMatcher(pattern);
    return { matches: (urlPath) => matcher.test(urlPath), html: readFileSync(path.join(dir, path.basename(file)), 'utf8') };
  });
}

/** `/change-password/:token` -> one path segment for each parameter, the rest exactly. */
function patternMatcher(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}
