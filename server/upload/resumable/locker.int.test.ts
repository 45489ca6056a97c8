import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database';
import type { Logger } from '../../lib/logger';
import { PostgresLocker, type LeaseTiming } from './locker';

/** The lease locker on its own, with short times: exclusion, the request to let go, a dead holder, the wait's end. */
const TIMING: LeaseTiming = { ttlMs: 600, renewEveryMs: 100, acquireTimeoutMs: 1500, firstRetryMs: 10, maxRetryMs: 50 };
const silent = { warn: () => undefined } as unknown as Logger;
const never = () => new AbortController().signal;

let database: TestDatabase;
let locker: PostgresLocker;

beforeAll(async () => {
  database = await createTestDatabase();
  locker = new PostgresLocker(database.db, silent, TIMING);
});
afterAll(() => database?.drop());

describe('PostgresLocker', () => {
  it('lets one holder in at a time and asks it to let go', async () => {
    const first = locker.newLock('a'.repeat(32));
    let asked = 0;
    await first.lock(never(), () => void (asked += 1));
    const order: string[] = [];
    const second = locker.newLock('a'.repeat(32));
    const waiting = second.lock(never(), () => undefined).then(() => order.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toBe(1);
    order.push('first releases');
    await first.unlock();
    await waiting;
    expect(order).toEqual(['first releases', 'second']);
    await second.unlock();
    expect(Number((await database.db('resumable_upload_locks').count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('keeps a lease while its holder renews it, past its time to live', async () => {
    const holder = locker.newLock('b'.repeat(32));
    await holder.lock(never(), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, TIMING.ttlMs * 2));
    expect(await locker.leaseOf('b'.repeat(32)).tryLock()).toBe(false);
    await holder.unlock();
  });

  it('takes over the lease of a holder that died', async () => {
    await database
      .db('resumable_upload_locks')
      .insert({ upload_id: 'c'.repeat(32), holder: 'dead', expires_at: new Date(Date.now() + 200) });
    const started = Date.now();
    const lock = locker.newLock('c'.repeat(32));
    await lock.lock(never(), () => undefined);
    expect(Date.now() - started).toBeLessThan(TIMING.acquireTimeoutMs);
    await lock.unlock();
  });

  it('gives up after its wait, or at once when the request is stopped', async () => {
    const holder = locker.newLock('d'.repeat(32));
    await holder.lock(never(), () => undefined);
    await expect(locker.newLock('d'.repeat(32)).lock(never(), () => undefined)).rejects.toMatchObject({ status_code: 500 });
    const stop = new AbortController();
    const stopped = locker.newLock('d'.repeat(32)).lock(stop.signal, () => undefined);
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ status_code: 500 });
    await holder.unlock();
  });

  it('takes no lease for an upload whose creating request has not answered yet, and a lease again after', async () => {
    const id = 'e'.repeat(32);
    const leases = async () => Number((await database.db('resumable_upload_locks').where('upload_id', id).count({ n: '*' }))[0]!.n);
    const end = locker.unannounced(id);
    const creating = locker.newLock(id);
    await creating.lock(never(), () => undefined);
    expect(await leases()).toBe(0);
    await creating.unlock();
    end();
    const later = locker.newLock(id);
    await later.lock(never(), () => undefined);
    expect(await leases()).toBe(1);
    await later.unlock();
  });
});
