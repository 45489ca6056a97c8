/**
 * `work` applied to every item, at most `limit` at a time, the answers in the items' order: for
 * many small reads of a store that answers several at once (an object store especially).
 */
export async function mapInParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) answers[index] = await work(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}

/**
 * Work handed over as it comes up (one part of a body after another), at most `limit` pieces
 * running behind the caller: `add` returns at once unless that many are still running, so the
 * caller goes on with its own work meanwhile. A failure is answered by the next `add` or by
 * `done`, which waits for every piece to end first (nothing is left running behind a failure).
 */
export class Backlog {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  async add(work: Promise<void>): Promise<void> {
    const piece: Promise<void> = work
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(piece));
    this.running.add(piece);
    while (this.running.size > this.limit) await Promise.race(this.running);
    this.throwFailure();
  }

  /** Every piece ended; rejects with the first failure, if any. */
  async done(): Promise<void> {
    await Promise.all(this.running);
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }
}
