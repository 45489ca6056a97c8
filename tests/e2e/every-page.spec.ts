import { expect, test, type Page } from '@playwright/test';
import { applyPreferences, axeViolationsInEveryThemeAndScale } from './support/axe';
import { pl } from './support/catalogs';
import { signInThroughApi, type Audience } from './support/api-sign-in';
import { skipCookieDialog } from './support/preferences';

/**
 * Every page, signed out, as the demo guest and as Anna: axe's WCAG 2.0-2.2 A/AA rules and best
 * practices in all five themes at all three font scales, one <h1> that stands out, a title of its
 * own, no console error (no failed request either), and at 360 px with text at 160% nothing wider
 * than the screen.
 */

/**
 * `path` names the page; `resolve` gives its real path when it holds an id of Anna's;
 * `refusedCall` is the one request the page exists to have refused (an unknown reset link).
 */
type PageCase = { audience: Audience; path: string; resolve?: (page: Page) => Promise<string>; refusedCall?: string };

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

async function annasScreenings(page: Page): Promise<{ id: number; orderable: boolean }[]> {
  const { items } = (await (await page.request.get('/api/screenings')).json()) as {
    items: { screening: { id: number }; orders: { done: boolean }[] }[];
  };
  return items.map((item) => ({ id: item.screening.id, orderable: item.orders.every((order) => order.done) }));
}

async function newestScreening(page: Page): Promise<number> {
  const [newest] = await annasScreenings(page);
  if (!newest) throw new Error('Anna has no screening');
  return newest.id;
}

const PAGES: PageCase[] = [
  ...[
    '/',
    '/faq',
    '/contact',
    '/contact/success',
    '/login',
    '/portal/login',
    '/portal/regulations',
    '/portal/consent',
    '/copy-of-medical-clerking',
    '/reset-password',
    '/reset-password/sent',
    '/password-changed',
  ].map((path) => ({ audience: 'visitor' as const, path })),
  { audience: 'visitor', path: '/change-password/3f1c2a9e-7b4d-4c1a-9f3e-2d5b6a7c8e90', refusedCall: 'POST /api/auth/password/token 400' },
  ...['/screening', '/screening/survey', '/audit'].map((path) => ({ audience: 'guest' as const, path })),
  ...['/screenings', '/referral', '/portal/profile', '/portal/upload-screenings', '/portal/audit'].map((path) => ({
    audience: 'patient' as const,
    path,
  })),
  { audience: 'patient', path: '/screening/{id}', resolve: async (page) => `/screening/${await newestScreening(page)}` },
  { audience: 'patient', path: '/screening/{id}/survey', resolve: async (page) => `/screening/${await newestScreening(page)}/survey` },
  {
    audience: 'patient',
    path: '/buy-consultation/screening/{id}',
    resolve: async (page) => `/buy-consultation/screening/${await newestScreening(page)}`,
  },
  {
    audience: 'patient',
    path: '/order-screening-copy/{id}',
    resolve: async (page) => {
      const orderable = (await annasScreenings(page)).find((screening) => screening.orderable);
      if (!orderable) throw new Error('Anna has no screening to order a copy of');
      return `/order-screening-copy/${orderable.id}`;
    },
  },
];

/**
 * What went wrong while the page ran: requests answered with an error (method, path, status) and
 * the browser's own errors (a CSP refusal, a script error); its "Failed to load resource" line for
 * each failed request is counted with the request, which names it. A refusal the page's script
 * caught (zod trying `new Function`) writes nothing to the console: the page's own
 * securitypolicyviolation events are written there for it.
 */
