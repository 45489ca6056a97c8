import { describe, expect, it } from 'vitest';
import type { ScreeningOrder } from '@common/types/screenings';
import { canOrderCopy, shownOrder } from './shown-order';

function order(id: number, done: boolean): ScreeningOrder {
  return { id, done, payment: null, shipmentStatus: 'awaiting', productCode: 'images_copy' };
}

describe('shownOrder', () => {
  it('shows nothing for a screening without orders', () => {
    expect(shownOrder([])).toBeNull();
  });

  it('shows the first order that is not done, even when a later one is done', () => {
    expect(shownOrder([order(3, true), order(5, false), order(7, false), order(9, true)])?.id).toBe(5);
  });

  it('shows the order with the highest id when every order is done, whatever their order', () => {
    expect(shownOrder([order(8, true), order(12, true), order(4, true)])?.id).toBe(12);
  });
});

describe('canOrderCopy', () => {
  it('allows a first order and an order after all earlier ones are done', () => {
    expect(canOrderCopy([])).toBe(true);
    expect(canOrderCopy([order(1, true), order(2, true)])).toBe(true);
  });

  it('waits while any order of the screening is not done', () => {
    expect(canOrderCopy([order(1, true), order(2, false)])).toBe(false);
  });
});
