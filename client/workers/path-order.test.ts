import { describe, expect, it } from 'vitest';
import { pathOrder } from './path-order';

describe('pathOrder', () => {
  it('puts paths in folder order with numbers compared as numbers, equal paths in their order', () => {
    const paths = ['s/IM10', 's/IM9', 'r/IM1', 's/IM9'];
    expect([...pathOrder(paths)]).toEqual([2, 1, 3, 0]);
    expect(pathOrder([])).toHaveLength(0);
  });
});
