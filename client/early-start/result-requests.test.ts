// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing/session';
import { arrivedBanners, fetchBanners, fetchResult, prefetchBanners, prefetchResult, topBannersAnswered } from './result-requests';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const banner = { id: 1, position: 'top-placement', imageUrl: '/banners/a.svg', linkUrl: null, alt: { pl: 'A', en: 'A' } };

describe('requests the route guard starts for the result page', () => {
  it('are taken by the page once: the result is read a single time, a second visit asks again', async () => {
    const requests = fakeApi({ 'GET /screening/result': () => ({ body: { screening: { id: 41 } } }) });
    prefetchResult(41);
    expect(await fetchResult(41)).toEqual({ screening: { id: 41 } });
    expect(requests.filter((request) => request.path === '/screening/result')).toHaveLength(1);
    await fetchResult(41);
    expect(requests.filter((request) => request.path === '/screening/result')).toHaveLength(2);
  });

  it('are not taken for another screening, nor once stale', async () => {
    const requests = fakeApi({ 'GET /screening/result': () => ({ body: {} }) });
    prefetchResult(41);
    await fetchResult(42);
    expect(requests).toHaveLength(2);

    vi.useFakeTimers({ toFake: ['Date'] });
    prefetchResult(43);
    vi.setSystemTime(Date.now() + 60_000);
    await fetchResult(43);
    expect(requests).toHaveLength(4);
  });

  it('ask again for banners refused before the session was known', async () => {
    let signedIn = false;
    const requests = fakeApi({
      'GET /banners': () => (signedIn ? { body: [banner] } : { status: 401, body: { code: 'UNAUTHENTICATED' } }),
    });
    prefetchBanners();
    signedIn = true;
    expect(await fetchBanners('top-placement')).toEqual([banner]);
    expect(requests.filter((request) => request.path === '/banners')).toHaveLength(3);
  });

  it('show banners that have arrived at once, and take their request once, with nothing sent again', async () => {
    let answer: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    const requests = fakeApi({ 'GET /banners': async () => (await arrived, { body: [banner] }) });
    prefetchBanners();
    expect(arrivedBanners('top-placement')).toBeUndefined();
    answer!();
    await vi.waitFor(() => expect(arrivedBanners('top-placement')).toEqual([banner]));
    // A first render only looks (it may be thrown away and redone); the effect then takes it.
    expect(arrivedBanners('top-placement')).toEqual([banner]);
    expect(await fetchBanners('top-placement')).toEqual([banner]);
    expect(requests.filter((request) => request.path === '/banners')).toHaveLength(2);
    // Taken: the next visit asks the server.
    expect(arrivedBanners('top-placement')).toBeUndefined();
    await fetchBanners('top-placement');
    expect(requests.filter((request) => request.path === '/banners')).toHaveLength(3);
  });

  it('let the page wait for the top banners until they have arrived, for a limited time', async () => {
    let answer: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    fakeApi({ 'GET /banners': async () => (await arrived, { body: [banner] }) });
    prefetchBanners();
    const waited = topBannersAnswered(60_000);
    answer!();
    await waited;
    expect(arrivedBanners('top-placement')).toEqual([banner]);
    await fetchBanners('top-placement');

    fakeApi({ 'GET /banners': () => new Promise(() => undefined) });
    prefetchBanners();
    vi.useFakeTimers();
    const capped = topBannersAnswered(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await capped;
    expect(arrivedBanners('top-placement')).toBeUndefined();
  });
});
