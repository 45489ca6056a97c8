import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import type { Db } from '../db';

/**
 * The database out of reach (issue 16: it answered 500 INTERNAL): every call answers 503
 * NO_CONNECTION with Retry-After, which the client shows as "no connection", /readyz says the
 * database is failing, and all is well again once it is back.
 */
let app: TestApp;
let seed: MinimalSeed;
beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

/**
 * Takes the database away for this app alone, as a crash or a fail-over does: every connection it
 * asks for is refused with the error pg gives for a server that is not there. (Tearing the pool
 * down instead left the job queue's queries waiting past the test on PostgreSQL.) Answers the way
 * back.
 */
function takeDatabaseAway(db: Db): () => void {
  const client = db.client as { acquireConnection: () => Promise<unknown> };
  client.acquireConnection = () =>
    Promise.reject(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' }),
    );
  return () => {
    // The client's own method again, from its prototype.
    delete (client as { acquireConnection?: unknown }).acquireConnection;
  };
}

it('answers 503 NO_CONNECTION with Retry-After while the database is away, and readiness fails; then recovers', async () => {
  const patient: TestClient = await seededSignIns(app, seed).patient();
  expect((await patient.get('/api/user/profile')).status).toBe(200);
  const errorsBefore = app.logs.length;

  const bringBack = takeDatabaseAway(app.db);
  try {
    for (const call of [() => patient.get('/api/user/profile'), () => patient.post('/api/contact/create', { firstName: 'Maria' })]) {
      const response = await call();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.body).toEqual({ code: 'NO_CONNECTION', detail: 'no_connection' });
    }
    const ready = await fetch(`${app.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.database).toBe('failing');
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
  } finally {
    bringBack();
  }

  expect((await patient.get('/api/user/profile')).status).toBe(200);
  expect((await fetch(`${app.baseUrl}/readyz`)).status).toBe(200);
  // The outage is a warning per call, never logged as an unhandled error with its stack.
  const lines = app.logs.slice(errorsBefore).map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
  expect(lines.some((line) => line.msg === 'database unavailable')).toBe(true);
});
