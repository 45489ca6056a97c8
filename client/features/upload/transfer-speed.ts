/**
 * Speed and time left as a patient can read them: Wi-Fi speed jumps from second to second, so the
 * speed is smoothed (an exponential average over about SMOOTHING_MS) and the time left is shown
 * only once a few seconds were measured.
 */
const SAMPLE_EVERY_MS = 1_000;
const SMOOTHING_MS = 8_000;
/** Before this much measured sending, a time left would be a guess. */
const SETTLED_AFTER_MS = 3_000;

export type SpeedMeter = {
  /** `transferredBytes`: every byte sent so far, ever growing; `now` in ms. */
  sample(transferredBytes: number, now: number): void;
  /** Bytes per second, or null while not yet settled. */
  bytesPerSecond(): number | null;
  /** A pause or a lost connection: the time without sending must not pull the average down. */
  restart(): void;
};

export function createSpeedMeter(): SpeedMeter {
  let last: { bytes: number; at: number } | null = null;
  let average: number | null = null;
  let measuredMs = 0;
  return {
    sample(transferredBytes, now) {
      if (!last) {
        last = { bytes: transferredBytes, at: now };
        return;
      }
      const elapsed = now - last.at;
      if (elapsed < SAMPLE_EVERY_MS) return;
      const current = (Math.max(0, transferredBytes - last.bytes) * 1000) / elapsed;
      const weight = 1 - Math.exp(-elapsed / SMOOTHING_MS);
      average = average === null ? current : average + weight * (current - average);
      measuredMs += elapsed;
      last = { bytes: transferredBytes, at: now };
    },
    bytesPerSecond() {
      return measuredMs >= SETTLED_AFTER_MS && average !== null ? average : null;
    },
    restart() {
      last = null;
    },
  };
}

/** Seconds until `remainingBytes` are sent at `bytesPerSecond`; null when it cannot be said. */
export function secondsLeft(remainingBytes: number, bytesPerSecond: number | null): number | null {
  if (bytesPerSecond === null || bytesPerSecond <= 0) return null;
  return Math.ceil(Math.max(0, remainingBytes) / bytesPerSecond);
}

/** A time left rounded as people say it: whole minutes, hours and minutes beyond an hour. */
export function roundedTimeLeft(seconds: number): { hours: number; minutes: number } {
  const minutes = Math.ceil(seconds / 60);
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}
