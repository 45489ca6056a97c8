import { api } from '../lib/api';
import type { Banner, BannerPosition } from '@common/types/content';
import type { ScreeningResult } from '@common/types/result';
import type { ResultPageAnswers } from '@common/drawn-result-page';

/**
 * The result page's requests, started by the route guard while it checks the session
 * (client/app/guards.tsx), so that on a phone's slow link they travel together rather than one
 * after another (issue 4: Largest Contentful Paint on the first visit), or answered by the server
 * with the page it drew (arriveWithPage). The page takes each started request once; one it does
 * not take soon was for another visit and is asked anew.
 */
const FRESH_MS = 30_000;
type Started = { answer: Promise<unknown>; at: number; arrived?: { value: unknown } };
const started = new Map<string, Started>();

function start(key: string, request: () => Promise<unknown>): void {
  const entry: Started = { answer: request(), at: Date.now() };
  // Its failure belongs to the page that takes it, not to the console as unhandled.
  entry.answer.then(
    (value) => void (entry.arrived = { value }),
    () => undefined,
  );
  started.set(key, entry);
}

const isFresh = (entry: Started) => Date.now() - entry.at < FRESH_MS;

/**
 * An answer the server sent with the page (./drawn-result-page.ts), kept as a started request that
 * has arrived: the first render shows it and the page takes it without asking again. Returns what
 * forgets it, unless the page took it already.
 */
function arrive(key: string, value: unknown): () => void {
  const entry: Started = { answer: Promise.resolve(value), at: Date.now(), arrived: { value } };
  started.set(key, entry);
  return () => {
    if (started.get(key) === entry) started.delete(key);
  };
}

/**
 * A started request's answer if it has already arrived; undefined otherwise. Not taken: a render
 * can be thrown away and done again (React may restart one), so the first render only looks, and
 * the component's effect takes the request (`take`), which sends nothing more.
 */
function peekArrived<T>(key: string): T | undefined {
  const found = started.get(key);
  return found?.arrived && isFresh(found) ? (found.arrived.value as T) : undefined;
}

/** `askAgainOnFailure`: a started request that failed is repeated rather than its failure shown. */
function take<T>(key: string, request: () => Promise<T>, askAgainOnFailure = false): Promise<T> {
  const found = started.get(key);
  started.delete(key);
  if (!found || !isFresh(found)) return request();
  const answer = found.answer as Promise<T>;
  return askAgainOnFailure ? answer.catch(() => request()) : answer;
}

const resultKey = (id: number | undefined) => `result:${id ?? 'own'}`;
const requestResult = (id: number | undefined) => api.get<ScreeningResult>('/screening/result', { query: { id } });

/** `GET /api/screening/result`: the guest's screening (no id) or the patient's screening `id`. */
export function fetchResult(id: number | undefined): Promise<ScreeningResult> {
  return take(resultKey(id), () => requestResult(id));
}

/** The result of `id` if its request has answered already (or came with the page), for a first render. */
export function arrivedResult(id: number | undefined): ScreeningResult | undefined {
  return peekArrived(resultKey(id));
}

/** Only once the session may open the page: each read of a result is an audited RESULT entry. */
export function prefetchResult(id: number | undefined): void {
  start(resultKey(id), () => requestResult(id));
}

const BANNER_PLACEMENTS = ['top-placement', 'bottom-placement'] as const satisfies readonly BannerPosition[];
const bannersKey = (placement: BannerPosition) => `banners:${placement}`;

async function requestBanners(placement: BannerPosition): Promise<Banner[]> {
  const answer = await api.get<Banner[]>('/banners', { query: { type: placement } });
  const banners = Array.isArray(answer) ? answer : [];
  // The top logos, the first thing on screen, download while the page waits for the result, not
  // after it rendered; their <img> elements then find them in the browser's memory. The bottom
  // ones load when scrolled near (SponsorBanners).
  if (placement === 'top-placement') {
    for (const banner of banners) {
      const image = new Image();
      image.fetchPriority = 'high';
      image.src = banner.imageUrl;
    }
  }
  return banners;
}

/** `GET /api/banners`: the sponsor logos of one placement. */
export function fetchBanners(placement: BannerPosition): Promise<Banner[]> {
  return take(bannersKey(placement), () => requestBanners(placement), true);
}

/** The sponsor logos of `placement` if their started request has answered already, for a first render. */
export function arrivedBanners(placement: BannerPosition): Banner[] | undefined {
  return peekArrived(bannersKey(placement));
}

/**
 * Settles once the started request for the top logos has answered (or failed), or after `maxWaitMs`;
 * at once when none was started. The result page waits for it (client/app/guards.tsx): logos that
 * arrived after its first render would push the whole page down (issue 16, layout shift).
 */
export function topBannersAnswered(maxWaitMs: number): Promise<void> {
  const found = started.get(bannersKey('top-placement'));
  if (!found || found.arrived || !isFresh(found)) return Promise.resolve();
  return Promise.race([
    found.answer.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs)),
  ]);
}

/**
 * Started before the session is known: refused when there is none, which leaves the request for
 * the page to repeat should she sign in soon after.
 */
export function prefetchBanners(): void {
  for (const placement of BANNER_PLACEMENTS) start(bannersKey(placement), () => requestBanners(placement));
}

/** Her result and the sponsor logos as the server answered them with the page; returns what forgets them. */
export function arriveWithPage({ result, banners }: Pick<ResultPageAnswers, 'result' | 'banners'>): () => void {
  const forget = [
    arrive(resultKey(undefined), result),
    ...BANNER_PLACEMENTS.map((placement) => arrive(bannersKey(placement), banners[placement])),
  ];
  return () => forget.forEach((each) => each());
}
