import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Db } from '../../db';
import { errorForLog, type Logger } from '../../lib/logger';
import { askLeaseRelease, releaseLease, renewLease, tryTakeLease } from './repo';

export type LeaseTiming = {
  /** A lease not renewed for this long is free: its holder died. */
  ttlMs: number;
  /** How often a holder renews, and so how soon it hears that another request wants the upload. */
  renewEveryMs: number;
  /** A waiter gives up after this (longer than `ttlMs`, so it outlasts a dead holder's lease). */
  acquireTimeoutMs: number;
  firstRetryMs: number;
  maxRetryMs: number;
};

const DEFAULT_TIMING: LeaseTiming = { ttlMs: 15_000, renewEveryMs: 1_000, acquireTimeoutMs: 20_000, firstRetryMs: 25, maxRetryMs: 400 };

/**
 * The tus `Locker` over lease rows in PostgreSQL (`resumable_upload_locks`), so the requests of one
 * upload are serialised across every portal process. Each step is one short statement: no
 * connection is held while waiting or while the lock is held, and no session advisory lock is
 * used, which the embedded PGlite (one connection shared by the whole process) requires.
 *
 * As tus asks (and as its MemoryLocker does), a request that finds the upload locked asks the
 * holder to let go: the holder hears it at its next renewal and cancels its request, which ends
 * after the server's drain time. That is how a PATCH stuck on a dead connection (Wi-Fi switched)
 * gives way to the client's retry.
 */
export class PostgresLocker implements Locker {
  /** Uploads whose creating request is still running in this process: see `unannounced`. */
  private readonly unannouncedIds = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly timing: LeaseTiming = DEFAULT_TIMING,
  ) {}

  /** tus's lock for a request on upload `id`. */
  newLock(id: string): Lock {
    return this.unannouncedIds.has(id) ? UNCONTENDED : this.leaseOf(id);
  }

  /** A lease on upload `id`, for the portal's own work on it (completion, expiry). */
  leaseOf(id: string): LeaseLock {
    return new LeaseLock(this.db, this.logger, this.timing, id);
  }

  /**
   * Until the request creating upload `id` answers, nobody else knows its address (a random id it
   * has not told yet), so the steps of that request need no lease: two statements fewer per step,
   * and most DICOM files are sent whole in that one request. Answers the call that ends it.
   */
  unannounced(id: string): () => void {
    this.unannouncedIds.add(id);
    return () => this.unannouncedIds.delete(id);
  }
}

/** The lock of an upload nobody else can name yet (PostgresLocker.unannounced). */
const UNCONTENDED: Lock = { lock: async () => undefined, unlock: async () => undefined };

export class LeaseLock implements Lock {
  private readonly holder = randomUUID();
  private renewal: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private held = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly timing: LeaseTiming,
    private readonly uploadId: string,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.timing.acquireTimeoutMs;
    let delay = this.timing.firstRetryMs;
    while (!(await tryTakeLease(this.db, this.uploadId, this.holder, this.timing.ttlMs))) {
      await askLeaseRelease(this.db, this.uploadId);
      if (stopSignal.aborted || Date.now() + delay > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(delay, undefined, { signal: stopSignal }).catch(() => undefined);
      delay = Math.min(delay * 2, this.timing.maxRetryMs);
    }
    this.held = true;
    this.scheduleRenewal(requestRelease);
  }

  /** One attempt, no waiting and no request to the holder: for clean-ups that simply skip a busy upload. */
  async tryLock(): Promise<boolean> {
    if (!(await tryTakeLease(this.db, this.uploadId, this.holder, this.timing.ttlMs))) return false;
    this.held = true;
    this.scheduleRenewal(() => undefined);
    return true;
  }

  async unlock(): Promise<void> {
    this.held = false;
    clearTimeout(this.renewal);
    await this.renewing;
    await releaseLease(this.db, this.uploadId, this.holder);
  }

  private scheduleRenewal(requestRelease: RequestRelease): void {
    let asked = false;
    const renew = async () => {
      const state = await renewLease(this.db, this.uploadId, this.holder, this.timing.ttlMs).catch((error: unknown) => {
        // A database that is briefly unreachable is not a lost lease; the next renewal tries again.
        this.logger.warn({ err: errorForLog(error) }, 'resumable upload lease not renewed');
        return 'held' as const;
      });
      if (state !== 'held' && !asked) {
        asked = true;
        await requestRelease();
      }
    };
    const next = () => {
      this.renewal = setTimeout(() => {
        this.renewing = renew()
          .catch((error: unknown) => this.logger.warn({ err: errorForLog(error) }, 'resumable upload lease renewal failed'))
          .finally(() => {
            this.renewing = undefined;
            if (this.held) next();
          });
      }, this.timing.renewEveryMs);
      this.renewal.unref();
    };
    next();
  }
}
