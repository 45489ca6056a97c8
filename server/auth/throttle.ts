import { createHmac } from 'node:crypto';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { tooManyAttempts } from '../lib/errors';
import { delayAfterFailures, retryAfterSeconds, type BucketRule, type ThrottlePolicy } from './throttle-policy';
import { clearBuckets, countFailure, deleteStaleBuckets, extendBlock, latestBlockedUntil } from './throttle-repo';

type Bucket = { key: string; rule: BucketRule };
/** The buckets one login attempt is counted in, and those a success clears. */
export type AttemptBuckets = { all: Bucket[]; clearedOnSuccess: Bucket[] };

const STALE_AFTER_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Failed-login throttling over `login_throttle` (DECISIONS.md 6), shared by every app process
 * through the database. Bucket names carry a keyed hash instead of the IP, birth date or login,
 * so the table holds no personal data.
 */
export function createLoginThrottle(db: Db, policy: ThrottlePolicy, clock: Clock, secret: string) {
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

    /** Throws 429 while any bucket waits, before a credential is even looked at. */
    async assertNotWaiting(buckets: AttemptBuckets): Promise<void> {
      const until = await latestBlockedUntil(db, buckets.all.map((b) => b.key));
      const waitMs = until ? until.getTime() - clock() : 0;
      if (waitMs > 0) throw tooManyAttempts(retryAfterSeconds(waitMs));
    },

    async recordFailure(buckets: AttemptBuckets): Promise<void> {
      const now = clock();
      for (const { key, rule } of buckets.all) {
        const failures = await countFailure(db, key, new Date(now), new Date(now - rule.windowMs));
        const delayMs = delayAfterFailures(failures, rule);
        if (delayMs > 0) await extendBlock(db, key, new Date(now + delayMs));
      }
      if (now - lastPrunedAt > PRUNE_EVERY_MS) {
        lastPrunedAt = now;
        await deleteStaleBuckets(db, new Date(now - STALE_AFTER_MS), new Date(now));
      }
    },

    async recordSuccess(buckets: AttemptBuckets): Promise<void> {
      await clearBuckets(db, buckets.clearedOnSuccess.map((b) => b.key));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
