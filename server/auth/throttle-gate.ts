/**
 * Holds credential checks of one process back while their buckets already have as many checks
 * running as they may (checksAtOnce). A held attempt is never refused for it: it waits its turn
 * and is then judged by the failures recorded meanwhile (throttle.ts, verify). So a burst of
 * guesses costs a handful of argon2 checks rather than one per guess, and a NAT full of patients
 * signing in at once is queued, not answered 429.
 *
 * Kept in memory on purpose: it only spares work. What a caller may learn is decided under the
 * database's row locks, so several processes each with their own gate stay exact.
 */
export type CheckGate = {
  /**
   * Waits until every key has room, then takes a place in each. `readLimits` reads the current
   * limits afresh before every try; whatever it throws (a 429 once a wait runs) ends the waiting.
   */
  enter(keys: string[], readLimits: () => Promise<Map<string, number>>): Promise<void>;
  leave(keys: string[]): void;
};

/** A wake-up can miss a held attempt (it waited on another key); it looks again this often anyway. */
const LOOK_AGAIN_MS = 250;

export function createCheckGate(): CheckGate {
  const running = new Map<string, number>();
  const queues = new Map<string, (() => void)[]>();
  const countOf = (key: string) => running.get(key) ?? 0;

  function wakeNext(key: string): void {
    const queue = queues.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) queues.delete(key);
    next?.();
  }

  function waitTurn(key: string, atFront: boolean): Promise<void> {
    return new Promise((resolve) => {
      const queue = queues.get(key) ?? [];
      queues.set(key, queue);
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(turn);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && queues.get(key) === queue) queues.delete(key);
        resolve();
      }, LOOK_AGAIN_MS);
      if (atFront) queue.unshift(turn);
      else queue.push(turn);
    });
  }

  return {
    async enter(keys, readLimits) {
      let heldOn: string | undefined;
      for (;;) {
        let limits: Map<string, number>;
        try {
          limits = await readLimits();
        } catch (error) {
          // The next in line most likely meets the same wait: let it find out now.
          if (heldOn) wakeNext(heldOn);
          throw error;
        }
        const limitOf = (key: string) => limits.get(key) ?? 1;
        // Newcomers queue behind those already held, so nobody waits forever.
        const full = keys.find((key) => countOf(key) >= limitOf(key) || (!heldOn && queues.has(key)));
        if (full === undefined) {
          for (const key of keys) running.set(key, countOf(key) + 1);
          // Room left over (a success cleared a bucket): the next in line may come too.
          for (const key of keys) if (countOf(key) < limitOf(key)) wakeNext(key);
          return;
        }
        // Back of the line at first; a held one that was woken but found no room keeps its place.
        await waitTurn(full, heldOn !== undefined);
        heldOn = full;
      }
    },

    leave(keys) {
      for (const key of keys) {
        const count = countOf(key) - 1;
        if (count > 0) running.set(key, count);
        else running.delete(key);
        wakeNext(key);
      }
    },
  };
}
