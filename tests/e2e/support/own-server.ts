import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/free-port';

/**
 * A portal of the spec file's own, started like playwright.config.ts starts the shared one
 * (tests/support/serve-demo.ts: demo data on a fresh database, the built client of CLIENT_DIR).
 * For journeys that change demo data other spec files rely on, such as a password: they run
 * against this one and leave the shared portal as it was.
 */
export type OwnServer = { baseURL: string; stop(): Promise<void> };

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const STARTUP_TIMEOUT_MS = 90_000;

async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the portal exited with code ${child.exitCode} before serving`);
    try {
      await fetch(url);
      return; // any answer: the server is listening
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the portal did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

/** `env`: settings of this portal beyond the shared one's (tests/support/serve-demo.ts passes them on). */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  // Node itself with tsx as a loader, so the process signalled on stop is the server, not npx.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serve-demo.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, DEMO_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseURL = `http://localhost:${port}`;
  try {
    await waitUntilServing(`${baseURL}/api/auth/csrf`, child);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    baseURL,
    async stop() {
      if (child.exitCode !== null) return;
      // serve-demo drops its database (or schema of DATABASE_URL) on SIGTERM before exiting.
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Puts the calling spec file on a portal of its own: registers its start and stop around the
 * file's tests (run in order) and returns the `test` to write them with, its baseURL pointing
 * there. Call once, at the top of the file.
 */
export function testOnOwnServer(env: Record<string, string> = {}) {
  let server: OwnServer | undefined;
  const test = base.extend({
    // Playwright reads a fixture's dependencies from this destructuring; the base URL needs none.
    // eslint-disable-next-line no-empty-pattern
    baseURL: async ({}, use) => use(server?.baseURL),
  });
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startOwnServer(env);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  return test;
}
