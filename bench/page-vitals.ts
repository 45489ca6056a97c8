import type { BrowserContext, Page } from '@playwright/test';

/**
 * Largest Contentful Paint and Total Blocking Time of one page load, measured in the page with
 * PerformanceObserver as Lighthouse defines them: LCP is the render time of the last
 * 'largest-contentful-paint' entry; TBT is the sum, over long tasks between First Contentful
 * Paint and Time to Interactive, of each task's part beyond 50 ms. TTI is the end of the last long
 * task before the page stays quiet for QUIET_MS (Lighthouse also asks for at most two requests in
 * flight; the bench waits for the network to go idle first).
 */
export type PageVitals = { fcpMs: number; lcpMs: number; tbtMs: number; ttiMs: number; longTasks: number };

const QUIET_MS = 5_000;
const BLOCKING_THRESHOLD_MS = 50;

type Recorded = { now: number; fcp: number | null; lcp: number | null; longTasks: { start: number; duration: number }[] };

declare global {
  interface Window {
    __benchVitals?: { read(): Omit<Recorded, 'now' | 'fcp'> };
  }
}

/** Registered before any script of the page runs, so no long task escapes the observer. */
function recordVitals(): void {
  let lcp: number | null = null;
  const longTasks: { start: number; duration: number }[] = [];
  const lcpObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) lcp = entry.startTime;
  });
  lcpObserver.observe({ type: 'largest-contentful-paint', buffered: true });
  const taskObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
  });
  taskObserver.observe({ type: 'longtask', buffered: true });
  window.__benchVitals = {
    read() {
      for (const entry of lcpObserver.takeRecords()) lcp = entry.startTime;
      for (const entry of taskObserver.takeRecords()) longTasks.push({ start: entry.startTime, duration: entry.duration });
      return { lcp, longTasks: [...longTasks] };
    },
  };
}

export async function recordVitalsInEveryPage(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordVitals);
}

function readRecorded(page: Page): Promise<Recorded> {
  return page.evaluate(() => {
    const recorded = window.__benchVitals!.read();
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    return { ...recorded, fcp, now: performance.now() };
  });
}

/**
 * Waits until the page loaded, the network is idle and no long task ran for QUIET_MS, then reads
 * the figures. Call right after the navigation, before touching the page: input ends LCP.
 */
export async function measureVitals(page: Page, timeoutMs = 90_000): Promise<PageVitals> {
  const deadline = Date.now() + timeoutMs;
  await page.waitForLoadState('networkidle', { timeout: timeoutMs });
  for (;;) {
    const recorded = await readRecorded(page);
    const lastTaskEnd = Math.max(0, ...recorded.longTasks.map((task) => task.start + task.duration));
    if (recorded.fcp !== null && recorded.lcp !== null && recorded.now - lastTaskEnd >= QUIET_MS) return vitalsOf(recorded);
    if (Date.now() > deadline) throw new Error(`the page did not settle in ${timeoutMs} ms`);
    await page.waitForTimeout(500);
  }
}

function vitalsOf({ fcp, lcp, longTasks }: Recorded): PageVitals {
  const fcpMs = fcp!;
  const afterFcp = longTasks.filter((task) => task.start + task.duration > fcpMs);
  const ttiMs = Math.max(fcpMs, ...afterFcp.map((task) => task.start + task.duration));
  let tbtMs = 0;
  for (const task of afterFcp) {
    // A task that began before FCP blocks only from FCP on (Lighthouse clips it the same way).
    const blocking = task.start + task.duration - Math.max(task.start, fcpMs) - BLOCKING_THRESHOLD_MS;
    if (blocking > 0) tbtMs += blocking;
  }
  return { fcpMs, lcpMs: lcp!, tbtMs, ttiMs, longTasks: longTasks.length };
}
