import { useEffect, useState } from 'react';
import type { City } from '@common/types/geography';
import { CITY_SEARCH_MIN_LENGTH } from '@common/validation/geography';
import { api } from '../../../lib/api';

/** Spec sections 5 and 9: the search waits 500 ms after the last keystroke. */
const CITY_SEARCH_DEBOUNCE_MS = 500;

export type CitySearch = { cities: City[]; searching: boolean; failed: boolean };

/**
 * The places of a province matching what she typed, asked of the server once she has typed more
 * than one character and paused for 500 ms. A newer search aborts the older one, so a late answer
 * never replaces the list of what she typed last.
 */
export function useCitySearch(provinceTid: string | null, typed: string): CitySearch {
  const term = typed.trim();
  const active = provinceTid !== null && term.length >= CITY_SEARCH_MIN_LENGTH;
  const [result, setResult] = useState<{ key: string; cities: City[]; failed: boolean }>({ key: '', cities: [], failed: false });
  const key = active ? `${provinceTid}|${term}` : '';

  useEffect(() => {
    if (!key) return;
    const [tId, cityName] = key.split('|') as [string, string];
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.get<City[]>('/screening/cities', { query: { provinceTid: tId, cityName }, signal: controller.signal }).then(
        (cities) => setResult({ key, cities, failed: false }),
        () => {
          if (!controller.signal.aborted) setResult({ key, cities: [], failed: true });
        },
      );
    }, CITY_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  if (!active) return { cities: [], searching: false, failed: false };
  const current = result.key === key;
  return { cities: current ? result.cities : [], searching: !current, failed: current && result.failed };
}