async function collectFailures(page: Page): Promise<{ requests: string[]; errors: string[] }> {
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content-Security-Policy violation: ${event.effectiveDirective} ${event.blockedURI}`),
    ),
  );
  const failures = { requests: [] as string[], errors: [] as string[] };
  page.on('response', (response) => {
    if (response.status() >= 400)
      failures.requests.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
  });
  // A request the app itself cancels (a page left before its answer came) is not a failure.
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      failures.requests.push(`${request.method()} ${new URL(request.url()).pathname} failed`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) failures.errors.push(message.text());
  });
  page.on('pageerror', (error) => failures.errors.push(error.message));
  return failures;
}

/**
 * Elements reaching past the right edge of the window, a few named, and the page's scroll width.
 * A part cut off by a box that fits (react-aria's visually hidden inputs, 1 px boxes that clip a
 * wider control) shows nothing past the edge and does not count; one scrolled inside a box does.
 */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clippedWithin = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const overflowX = getComputedStyle(box).overflowX;
        if ((overflowX === 'hidden' || overflowX === 'clip') && box.getBoundingClientRect().right <= width + 0.5) return true;
      }
      return false;
    };
    const wider = [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 0.5 && !clippedWithin(element);
      })
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className)}`);
    return { scrollWidth: document.documentElement.scrollWidth, wider };
  });
}

/**
 * The titles seen so far, by page. A page's title is its own among the pages one person can
 * reach: the guest's result page and a patient's are the same page, rightly titled alike.
 */
const titles = new Map<string, { audience: Audience; title: string }>();
const seenBySame = (one: Audience, other: Audience) => one === other || one === 'visitor' || other === 'visitor';

for (const pageCase of PAGES) {
  test(`${pageCase.audience} ${pageCase.path}: accessible in every theme and font scale, with its own title, fitting a phone`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(DESKTOP);
    await skipCookieDialog(context, baseURL);
    const failures = await collectFailures(page);
    if (pageCase.audience !== 'visitor') await signInThroughApi(page.request, pageCase.audience);
    const path = pageCase.resolve ? await pageCase.resolve(page) : pageCase.path;
    await page.goto(path);
    const heading = page.getByRole('main').getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    // The page as the app shows it, not the picture drawn before the app took over (a slow start
    // on a loaded machine can outlast the wait below).
    await expect(page.locator('html')).not.toHaveAttribute('data-prerendered', { timeout: 30_000 });
    // Settled: its data and lazy parts loaded. The service worker's first precache (3 MB) can keep
    // the network busy past that on a loaded machine; ten seconds of it are enough for the page.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);

    // One page title, larger than every card title on the page.
    await expect(page.locator('h1')).toHaveCount(1);
    const sizes = await page.evaluate(() => ({
      title: parseFloat(getComputedStyle(document.querySelector('h1')!).fontSize),
      largestOther: Math.max(0, ...[...document.querySelectorAll('main h2, main h3')].map((h) => parseFloat(getComputedStyle(h).fontSize))),
    }));
    expect(sizes.title).toBeGreaterThan(sizes.largestOther);

    // "<page> – Portal Pacjentki", the portal's name once; the home page has the full name alone.
    const title = await page.title();
    if (path === '/') expect(title).toBe(pl['app.name']);
    else expect(title).toMatch(new RegExp(`^(?!.*${pl['app.titleSuffix']}.*${pl['app.titleSuffix']}).+ – ${pl['app.titleSuffix']}$`));
    const sharedWith = [...titles.entries()].find(
      ([otherPath, other]) => other.title === title && otherPath !== path && seenBySame(other.audience, pageCase.audience),
    );
    expect(sharedWith, `the title "${title}" is also ${sharedWith?.[0]}'s`).toBeUndefined();
    titles.set(path, { audience: pageCase.audience, title });

    expect(await axeViolationsInEveryThemeAndScale(page)).toEqual({});

    await page.setViewportSize(PHONE);
    await applyPreferences(page, 'default', 1.6);
    await expect(page.locator('body')).toHaveCSS('font-size', '22.4px');
    const overflow = await horizontalOverflow(page);
    expect(overflow.wider, 'elements wider than the screen').toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(PHONE.width);

    expect(failures.requests).toEqual(pageCase.refusedCall ? [pageCase.refusedCall] : []);
    expect(failures.errors).toEqual([]);
  });
}
