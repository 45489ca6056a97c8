import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';

const prePaintScript = `(function(){var p=JSON.parse(localStorage.getItem('portal.prefs')||'{}');document.documentElement.dataset.theme=p.theme||'default';})();`;
const indexHtml = `<!doctype html><html lang="pl"><head><script>${prePaintScript}</script>
<script type="module" crossorigin src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;

let app: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'portal-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), indexHtml);
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), 'console.log(1);');
  writeFileSync(path.join(clientDir, 'sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(path.join(clientDir, 'manifest.webmanifest'), '{"name":"Portal"}');
  app = await startTestApp({ clientDir });
});
afterAll(async () => {
  await app?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const page = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function get(urlPath: string, headers: Record<string, string> = {}) {
  return fetch(`${app.baseUrl}${urlPath}`, { headers });
}

describe('the built client', () => {
  it('is served for every page path, revalidated on each visit, so deep links and reloads work', async () => {
    for (const urlPath of ['/', '/screenings', '/portal/login', '/no/such/page']) {
      const response = await get(urlPath, page);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(indexHtml);
    }
  });

  it('allows exactly its inline pre-paint script in the Content-Security-Policy', async () => {
    const csp = (await get('/', page)).headers.get('content-security-policy') ?? '';
    const hash = createHash('sha256').update(prePaintScript).digest('base64');
    expect(csp).toMatch(new RegExp(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('caches hashed assets for good and revalidates the service worker and the manifest', async () => {
    expect((await get('/assets/index-AbC123.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/sw.js')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/manifest.webmanifest')).headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing script with 404, never with the page', async () => {
    const response = await get('/assets/index-Gone99.js', { accept: '*/*' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('text/html');
  });

  it('keeps /api answers JSON even for a browser navigation', async () => {
    const response = await get('/api/unknown', page);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
  });

  it('does not log the path of a page, which may hold a reset token', async () => {
    const token = '3f1c2a9e-7b4d-4c1a-9f3e-2d5b6a7c8e90';
    await get(`/change-password/${token}`, page);
    expect(app.logs.join('\n')).not.toContain(token);
  });
});
