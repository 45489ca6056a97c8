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
