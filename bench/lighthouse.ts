import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startFlow } from 'lighthouse';
import { cpuTimeTbtMs, type TraceEvent } from './cpu-time-tbt';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ROUTES } from '../client/routes/paths';
import { resultPortalSession } from './cookies';
import { startPortal, stopPortal } from './http-budget';
import { median } from './median';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The demo result-portal patient (db/seeds/demo.ts). */
const RESULT_LOGIN = { accessCode: 'Xk7mP2qa', birthAt: '1968-04-12' };
/** Issue 16's targets, per page: as a user checking the site with Lighthouse would judge it. */
export const LIGHTHOUSE_TARGETS = { score: 0.95, lcpMs: 1_200, tbtMs: 200, cls: 0.05 };

/**
 * `benchmarkIndex`: Lighthouse's own measure of the host's CPU at the run, printed beside the
 * figures. Simulated throttling times the tasks as this host ran them and multiplies them by 4, so
 * TBT depends on the host: one build (7b24d62) measured 73-150 ms on one day's machine and
 * 177-584 ms on another's (issue 16).
 */
type Run = {
  score: number;
  lcpMs: number;
  tbtMs: number;
  /** TBT from the renderer's CPU time in the same run's trace (cpu-time-tbt.ts). */
  cpuTbtMs: number;
  cls: number;
  benchmarkIndex: number;
  error?: string;
};
export type LighthouseResult = { page: string; runs: Run[] }[];

/** Every public page (a reset link's page with a token of the right shape), then the signed-in result page. */
function pagesToMeasure(): { label: string; path: string; signedIn: boolean }[] {
  const publicPages = ROUTES.filter((route) => route.access === 'public').map((route) => ({
    label: route.path,
    path: route.path.replace(':token', randomUUID()),
    signedIn: false,
  }));
  return [...publicPages, { label: '/screening (signed in, consent given)', path: '/screening', signedIn: true }];
}

/** What a browser that signed in on the login page holds: the session and the answered cookie dialog. */
async function signedInCookies(base: string): Promise<{ name: string; value: string }[]> {
  const { cookie } = await resultPortalSession(base, RESULT_LOGIN);
  const consent = JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: new Date().toISOString() });
  const session = cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) }));
  return [...session, { name: 'portal.cookie-consent', value: encodeURIComponent(consent) }];
}

/**
 * BENCH_LIGHTHOUSE_REPORTS=<dir> keeps each run's full report there (<path>-<time>.json), to read
 * the audits behind a figure: the LCP element, unused code, what blocks the first paint.
 */
function keepReport(url: string, lhr: unknown): void {
  const dir = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const name = new URL(url).pathname.replace(/[^\w]+/g, '_') || '_';
  writeFileSync(`${dir}/${name}-${Date.now()}.json`, JSON.stringify(lhr));
}

/** One Lighthouse navigation (its default: mobile, simulated throttling) in a fresh browser profile. */
async function lighthouseOnce(browser: Browser, url: string, cookies: { name: string; value: string }[]): Promise<Run> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (cookies.length > 0) await context.setCookie(...cookies.map((cookie) => ({ ...cookie, domain: new URL(url).hostname, path: '/' })));
    const flow = await startFlow(page, { config: { extends: 'lighthouse:default', settings: { onlyCategories: ['performance'] } } });
    await flow.navigate(url);
    const { lhr } = (await flow.createFlowResult()).steps[0]!;
    keepReport(url, lhr);
    const trace = flow.createArtifactsJson().gatherSteps[0]?.artifacts.Trace as { traceEvents: TraceEvent[] } | undefined;
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const error = lhr.runtimeError?.code ?? lhr.audits['largest-contentful-paint']?.errorMessage;
    return {
      ...(error && { error }),
      score: lhr.categories.performance?.score ?? 0,
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cpuTbtMs: (trace && cpuTimeTbtMs(trace.traceEvents)) ?? Number.NaN,
      cls: audit('cumulative-layout-shift'),
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  } finally {
    await context.close();
  }
}

/**
 * Lighthouse 13 itself over the demo portal (built client of `clientDir`), as a user would check
 * the site: each public page on a first visit, and the result page signed in with the cookie
 * dialog answered. Runs take turns page by page, RUNS rounds.
 */
export async function measureLighthouse(clientDir: string): Promise<LighthouseResult> {
  // BENCH_LIGHTHOUSE_PORT: another port, when another bench on this machine holds the default.
  const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 3490);
  const base = `http://127.0.0.1:${port}`;
  const portal = await startPortal(port, { CLIENT_DIR: clientDir, THROTTLE: 'off' });
  const browser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const only = process.env.BENCH_LIGHTHOUSE_ONLY;
    const pages = pagesToMeasure().filter((page) => !only || page.path === only || page.label === only);
    const result: LighthouseResult = pages.map((page) => ({ page: page.label, runs: [] }));
    for (let round = 0; round < RUNS; round++) {
      for (const [index, page] of pages.entries()) {
        const cookies = page.signedIn ? await signedInCookies(base) : [];
        result[index]!.runs.push(await lighthouseOnce(browser, `${base}${page.path}`, cookies));
      }
    }
    return result;
  } finally {
    await browser.close();
    await stopPortal(portal);
  }
}

export function printLighthouse(result: LighthouseResult): boolean {
  const { score, lcpMs, tbtMs, cls } = LIGHTHOUSE_TARGETS;
  console.log(`\n## Lighthouse 13, mobile, simulated throttling (${RUNS} runs each; median, spread)`);
  console.log(`  targets: score >= ${score}, LCP <= ${lcpMs} ms, TBT <= ${tbtMs} ms, CLS <= ${cls}`);
  const indexes = result.flatMap(({ runs }) => runs.map((run) => run.benchmarkIndex)).filter(Number.isFinite);
  if (indexes.length > 0) {
    console.log(
      `  host CPU, Lighthouse's benchmarkIndex: median ${median(indexes).toFixed(0)} (${Math.min(...indexes).toFixed(0)}-${Math.max(...indexes).toFixed(0)}); ` +
        'TBT depends on the host: its tasks are timed here, then multiplied by 4',
    );
    console.log(
      "  TBT by CPU time: the same rule over the renderer's own CPU time in each task (bench/cpu-time-tbt.ts); " +
        'far below TBT, the difference is the host making the page wait for a core',
    );
  }
  let ok = true;
  for (const { page, runs } of result) {
    const of = (pick: (run: Run) => number) => runs.map(pick);
    const figure = (values: number[], digits: number) =>
      `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
    const met =
      median(of((r) => r.score)) >= score &&
      median(of((r) => r.lcpMs)) <= lcpMs &&
      median(of((r) => r.tbtMs)) <= tbtMs &&
      median(of((r) => r.cls)) <= cls;
    ok &&= met;
    console.log(
      `  ${page.padEnd(40)} score ${figure(
        of((r) => r.score),
        2,
      )}  LCP ${figure(
        of((r) => r.lcpMs),
        0,
      )} ms  ` +
        `TBT ${figure(
          of((r) => r.tbtMs),
          0,
        )} ms (by CPU time ${figure(
          of((r) => r.cpuTbtMs),
          0,
        )} ms)  CLS ${figure(
          of((r) => r.cls),
          3,
        )}  ${met ? 'met' : 'NOT MET'}`,
    );
    for (const error of new Set(runs.flatMap((run) => (run.error ? [run.error] : [])))) console.log(`    Lighthouse: ${error}`);
  }
  return ok;
}
