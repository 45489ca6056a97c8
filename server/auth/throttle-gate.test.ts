import { describe, expect, it } from 'vitest';
import { createCheckGate } from './throttle-gate';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the check gate', () => {
  it('runs no more checks of a key at once than its limit and lets the held ones in as others leave', async () => {
    const gate = createCheckGate();
    const limits = async () => new Map([['ip', 2]]);
    let running = 0;
    let most = 0;
    const attempt = async () => {
      await gate.enter(['ip'], limits);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
      gate.leave(['ip']);
      return 'done';
    };
    expect(await Promise.all(Array.from({ length: 10 }, attempt))).toEqual(Array(10).fill('done'));
    expect(most).toBe(2);
  });

  it('answers the held attempts with what the limits say once they are read again', async () => {
    const gate = createCheckGate();
    let waiting = false;
    const limits = async () => {
      if (waiting) throw new Error('429');
      return new Map([['login', 1]]);
    };
    await gate.enter(['login'], limits);
    const held = Array.from({ length: 3 }, () =>
      gate.enter(['login'], limits).then(
        () => 'entered',
        (error: Error) => error.message,
      ),
    );
    await tick();
    waiting = true; // the first attempt failed and started a wait
    gate.leave(['login']);
    expect(await Promise.all(held)).toEqual(['429', '429', '429']);
  });

  it('does not let one key hold back attempts counted under others', async () => {
    const gate = createCheckGate();
    const limits = async () =>
      new Map([
        ['a', 1],
        ['b', 1],
      ]);
    await gate.enter(['a'], limits);
    const heldOnA = gate.enter(['a'], limits);
    await gate.enter(['b'], limits); // would time the test out if it waited for `a`
    gate.leave(['a']);
    await heldOnA;
  });
});
