import { describe, expect, it } from 'vitest';
import { coveredBy } from './keep-focus-uncovered';

const box = (top: number, bottom: number) => ({ top, bottom }) as DOMRect;

describe('coveredBy', () => {
  it('is 0 for a control well above the notifications', () => {
    expect(coveredBy(box(100, 140), 600)).toBe(0);
  });

  it('is how far a control reaches under them, with a little room to spare', () => {
    expect(coveredBy(box(580, 620), 600)).toBe(28);
    expect(coveredBy(box(560, 595), 600)).toBe(3);
  });
});
