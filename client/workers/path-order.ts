// One collator for all comparisons: localeCompare with options builds one per call.
const pathCollator = new Intl.Collator(undefined, { numeric: true });

/**
 * The indexes of `paths` in folder order, numbers compared as numbers (IM9 before IM10), so the
 * files of one series sit together on the list.
 */
export function pathOrder(paths: readonly string[]): Uint32Array {
  const order = Uint32Array.from(paths.keys());
  return order.sort((a, b) => pathCollator.compare(paths[a]!, paths[b]!) || a - b);
}
