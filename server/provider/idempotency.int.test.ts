import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { createTestApiKey } from '../../tests/support/provider';
import { AppError } from '../lib/errors';
import { requestFingerprint, runIdempotent } from './idempotency';

let app: TestApp;
let apiKeyId: number;
beforeAll(async () => {
  app = await startTestApp();
  apiKeyId = (await createTestApiKey(app, ['patients:write'])).id;
});
afterAll(() => app?.close());

const claim = (key: string, body: unknown = { name: 'a' }) => ({
  apiKeyId,
  key,
  fingerprint: requestFingerprint('POST', '/screenings', body),
  keepHours: 24,
  now: new Date(app.clock.now()),
});

describe('Idempotency-Key', () => {
  it('runs a call once and replays its answer to a retry', async () => {
    let runs = 0;
    const run = async () => ({ status: 201, body: { id: ++runs } });
    expect(await runIdempotent(app.db, claim('k-1'), run)).toEqual({ status: 201, body: { id: 1 }, replayed: false });
    expect(await runIdempotent(app.db, claim('k-1'), run)).toEqual({ status: 201, body: { id: 1 }, replayed: true });
    expect(runs).toBe(1);
  });

  it('refuses the key with another request', async () => {
    await runIdempotent(app.db, claim('k-2', { a: 1 }), async () => ({ status: 200, body: {} }));
    await expect(runIdempotent(app.db, claim('k-2', { a: 2 }), async () => ({ status: 200, body: {} }))).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it('tells a retry that the first call still runs', async () => {
    let release!: () => void;
    const first = runIdempotent(app.db, claim('k-3'), () => new Promise((resolve) => (release = () => resolve({ status: 201, body: {} }))));
    await expect.poll(() => release).toBeDefined();
    await expect(runIdempotent(app.db, claim('k-3'), async () => ({ status: 201, body: {} }))).rejects.toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
    });
    release();
    await first;
  });

  it('keeps a refusal of the input (4xx) but forgets an unexpected failure, so its retry runs again', async () => {
    await expect(
      runIdempotent(app.db, claim('k-4'), async () => {
        throw new AppError(409, 'CONFLICT');
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await runIdempotent(app.db, claim('k-4'), async () => ({ status: 201, body: {} }))).toEqual({
      status: 409,
      body: { code: 'CONFLICT' },
      replayed: true,
    });

    await expect(
      runIdempotent(app.db, claim('k-5'), async () => {
        throw new Error('database went away');
      }),
    ).rejects.toThrow('database went away');
    expect(await runIdempotent(app.db, claim('k-5'), async () => ({ status: 201, body: { ok: true } }))).toEqual({
      status: 201,
      body: { ok: true },
      replayed: false,
    });
  });

  it('forgets answers older than the keeping time', async () => {
    await runIdempotent(app.db, claim('k-6'), async () => ({ status: 201, body: { first: true } }));
    app.clock.advance(25 * 3_600_000);
    expect(await runIdempotent(app.db, claim('k-6'), async () => ({ status: 201, body: { second: true } }))).toEqual({
      status: 201,
      body: { second: true },
      replayed: false,
    });
  });

  it('refuses a key that is not 1 to 255 visible characters', async () => {
    await expect(runIdempotent(app.db, claim('with space'), async () => ({ status: 200 }))).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
