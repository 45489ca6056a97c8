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
  it('are read by their path pattern from the list the build writes, a parameter matching one segment', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-prerendered-'));
    mkdirSync(path.join(dir, 'prerendered'));
    writeFileSync(path.join(dir, 'prerendered', 'faq.html'), '<div id="root" inert>FAQ</div>');
    writeFileSync(path.join(dir, 'prerendered', 'change.html'), '<div id="root" inert>New password</div>');
    writeFileSync(
      path.join(dir, 'prerendered', 'pages.json'),
      JSON.stringify({ '/faq': 'faq.html', '/change-password/:token': 'change.html' }),
    );
    const pages = readPrerenderedPages(dir);
    const pageFor = (urlPath: string) => pages.find((page) => page.matches(urlPath))?.html;
    expect(pageFor('/faq')).toContain('FAQ');
    expect(pageFor('/change-password/4f9c0a1b2c')).toContain('New password');
    for (const other of ['/faq/more', '/xfaq', '/change-password', '/change-password/a/b', '/']) expect(pageFor(other)).toBeUndefined();
  });

  it('are none for a build without them', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-prerendered-'));
    expect(readPrerenderedPages(dir)).toEqual([]);
  });
});
