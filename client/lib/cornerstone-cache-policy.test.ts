import { describe, expect, it } from 'vitest';
import { cacheLimitBytes, pagerKeepWindow, pagerReleases } from './cornerstone-cache-policy';

const MB = 1024 * 1024;

describe('cacheLimitBytes', () => {
  it('takes an eighth of the device memory within 128 MB and 1 GB', () => {
    expect(cacheLimitBytes(4)).toBe(512 * MB);
    expect(cacheLimitBytes(0.5)).toBe(128 * MB);
    expect(cacheLimitBytes(16)).toBe(1024 * MB);
  });

  it('treats a device that does not say as a 2 GB tablet', () => {
    expect(cacheLimitBytes(undefined)).toBe(256 * MB);
  });

  it('always fits two of the largest image', () => {
    expect(cacheLimitBytes(1, 100 * MB)).toBe(200 * MB);
  });
});

describe('pager eviction', () => {
  const ids = Array.from({ length: 100 }, (_, index) => `img-${index}`);

  it('keeps the image shown and its neighbours', () => {
    expect([...pagerKeepWindow(ids, 0)]).toEqual(['img-0', 'img-1']);
    expect([...pagerKeepWindow(ids, 50)]).toEqual(['img-49', 'img-50', 'img-51']);
    expect([...pagerKeepWindow(ids, 99)]).toEqual(['img-98', 'img-99']);
  });

  it('releases every decoded image paged past, so paging through 100 holds three', () => {
    const cached = new Set<string>();
    for (const [index, id] of ids.entries()) {
      cached.add(id);
      for (const released of pagerReleases(ids, index, (id) => cached.has(id))) cached.delete(released);
      expect(cached.size).toBeLessThanOrEqual(3);
    }
    expect([...cached]).toEqual(['img-98', 'img-99']);
  });
});
