import { describe, expect, it } from 'vitest';
import { hangImages, slotOf } from './hanging';

const image = (id: string, laterality: 'R' | 'L' | null, viewPosition: string | null) => ({ id, laterality, viewPosition });

describe('slotOf', () => {
  it('places plain CC and MLO by side', () => {
    expect(slotOf(image('a', 'R', 'CC'))).toBe('RCC');
    expect(slotOf(image('a', 'L', 'mlo '))).toBe('LMLO');
  });

  it('leaves other views and unknown sides out of the four', () => {
    expect(slotOf(image('a', 'L', 'XCCL'))).toBeNull();
    expect(slotOf(image('a', 'R', 'ML'))).toBeNull();
    expect(slotOf(image('a', null, 'CC'))).toBeNull();
    expect(slotOf(image('a', 'R', null))).toBeNull();
  });
});

describe('hangImages', () => {
  it('hangs the four views whatever order they come in and lists the rest after', () => {
    const images = [
      image('lmlo', 'L', 'MLO'),
      image('spot', 'L', 'XCCL'),
      image('rcc', 'R', 'CC'),
      image('rmlo', 'R', 'MLO'),
      image('lcc', 'L', 'CC'),
      image('rcc-again', 'R', 'CC'),
      image('unknown', null, null),
    ];
    const { slots, others } = hangImages(images);
    expect(slots.RCC?.id).toBe('rcc');
    expect(slots.LCC?.id).toBe('lcc');
    expect(slots.RMLO?.id).toBe('rmlo');
    expect(slots.LMLO?.id).toBe('lmlo');
    expect(others.map((o) => o.id)).toEqual(['spot', 'rcc-again', 'unknown']);
  });

  it('leaves a slot empty when the set has no image of that view', () => {
    const { slots, others } = hangImages([image('rcc', 'R', 'CC')]);
    expect(slots).toEqual({ RCC: image('rcc', 'R', 'CC'), LCC: null, RMLO: null, LMLO: null });
    expect(others).toEqual([]);
  });
});
