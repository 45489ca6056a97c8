import { describe, expect, it } from 'vitest';
import { createSpeedMeter, roundedTimeLeft, secondsLeft } from './transfer-speed';

describe('createSpeedMeter', () => {
  it('says nothing until a few seconds were measured, then a smoothed speed', () => {
    const meter = createSpeedMeter();
    meter.sample(0, 0);
    meter.sample(1_000_000, 1_000);
    meter.sample(2_000_000, 2_000);
    expect(meter.bytesPerSecond()).toBeNull();
    meter.sample(3_000_000, 3_000);
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000_000);
    // One second at 5 MB/s moves the average only part of the way: Wi-Fi bursts do not make it jump.
    meter.sample(8_000_000, 4_000);
    const speed = meter.bytesPerSecond()!;
    expect(speed).toBeGreaterThan(1_000_000);
    expect(speed).toBeLessThan(2_000_000);
  });

  it('ignores samples closer than a second and the time of a pause', () => {
    const meter = createSpeedMeter();
    meter.sample(0, 0);
    meter.sample(500, 10);
    for (let second = 1; second <= 3; second++) meter.sample(second * 1_000, second * 1_000);
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000);
    meter.restart();
    // A minute paused: the first sample after it starts a new interval instead of averaging 0 B/s in.
    meter.sample(3_000, 63_000);
    meter.sample(4_000, 64_000);
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000);
  });
});

describe('time left', () => {
  it('divides what is left by the speed, and knows nothing without a speed', () => {
    expect(secondsLeft(10_000_000, 1_000_000)).toBe(10);
    expect(secondsLeft(10_000_001, 1_000_000)).toBe(11);
    expect(secondsLeft(10_000_000, null)).toBeNull();
    expect(secondsLeft(10_000_000, 0)).toBeNull();
    expect(secondsLeft(-5, 1_000)).toBe(0);
  });

  it('rounds up to whole minutes, with hours beyond an hour', () => {
    expect(roundedTimeLeft(61)).toEqual({ hours: 0, minutes: 2 });
    expect(roundedTimeLeft(3_600)).toEqual({ hours: 1, minutes: 0 });
    expect(roundedTimeLeft(3_661)).toEqual({ hours: 1, minutes: 2 });
  });
});
