import { createHmac } from 'node:crypto';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { tooManyAttempts } from '../lib/errors';
import { createCheckGate } from './throttle-gate';
import { checksAtOnce, delayAfterFailures, retryAfterSeconds, type BucketRule, type ThrottlePolicy } from './throttle-policy';
import {
  clearBuckets,
  deleteStaleBuckets,
  latestBlockedUntil,
  lockBuckets,
  readBuckets,
  refundAttempt,
  saveBucket,
  type BucketRow,
} from './throttle-repo';

type Bucket = { key: string; rule: BucketRule };
/** The buckets one login attempt is counted in, and those a success clears. */
export type AttemptBuckets = { all: Bucket[]; clearedOnSuccess: Bucket[] };

const STALE_AFTER_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Throttling of guesses and floods over `login_throttle` (DECISIONS.md 6): logins, password
 * changes, reset links and contact messages, shared by every app process through the database.
 * Bucket names carry a keyed hash instead of the IP, birth date, login, device nonce or address,
 * so the table holds no personal data.
 */
export function createThrottle(db: Db, policy: ThrottlePolicy, clock: Clock, secret: string) {
  const bucket = (name: string, subject: string, rule: BucketRule): Bucket => ({
    key: `${name}:${createHmac('sha256', secret).update(`${name}\0${subject}`).digest('base64url')}`,
    rule,
  });
  const gate = createCheckGate();
  let lastPrunedAt = 0;

  async function pruneNowAndThen(now: number): Promise<void> {
    if (now - lastPrunedAt <= PRUNE_EVERY_MS) return;
    lastPrunedAt = now;
    await deleteStaleBuckets(db, new Date(now - STALE_AFTER_MS), new Date(now));
  }

  /** Counts one failure in each bucket under the caller's row locks; past the free ones it starts a wait. */
  async function countFailure(trx: Db, buckets: Bucket[], rows: BucketRow[], now: number): Promise<void> {
    for (const { key, rule } of buckets) {
      const row = rows.find((r) => r.bucket === key)!;
      const windowOver = row.windowStartedAt.getTime() <= now - rule.windowMs;
      const failures = windowOver ? 1 : row.failures + 1;
      const delayMs = delayAfterFailures(failures, rule);
      await saveBucket(trx, key, {
        failures,
        windowStartedAt: windowOver ? new Date(now) : row.windowStartedAt,
        blockedUntil: delayMs > 0 ? new Date(now + delayMs) : null,
        updatedAt: new Date(now),
      });
    }
  }

  /** Records a checked attempt's outcome, unless a wait already runs: then the wait in ms. */
  async function decide(buckets: AttemptBuckets, genuine: boolean): Promise<number> {
    const now = clock();
    const keys = buckets.all.map((b) => b.key);
    if (genuine) {
      // No lock: a failure landing at the same moment is simply ordered after this success.
      const until = await latestBlockedUntil(db, keys);
      if (until && until.getTime() > now) return until.getTime() - now;
      await clearBuckets(
        db,
        buckets.clearedOnSuccess.map((b) => b.key),
      );
      return 0;
    }
    return db.transaction(async (trx) => {
      const rows = await lockBuckets(trx, keys, new Date(now));
      const latest = Math.max(0, ...rows.map((row) => row.blockedUntil?.getTime() ?? 0));
      if (latest > now) return latest - now;
      await countFailure(trx, buckets.all, rows, now);
      return 0;
    });
  }

  return {
    /**
     * A browser whose device cookie vouches for this access code (`trustedDevice`, its nonce) is
     * counted per device instead of per birth date: guesses at other people's codes for the same
     * birth date cannot hold it back. Without one, all attempts at a birth date share a bucket.
     */
    forResultLogin(ip: string, birthAt: string, trustedDevice?: string): AttemptBuckets {
      const byIp = bucket('result-ip', ip, policy.resultByIp);
      const global = bucket('result-all', '', policy.resultGlobal);
      if (trustedDevice) {
        const byDevice = bucket('result-device', trustedDevice, policy.resultByDevice);
        return { all: [byIp, byDevice, global], clearedOnSuccess: [byIp, byDevice] };
      }
      return { all: [byIp, bucket('result-birth', birthAt, policy.resultByBirthDate), global], clearedOnSuccess: [byIp] };
    },

    /**
     * Like forResultLogin: a browser with a device cookie for this login is counted per device, so
     * someone who knows a patient's email cannot lock her out of her own browser. On a browser
     * that never signed in as her she shares the login's bucket with the guesser and waits like
     * today: that is OWASP's design, the price of slowing guessers down at all. The IP buckets
     * apply either way.
     */
    forPortalLogin(ip: string, login: string, trustedDevice?: string): AttemptBuckets {
      const byIp = bucket('portal-ip', ip, policy.portalByIp);
      const buckets = trustedDevice
        ? [byIp, bucket('portal-device', trustedDevice, policy.portalByDevice)]
        : [byIp, bucket('portal-login', login.toLowerCase(), policy.portalByLogin)];
      return { all: buckets, clearedOnSuccess: buckets };
    },

    /** Checks of the old password when changing it, counted per account whatever the IP. */
    forPasswordChange(userId: number): AttemptBuckets {
      const byUser = bucket('password-change-user', String(userId), policy.passwordChangeByUser);
      return { all: [byUser], clearedOnSuccess: [byUser] };
    },

    /**
     * Reset links asked for, per IP and per address (lower-case email or normalized phone). Every
     * request counts and nothing clears them: whether the address has an account must not matter.
     */
    forPasswordReset(ip: string, address: string): AttemptBuckets {
      return {
        all: [bucket('reset-ip', ip, policy.passwordResetByIp), bucket('reset-address', address, policy.passwordResetByAddress)],
        clearedOnSuccess: [],
      };
    },

    /** Contact messages sent from one IP; every message counts, nothing clears it. */
    forContactMessage(ip: string): AttemptBuckets {
      return { all: [bucket('contact-ip', ip, policy.contactByIp)], clearedOnSuccess: [] };
    },

    /**
     * Lets a request through, or throws 429 while any of its buckets waits. The request is
     * counted as a failure here, under row locks, before anything else happens: for flows where
     * every request counts (reset links, contact messages), and the password change, whose
     * success refunds the count (recordSuccess). Logins use verify.
     */
    async admit(buckets: AttemptBuckets): Promise<void> {
      const now = clock();
      // A caller already waiting is answered from a plain read: a flood of refused attempts
      // costs no locks. The locked transaction below decides the close calls.
      const until = await latestBlockedUntil(
        db,
        buckets.all.map((b) => b.key),
      );
      if (until && until.getTime() > now) throw tooManyAttempts(retryAfterSeconds(until.getTime() - now));

      const waitMs = await db.transaction(async (trx) => {
        const rows = await lockBuckets(
          trx,
          buckets.all.map((b) => b.key),
          new Date(now),
        );
        const latest = Math.max(0, ...rows.map((row) => row.blockedUntil?.getTime() ?? 0));
        if (latest > now) return latest - now;
        await countFailure(trx, buckets.all, rows, now);
        return 0;
      });
      if (waitMs > 0) throw tooManyAttempts(retryAfterSeconds(waitMs));
      await pruneNowAndThen(now);
    },

    /**
     * Runs the credential check of a login attempt and records its outcome; throws 429 while one
     * of the buckets waits, before the check or after it.
     *
     * Nothing is counted before the check, so attempts merely in flight never make a right
     * credential wait (fifty patients behind one clinic's NAT signing in at once). The outcome is
     * decided afterwards under the buckets' row locks, from the failures recorded so far: an
     * attempt that finds a wait started meanwhile is answered 429 whether it was right or not. So
     * a burst of concurrent guesses learns the outcome of no more of them than the same guesses
     * sent one by one would, however many got checked.
     *
     * The check runs outside any transaction: argon2 takes tens of ms, the embedded database has
     * one connection, and holding it (or, on PostgreSQL, a pool connection per waiting attempt)
     * through every check would stall the app. The cost of checks is bounded by the gate instead:
     * per bucket only as many run at once as there are failures left before the wait, the rest
     * wait their turn and are then answered from the failures recorded meanwhile, without a
     * check once a wait runs.
     */
    async verify<Outcome extends { genuine: boolean }>(buckets: AttemptBuckets, check: () => Promise<Outcome>): Promise<Outcome> {
      const keys = buckets.all.map((b) => b.key);
      await gate.enter(keys, async () => {
        const now = clock();
        const rows = await readBuckets(db, keys);
        const latest = Math.max(0, ...rows.map((row) => row.blockedUntil?.getTime() ?? 0));
        // A caller already waiting is answered without a check and without a lock.
        if (latest > now) throw tooManyAttempts(retryAfterSeconds(latest - now));
        return new Map(
          buckets.all.map(({ key, rule }) => {
            const row = rows.find((r) => r.bucket === key);
            const windowOver = !row || row.windowStartedAt.getTime() <= now - rule.windowMs;
            return [key, checksAtOnce(windowOver ? 0 : row.failures, rule)];
          }),
        );
      });
      let outcome: Outcome;
      let waitMs: number;
      try {
        outcome = await check();
        waitMs = await decide(buckets, outcome.genuine);
      } finally {
        // Only now: the next one in line must see this attempt's failure.
        gate.leave(keys);
      }
      if (waitMs > 0) throw tooManyAttempts(retryAfterSeconds(waitMs));
      await pruneNowAndThen(clock());
      return outcome;
    },

    /** The attempt was genuine: its own buckets start over, the shared ones get their count back. */
    async recordSuccess(buckets: AttemptBuckets): Promise<void> {
      const cleared = buckets.clearedOnSuccess.map((b) => b.key);
      await clearBuckets(db, cleared);
      for (const { key } of buckets.all) if (!cleared.includes(key)) await refundAttempt(db, key);
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
