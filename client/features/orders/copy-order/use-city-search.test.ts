// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { City } from '@common/types/geography';
import { useCitySearch } from './use-city-search';

const lodz: City = { id: 812, name: 'Łódź', district: 'Łódź', municipality: 'Łódź', kind: 'city' };
let asked: URL[];

beforeEach(() => {
  vi.useFakeTimers();
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(new URL(url, 'http://portal.test'));
      return new Response(JSON.stringify([lodz]), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Types `text` one key at a time, 100 ms apart, as a patient does. */
async function typeSlowly(rerender: (props: { typed: string }) => void, text: string) {
  for (let length = 1; length <= text.length; length++) {
    rerender({ typed: text.slice(0, length) });
    await act(() => vi.advanceTimersByTimeAsync(100));
  }
}

describe('the city search', () => {
  it('asks the server once, 500 ms after the last key, with the province and what she typed', async () => {
    const { result, rerender } = renderHook(({ typed }) => useCitySearch('10', typed), { initialProps: { typed: '' } });
    await typeSlowly(rerender, 'lodz');
    expect(asked).toEqual([]);
    expect(result.current.searching).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(399));
    expect(asked).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(asked.map((url) => [url.pathname, url.searchParams.get('provinceTid'), url.searchParams.get('cityName')])).toEqual([
      ['/api/screening/cities', '10', 'lodz'],
    ]);
    expect(result.current).toEqual({ cities: [lodz], searching: false, failed: false });
  });

  it('asks nothing for one letter or without a province', async () => {
    const oneLetter = renderHook(() => useCitySearch('10', 'ł'));
    const noProvince = renderHook(() => useCitySearch(null, 'lodz'));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(asked).toEqual([]);
    expect(oneLetter.result.current).toEqual({ cities: [], searching: false, failed: false });
    expect(noProvince.result.current).toEqual({ cities: [], searching: false, failed: false });
  });

  it('says so when the search fails, and shows no stale places', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 'INTERNAL' }), { status: 500 })),
    );
    const { result } = renderHook(() => useCitySearch('10', 'lodz'));
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(result.current).toEqual({ cities: [], searching: false, failed: true });
  });
});
