import { describe, expect, it } from 'vitest';
import { citySearchSchema, foldPlaceName } from './geography';

describe('place names as the city search compares them', () => {
  it.each([
    ['Łódź', 'lodz'],
    ['ŻORY', 'zory'],
    ['Gorzów Wielkopolski', 'gorzow wielkopolski'],
    ['Kędzierzyn-Koźle', 'kedzierzyn-kozle'],
    ['Świnoujście', 'swinoujscie'],
    ['Ząbki', 'zabki'],
  ])('folds %s to %s', (name, folded) => {
    expect(foldPlaceName(name)).toBe(folded);
  });
});

describe('the city search query', () => {
  it('needs a province code and two typed characters', () => {
    expect(citySearchSchema.safeParse({ provinceTid: '10', cityName: ' lo ' }).data).toEqual({ provinceTid: '10', cityName: 'lo' });
    expect(citySearchSchema.safeParse({ provinceTid: '10', cityName: 'l' }).success).toBe(false);
    expect(citySearchSchema.safeParse({ provinceTid: '1', cityName: 'lodz' }).success).toBe(false);
    expect(citySearchSchema.safeParse({ cityName: 'lodz' }).success).toBe(false);
  });
});
