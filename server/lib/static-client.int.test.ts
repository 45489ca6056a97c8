import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';

const prePaintScript = `(function(){var p=JSON.parse(localStorage.getItem('portal.prefs')||'{}');document.documentElement.dataset.theme=p.theme||'default';})();`;
const indexHtml = `<!doctype html><html lang="pl"><head><script>${prePaintScript}</script>
<script type="module" crossorigin src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;

const bigScript = `export const messages = ${JSON.stringify(Array.from({ length: 200 }, (_, index) => `message number ${index}`))};`;

let app: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'portal-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), indexHtml);
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), 'console.log(1);');
  writeFileSync(path.join(clientDir, 'sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(path.join(clientDir, 'manifest.webmanifest'), '{"name":"Portal"}');
  // A script with the compressed copies the build writes next to it (scripts/vite-precompress.ts).
  writeFileSync(path.join(clientDir, 'assets', 'big-XyZ789.js'), bigScript);
  writeFileSync(path.join(clientDir, 'assets', 'big-XyZ789.js.br'), brotliCompressSync(bigScript));
  writeFileSync(path.join(clientDir, 'assets', 'big-XyZ789.js.gz'), gzipSync(bigScript));
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

  it('answers every page path with the app whatever the Accept header, as curl or a link checker asks', async () => {
    for (const accept of ['*/*', 'application/json', '']) {
      for (const urlPath of ['/', '/screenings', '/screening/12', '/change-password/abc']) {
        const response = await get(urlPath, accept ? { accept } : {});
        expect(response.status, `${urlPath} with Accept "${accept}"`).toBe(200);
        expect(await response.text()).toBe(indexHtml);
      }
    }
  });

  it('answers a missing file outside /assets with 404, not the page', async () => {
    for (const urlPath of ['/missing.js', '/images/gone.png']) {
      const response = await get(urlPath, { accept: '*/*' });
      expect(response.status, urlPath).toBe(404);
      expect(response.headers.get('content-type') ?? '').not.toContain('text/html');
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
    for (const headers of [page, { accept: '*/*' }, {}]) {
      const response = await get('/api/unknown', headers);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
    }
  });

  it('does not log the path of a page, which may hold a reset token', async () => {
    const token = '3f1c2a9e-7b4d-4c1a-9f3e-2d5b6a7c8e90';
    await get(`/change-password/${token}`, page);
    expect(app.logs.join('\n')).not.toContain(token);
  });
});

type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** A GET that leaves the body as sent: fetch would decompress it and hide the encoding. */
function rawGet(urlPath: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(`${app.baseUrl}${urlPath}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('compressed delivery', () => {
  it("sends the brotli copy of a script to a browser that takes brotli, with the script's type and caching", async () => {
    const answer = await rawGet('/assets/big-XyZ789.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(bigScript.length / 3);
    expect(brotliDecompressSync(answer.body).toString()).toBe(bigScript);
  });

  it('serves the copies of a client named by a path relative to the working directory (CLIENT_DIR=dist/client)', async () => {
    const relativeApp = await startTestApp({ clientDir: path.relative(process.cwd(), clientDir) });
    try {
      const answer = await fetch(`${relativeApp.baseUrl}/assets/big-XyZ789.js`, { headers: { 'accept-encoding': 'br' } });
      expect([answer.status, answer.headers.get('content-encoding'), await answer.text()]).toEqual([200, 'br', bigScript]);
    } finally {
      await relativeApp.close();
    }
  });

  it('sends the gzip copy to a browser without brotli, and the script as it is to one that takes neither', async () => {
    const gzipped = await rawGet('/assets/big-XyZ789.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(bigScript);

    for (const acceptEncoding of ['identity', 'br;q=0, gzip;q=0']) {
      const plain = await rawGet('/assets/big-XyZ789.js', { 'accept-encoding': acceptEncoding });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
      expect(plain.body.toString()).toBe(bigScript);
    }
  });

  it('compresses the page itself, still revalidated on each visit', async () => {
    const answer = await rawGet('/screening', { ...page, 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(answer.body).toString()).toBe(indexHtml);
  });

  it('never compresses an API answer, which may hold the CSRF token or personal data (BREACH)', async () => {
    const answer = await rawGet('/api/auth/csrf', { 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toHaveProperty('csrfToken');
  });
});
