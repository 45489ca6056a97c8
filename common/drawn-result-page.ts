import type { Banner, BannerPosition } from './types/content';
import type { ScreeningResult } from './types/result';
import type { SessionUser } from './types/session';

/**
 * The result page the server draws into the HTML for a signed-in result-portal patient
 * (server/result-page/), and what the app starts from instead of asking again
 * (client/early-start/drawn-result-page.ts). Shared by the server, the build
 * (scripts/vite-result-page-render.ts, client/prerender/render-result-page.tsx) and the client.
 */

/** The answers the app would ask for first on the page, as the API gives them. */
export type ResultPageAnswers = {
  /** `GET /api/auth/session`: who is signed in. */
  user: SessionUser;
  /** `GET /api/screening/result` without an id: her screening. */
  result: ScreeningResult;
  /** `GET /api/banners` of each placement. */
  banners: Record<BannerPosition, Banner[]>;
};

/** The `<script type="application/json">` element that carries the answers in the drawn page. */
export const RESULT_PAGE_ANSWERS_ID = 'result-page-answers';

/** What the build's render entry exports by default (loaded by the server from the built client). */
export type ResultPageRenderer = {
  /** Loads what the page needs (its code, the catalog), so that every `render` is synchronous. */
  prepare(): Promise<void>;
  /** Whether the cookie dialog was answered, as the app reads that cookie: the drawn page has no dialog. */
  cookieDialogAnswered(cookieHeader: string): boolean;
  /** The whole app on the result page at `path`, as its first render shows these answers, and the title it sets. */
  render(path: string, answers: ResultPageAnswers): { markup: string; title: string };
};

/** Where the build puts the render entry and the page around it, inside the built client. */
export const RESULT_PAGE_BUILD = {
  dir: 'prerendered/result-page',
  renderer: 'render.mjs',
  /** index.html as the drawn page's frame, with the three slots below, in this order. */
  template: 'page.html',
  titleSlot: '<!--result-page-title-->',
  markupSlot: '<!--result-page-markup-->',
  answersSlot: '<!--result-page-answers-->',
} as const;
