import { createHmac } from 'node:crypto';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { tooManyAttempts } from '../lib/errors';
import { delayAfterFailures, retryAfterSeconds, type BucketRule, type ThrottlePolicy } from './throttle-policy';
import { clearBuckets, deleteStaleBuckets, latestBlockedUntil, lockBuckets, refundAttempt, saveBucket } from './throttle-repo';

type Bucket = { key: string; rule: BucketRule };
/** The buckets one login attempt is counted in, and those a success clears. */
export type AttemptBuckets = { all: Bucket[]; clearedOnSuccess: Bucket[] };

const STALE_AFTER_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Throttling of guesses and floods over `login_throttle` (DECISIONS.md 6): logins, password
 * changes, reset links and contact messages, shared by every app process through the database.
 * Bucket names carry a keyed hash instead of the IP, birth date, login or address, so the table
 * holds no personal data.
 */
export function createThrottle(db: Db, policy: ThrottlePolicy, clock: Clock, secret: string) {
  const bucket = (name: string, subject: string, rule: BucketRule): Bucket => ({
    key: `${name}:${createHmac('sha256', secret).update(`${name}\0${subject}`).digest('base64url')}`,
    rule,
  });
  let lastPrunedAt = 0;

  return {
    forResultLogin(ip: string, birthAt: string): AttemptBuckets {
      const byIp = bucket('result-ip', ip, policy.resultByIp);
      return {
        all: [byIp, bucket('result-birth', birthAt, policy.resultByBirthDate), bucket('result-all', '', policy.resultGlobal)],
        clearedOnSuccess: [byIp],
      };
    },

    forPortalLogin(ip: string, login: string): AttemptBuckets {
      const buckets = [bucket('portal-ip', ip, policy.portalByIp), bucket('portal-login', login.toLowerCase(), policy.portalByLogin)];
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
     * Lets an attempt through, or throws 429 while any of its buckets waits. The attempt is
     * counted as a failure here, before any credential is checked, under row locks: counting only
     * after a failed check would let a burst of concurrent guesses all pass the check before the
     * first failure landed. A success refunds the count (recordSuccess).
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
        for (const { key, rule } of buckets.all) {
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
        return 0;
      });
      if (waitMs > 0) throw tooManyAttempts(retryAfterSeconds(waitMs));
      if (now - lastPrunedAt > PRUNE_EVERY_MS) {
        lastPrunedAt = now;
        await deleteStaleBuckets(db, new Date(now - STALE_AFTER_MS), new Date(now));
      }
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
