import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port';

// The real portal process (tests/support/serve-demo.ts, the harness of the journeys, which stops
// the way server/main.ts does) receiving SIGTERM while requests are in flight.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const GRACE_SECONDS = 3;

type Portal = { port: number; child: ChildProcess; log: () => string; exited: Promise<number | null> };
const portals: Portal[] = [];
afterEach(() => portals.splice(0).forEach(({ child }) => child.exitCode === null && child.kill('SIGKILL')));

async function startPortal(): Promise<Portal> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serve-demo.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DEMO_PORT: String(port), SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const portal = { port, child, log: () => output, exited };
  portals.push(portal);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited before serving:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the portal did not start:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return portal;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request on `agent`'s connection; `body` is written only when `release` resolves. */
function request(
  portal: Portal,
  agent: http.Agent,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; release?: Promise<void> } = {},
): { sent: Promise<void>; answer: Promise<Answer> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: portal.port, method, path, agent, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body === undefined) {
      req.end();
      markSent();
      return;
    }
    const half = Math.floor(options.body.length / 2);
    req.write(options.body.slice(0, half), () => markSent());
    void (options.release ?? Promise.resolve()).then(() => req.end(options.body!.slice(half)));
  });
  return { sent, answer };
}

async function visitorToken(portal: Portal, agent: http.Agent): Promise<Record<string, string>> {
  const { answer } = request(portal, agent, 'GET', '/api/auth/csrf');
  const { headers, body } = await answer;
  const cookie = (headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ');
  return { cookie, 'x-csrf-token': (JSON.parse(body) as { csrfToken: string }).csrfToken };
}

const contactMessage = JSON.stringify({
  firstName: 'Maria',
  lastName: 'Kowalska',
  phoneNumber: '600 100 200',
  content: 'Proszę o kontakt w sprawie terminu badania.',
  consent: true,
  language: 'pl',
});

// Each test starts a whole portal process, which may take up to startPortal's 90 s on a busy
// machine, then waits out the grace period: the default 30 s timed out under load, not the portal.
describe('SIGTERM', { timeout: 150_000 }, () => {
  it('stops taking connections, finishes the request in flight, closes its connection and exits 0', async () => {
    const portal = await startPortal();
    const sender = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const auth = await visitorToken(portal, sender);

    let finishBody!: () => void;
    const release = new Promise<void>((resolve) => (finishBody = resolve));
    const upload = request(portal, sender, 'POST', '/api/contact/create', {
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(contactMessage)) },
      body: contactMessage,
      release,
    });
    await upload.sent;
    portal.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));

    // A new connection is refused: the load balancer takes the process out and retries elsewhere.
    await expect(fetch(`http://127.0.0.1:${portal.port}/healthz`)).rejects.toThrow();

    finishBody();
    const answered = await upload.answer;
    expect(answered.status).toBe(201);
    // Its keep-alive connection is not kept for another request.
    expect(answered.headers.connection).toBe('close');
    expect(await portal.exited).toBe(0);
    expect(portal.log()).toContain('"msg":"stopped"');
    expect(portal.log()).not.toContain('were cut');
  });

  it('cuts a request that stalls past the grace period and still exits 0, in bounded time', async () => {
    const portal = await startPortal();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const auth = await visitorToken(portal, agent);
    const stalled = request(portal, agent, 'POST', '/api/contact/create', {
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(contactMessage)) },
      body: contactMessage,
      release: new Promise(() => undefined), // the rest of the body never comes
    });
    void stalled.answer.catch(() => undefined);
    await stalled.sent;

    const signalledAt = Date.now();
    portal.child.kill('SIGTERM');
    expect(await portal.exited).toBe(0);
    const tookMs = Date.now() - signalledAt;
    expect(tookMs).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000);
    expect(tookMs).toBeLessThan(GRACE_SECONDS * 1000 + 15_000);
    expect(portal.log()).toContain('were cut');
    await expect(stalled.answer).rejects.toThrow();
  });
});
