/**
 * Login throttling numbers (DECISIONS.md 6), all in one place. Each bucket lets a few failures
 * pass free within its window (typos happen); after that each failure doubles the wait, capped,
 * so a guesser slows to a crawl while nobody is ever locked out for good.
 */
export type BucketRule = {
  /** Failures in a window that cost nothing. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Counting starts over this long after a window's first failure. */
  windowMs: number;
};

export type ThrottlePolicy = {
  resultByIp: BucketRule;
  /** Every guess at one person's code names her birth date: the bucket an IP-hopping guesser cannot dodge. */
  resultByBirthDate: BucketRule;
  /** The last line against a botnet; a short cap so genuine patients wait seconds at worst. */
  resultGlobal: BucketRule;
  portalByIp: BucketRule;
  /** Attempts at one login from browsers without its device cookie (device-cookie.ts). */
  portalByLogin: BucketRule;
  /**
   * Attempts from one browser whose device cookie vouches for the login or access code it tries.
   * They count here instead of per login or birth date, so a guesser elsewhere cannot hold the
   * patient's own browser back; one that keeps failing (a stolen or shared device) waits like any
   * guesser.
   */
  portalByDevice: BucketRule;
  resultByDevice: BucketRule;
  /** Wrong old passwords on the change form: someone holding a stolen session guesses against it. */
  passwordChangeByUser: BucketRule;
  /** Reset links asked for one email or phone: a mailbox must not be flooded with them. */
  passwordResetByAddress: BucketRule;
  /** Reset requests from one IP, whatever address they name: slows a walk through many addresses. */
  passwordResetByIp: BucketRule;
  /** Contact messages from one IP: against spam, a flat hour's wait, never longer for a genuine sender. */
  contactByIp: BucketRule;
};

const WINDOW_MS = 15 * 60_000;

export const defaultThrottlePolicy: ThrottlePolicy = {
  resultByIp: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  resultByBirthDate: { freeFailures: 20, firstDelayMs: 1_000, maxDelayMs: 5 * 60_000, windowMs: WINDOW_MS },
  resultGlobal: { freeFailures: 200, firstDelayMs: 1_000, maxDelayMs: 30_000, windowMs: WINDOW_MS },
  portalByIp: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  portalByLogin: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  // The patient's own browser gets what one login gets: typos are free, guessing is not.
  portalByDevice: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  resultByDevice: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  passwordChangeByUser: { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: WINDOW_MS },
  // Every request counts (none is a "success"): three links per address, then 5 minutes, doubling.
  passwordResetByAddress: { freeFailures: 2, firstDelayMs: 5 * 60_000, maxDelayMs: 60 * 60_000, windowMs: 60 * 60_000 },
  passwordResetByIp: { freeFailures: 19, firstDelayMs: 60_000, maxDelayMs: 60 * 60_000, windowMs: 60 * 60_000 },
  // Four free, and the fifth starts the wait: five messages an hour.
  contactByIp: { freeFailures: 4, firstDelayMs: 60 * 60_000, maxDelayMs: 60 * 60_000, windowMs: 60 * 60_000 },
};

/** The wait imposed after the `failures`-th failure of a window (0 while still free). */
export function delayAfterFailures(failures: number, rule: BucketRule): number {
  const paid = failures - rule.freeFailures;
  if (paid <= 0) return 0;
  // Past 2^30 the cap has long won; the bound keeps the arithmetic finite.
  const doubled = rule.firstDelayMs * 2 ** Math.min(paid - 1, 30);
  return Math.min(doubled, rule.maxDelayMs);
}

/**
 * How many credential checks counted in one bucket may run at once in a process: one per failure
 * still free, plus the one whose failure would start the wait, and never fewer than one (after a
 * wait has passed, the next check goes alone). More would only spend checks whose outcome is
 * refused anyway (throttle.ts, verify).
 */
export function checksAtOnce(failures: number, rule: BucketRule): number {
  return Math.max(1, rule.freeFailures + 1 - failures);
}

/** Whole seconds for `Retry-After`, never 0 while a wait is still running. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
