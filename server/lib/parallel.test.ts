import { describe, expect, it } from 'vitest';
import { mapInParallel } from './parallel';

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
