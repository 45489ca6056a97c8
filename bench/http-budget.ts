import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import { cookiesSetBy } from './cookies';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const DEMO_LOGIN = 'anna.nowak@example.com';
const DEMO_PASSWORD = 'Mammo!2024demo';

type Run = { name: string; rps: number; p99: number; statuses: Record<string, number> };

/** Starts the demo portal (tests/support/serve-demo.ts) in its own process, so load and server never share a CPU loop. */
export async function startPortal(port: number, env: Record<string, string | undefined>): Promise<ChildProcess> {
  // Node itself with tsx's loader, not `npx tsx`: a wrapper process would not pass SIGTERM on,
  // and the orphaned server would outlive the bench.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serve-demo.ts'], {
    env: { ...process.env, ...env, DEMO_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/auth/csrf`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('portal did not start in 120 s');
}

export async function stopPortal(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A session with its CSRF token, as a browser holds one. */
async function anonymousSession(base: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${base}/api/auth/csrf`);
  const cookie = cookiesSetBy(res);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { cookie, token: csrfToken };
}

function loginBody(password: string): string {
  return JSON.stringify({
    login: DEMO_LOGIN,
    password: createHash('sha256').update(password).digest('hex'),
    portalTerms: true,
    policyTerms: true,
  });
}

export async function signedInCookie(base: string): Promise<string> {
  const { cookie, token } = await anonymousSession(base);
  const res = await fetch(`${base}/api/auth/portal/login`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    body: loginBody(DEMO_PASSWORD),
  });
  if (!res.ok) throw new Error(`demo login failed: ${res.status}`);
  return cookiesSetBy(res);
}

async function load(name: string, options: autocannon.Options): Promise<Run> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count;
  return { name, rps: result.requests.average, p99: result.latency.p99, statuses };
}

async function rejectedLogins(base: string, name: string): Promise<Run> {
  const { cookie, token } = await anonymousSession(base);
  return load(name, {
    url: `${base}/api/auth/portal/login`,
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    body: loginBody('not-the-password'),
  });
}

export async function benchHttp(databases: { label: string; url?: string }[]): Promise<void> {
  let port = 3400;
  for (const database of databases) {
    console.log(`\n## HTTP at ${CONNECTIONS} connections, ${DURATION_S} s each: ${database.label}`);
    const runs: Run[] = [];
    for (const throttle of ['off', 'on'] as const) {
      const child = await startPortal(++port, { DATABASE_URL: database.url, THROTTLE: throttle });
      const base = `http://127.0.0.1:${port}`;
      try {
        if (throttle === 'off') {
          runs.push(await rejectedLogins(base, 'POST /api/auth/portal/login rejected, each checked (argon2id)'));
          const cookie = await signedInCookie(base);
          runs.push(await load('GET /api/user/profile with a session', { url: `${base}/api/user/profile`, headers: { cookie } }));
        } else {
          runs.push(await rejectedLogins(base, 'POST /api/auth/portal/login rejected, throttled (429)'));
        }
      } finally {
        await stopPortal(child);
      }
    }
    for (const run of runs) {
      const statuses = Object.entries(run.statuses)
        .map(([code, count]) => `${code}: ${count}`)
        .join(', ');
      console.log(`  ${run.name.padEnd(64)} ${run.rps.toFixed(0).padStart(6)} req/s  p99 ${String(run.p99).padStart(5)} ms  (${statuses})`);
    }
  }
}
