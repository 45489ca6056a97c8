import type { ScreeningOrder } from '@common/types/screenings';

/**
 * The order a row of the screenings list shows (spec section 4): the first one not done yet,
 * else the one with the highest id (the latest); none when the screening has no orders.
 */
export function shownOrder(orders: readonly ScreeningOrder[]): ScreeningOrder | null {
  const open = orders.find((order) => !order.done);
  if (open) return open;
  return orders.reduce<ScreeningOrder | null>((latest, order) => (latest === null || order.id > latest.id ? order : latest), null);
}

/** A new copy order waits until every order of the screening is done (spec section 4). */
export function canOrderCopy(orders: readonly ScreeningOrder[]): boolean {
  return orders.every((order) => order.done);
}
