import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPrerenderedPages } from './prerendered-pages';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the public pages drawn at build time', () => {
  it('are read by their exact path from the list the build writes', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-prerendered-'));
    mkdirSync(path.join(dir, 'prerendered'));
    writeFileSync(path.join(dir, 'prerendered', 'faq.html'), '<div id="root" inert>FAQ</div>');
    writeFileSync(path.join(dir, 'prerendered', 'pages.json'), JSON.stringify({ '/faq': 'faq.html' }));
    const pages = readPrerenderedPages(dir);
    expect([...pages.keys()]).toEqual(['/faq']);
    expect(pages.get('/faq')).toContain('FAQ');
  });

  it('are none for a build without them', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-prerendered-'));
    expect(readPrerenderedPages(dir).size).toBe(0);
  });
});
