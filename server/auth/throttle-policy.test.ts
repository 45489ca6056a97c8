import { describe, expect, it } from 'vitest';
import { checksAtOnce, defaultThrottlePolicy, delayAfterFailures, retryAfterSeconds, type BucketRule } from './throttle-policy';

const rule: BucketRule = { freeFailures: 5, firstDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowMs: 15 * 60_000 };

describe('delayAfterFailures', () => {
  it('costs nothing within the free allowance', () => {
    for (let failures = 0; failures <= 5; failures++) expect(delayAfterFailures(failures, rule)).toBe(0);
  });

  it('waits one second after the first paid failure and doubles with each further one', () => {
    expect([6, 7, 8, 9, 10].map((failures) => delayAfterFailures(failures, rule))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('never waits longer than the cap, however many failures pile up', () => {
    expect(delayAfterFailures(16, rule)).toBe(15 * 60_000);
    expect(delayAfterFailures(10_000, rule)).toBe(15 * 60_000);
  });

  it('caps the default policy as DECISIONS.md 6 intends: IP and login 15 min, birth date 5 min, global 30 s', () => {
    const far = 1_000;
    expect(delayAfterFailures(far, defaultThrottlePolicy.resultByIp)).toBe(15 * 60_000);
    expect(delayAfterFailures(far, defaultThrottlePolicy.portalByLogin)).toBe(15 * 60_000);
    expect(delayAfterFailures(far, defaultThrottlePolicy.resultByBirthDate)).toBe(5 * 60_000);
    expect(delayAfterFailures(far, defaultThrottlePolicy.resultGlobal)).toBe(30_000);
  });
});

describe('checksAtOnce', () => {
  it('allows one check per free failure left plus the one that would start the wait', () => {
    expect([0, 1, 4, 5].map((failures) => checksAtOnce(failures, rule))).toEqual([6, 5, 2, 1]);
  });

  it('lets one check at a time through once the free failures are spent', () => {
    expect(checksAtOnce(6, rule)).toBe(1);
    expect(checksAtOnce(50, rule)).toBe(1);
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds and never says 0 while a wait runs', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1_000)).toBe(1);
    expect(retryAfterSeconds(1_001)).toBe(2);
  });
});
