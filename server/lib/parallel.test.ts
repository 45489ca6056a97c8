import { describe, expect, it } from 'vitest';
import { Backlog, mapInParallel } from './parallel';

describe('mapInParallel', () => {
  it('answers in the order of the items, whatever order the work finishes in', async () => {
    const delays = [30, 5, 20, 1, 10];
    const answers = await mapInParallel(delays, 3, (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(ms * 2), ms)));
    expect(answers).toEqual([60, 10, 40, 2, 20]);
  });

  it('never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    await mapInParallel([...Array(20).keys()], 4, async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running -= 1;
    });
    expect(most).toBe(4);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapInParallel([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });

  it('answers an empty list at once', async () => {
    expect(await mapInParallel([], 8, async () => 1)).toEqual([]);
  });
});

describe('Backlog', () => {
  const after = (ms: number, work: () => void = () => undefined) => new Promise<void>((resolve) => setTimeout(resolve, ms)).then(work);

  it('lets the caller go on while up to the limit run behind it, and waits for all of them at the end', async () => {
    const backlog = new Backlog(2);
    let running = 0;
    let mostBehind = 0;
    let ended = 0;
    for (let piece = 0; piece < 10; piece++) {
      running += 1;
      await backlog.add(
        after(3, () => {
          running -= 1;
          ended += 1;
        }),
      );
      mostBehind = Math.max(mostBehind, running);
    }
    expect(mostBehind).toBe(2);
    await backlog.done();
    expect(ended).toBe(10);
  });

  it('answers a failure at the next add or at the end, once every piece has ended', async () => {
    const backlog = new Backlog(4);
    let slowEnded = false;
    await backlog.add(after(20, () => (slowEnded = true)));
    await backlog.add(
      after(1, () => {
        throw new Error('disk full');
      }),
    );
    await after(5);
    await expect(backlog.add(Promise.resolve())).rejects.toThrow('disk full');
    await expect(backlog.done()).rejects.toThrow('disk full');
    expect(slowEnded).toBe(true);
  });
});
