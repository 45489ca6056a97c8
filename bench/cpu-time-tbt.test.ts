import { describe, expect, it } from 'vitest';
import { cpuTimeTbtMs, type TraceEvent } from './cpu-time-tbt';

const MAIN = { pid: 1, tid: 7 };
const task = (ts: number, tdurMs: number, thread = MAIN): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ...thread,
  ts,
  dur: tdurMs * 3000,
  tdur: tdurMs * 1000,
});

describe('TBT from the renderer CPU time', () => {
  it('counts the main thread tasks after the first contentful paint, 4 times their thread time beyond 50 ms', () => {
    const events: TraceEvent[] = [
      task(500, 40), // before the paint: not counted
      { name: 'firstContentfulPaint', ph: 'R', ...MAIN, ts: 1_000 },
      task(2_000, 30), // 120 - 50 = 70
      task(3_000, 10), // 40: not blocking
      task(4_000, 20, { pid: 1, tid: 9 }), // another thread: not counted
      task(5_000, 25), // 100 - 50 = 50
    ];
    expect(cpuTimeTbtMs(events)).toBe(120);
  });

  it('has no figure without a first contentful paint or without thread times', () => {
    expect(cpuTimeTbtMs([task(2_000, 30)])).toBeUndefined();
    const withoutThreadTime = { ...task(2_000, 30), tdur: undefined };
    expect(cpuTimeTbtMs([{ name: 'firstContentfulPaint', ph: 'R', ...MAIN, ts: 1_000 }, withoutThreadTime])).toBeUndefined();
  });
});
