import { createHash } from 'node:crypto';
import type { ScreeningListResponse } from '../common/types/screenings';
import type { Product } from '../common/types/orders';
import { startPortal, stopPortal } from './http-budget';
import { percentile } from './median';
import { cookiesSetBy } from './cookies';

/**
 * Issue 12's budget: starting a checkout, the order and the provider call to the sandbox
 * (`POST /api/order` then `POST /api/payment`), p95 under 100 ms. Each session is a signed-in
 * session of the demo patient looping over one (screening, translation) pair: order, pay, and
 * cancel the unpaid order unmeasured, so the pair is free again for the next round.
 */
/**
 * Sessions checking out back to back without pause. One shows a checkout's own latency; eight
 * saturate this two-core machine (portal, PostgreSQL and load generator share it), where the time
 * is mostly queueing. The budget is judged at four: about 60 checkouts a second, far beyond a
 * provider's busiest hour (a few hundred thousand screenings a year).
 */
const SESSIONS = [1, 4, 8];
const BUDGETED_SESSIONS = 4;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const BUDGET_P95_MS = 100;
const DEMO_LOGIN = 'anna.nowak@example.com';
const DEMO_PASSWORD = 'Mammo!2024demo';

type Session = { cookie: string; token: string };
type Pair = { screeningId: number; productId: number; documentId: string };

async function signIn(base: string): Promise<Session> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const anonymous = cookiesSetBy(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${base}/api/auth/portal/login`, {
    method: 'POST',
    headers: { cookie: anonymous, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({
      login: DEMO_LOGIN,
      password: createHash('sha256').update(DEMO_PASSWORD).digest('hex'),
      portalTerms: true,
      policyTerms: true,
    }),
  });
  if (!login.ok) throw new Error(`demo login failed: ${login.status}`);
  const body = (await login.json()) as { csrfToken: string };
  return { cookie: cookiesSetBy(login), token: body.csrfToken };
}

async function call<T>(base: string, session: Session, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { cookie: session.cookie, 'x-csrf-token': session.token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Every (screening, translation product) pair of the demo patient that has a description to translate. */
async function translationPairs(base: string, session: Session): Promise<Pair[]> {
  const products = (await call<Product[]>(base, session, 'GET', '/products')).body.filter((product) =>
    product.kind.startsWith('translation'),
  );
  const { items } = (await call<ScreeningListResponse>(base, session, 'GET', '/screenings')).body;
  return items.flatMap((item) => {
    const description = item.documents.find((document) => document.type === 'description');
    return description
      ? products.map((product) => ({ screeningId: item.screening.id, productId: product.id, documentId: description.id }))
      : [];
  });
}

/** One worker's loop; answers the measured checkout starts in milliseconds. */
async function checkoutLoop(base: string, session: Session, pair: Pair, until: number): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const order = await call<{ orderId: number; code?: string }>(base, session, 'POST', '/order', { ...pair, language: 'pl' });
    if (order.status !== 201) throw new Error(`order answered ${order.status} ${order.body.code ?? ''}`);
    const payment = await call<{ redirectUri: string }>(base, session, 'POST', '/payment', { orderId: order.body.orderId });
    if (payment.status !== 200 || !payment.body.redirectUri) throw new Error(`payment answered ${payment.status}`);
    times.push(performance.now() - started);
    await call(base, session, 'POST', `/order/${order.body.orderId}/cancel`);
  }
  return times;
}

/** Prints the figures per database and number of sessions; answers whether every budgeted p95 is within the budget. */
export async function benchCheckoutStart(databases: { label: string; url?: string }[]): Promise<boolean> {
  let port = 3460;
  let ok = true;
  for (const database of databases) {
    const child = await startPortal(++port, { DATABASE_URL: database.url, THROTTLE: 'off' });
    const base = `http://127.0.0.1:${port}`;
    try {
      const first = await signIn(base);
      // A pair with a demo order still open (the unpaid German translation) is left out.
      const pairs: Pair[] = [];
      for (const pair of await translationPairs(base, first)) {
        const probe = await call<{ orderId: number }>(base, first, 'POST', '/order', { ...pair, language: 'pl' });
        if (probe.status !== 201) continue;
        await call(base, first, 'POST', `/order/${probe.body.orderId}/cancel`);
        pairs.push(pair);
        if (pairs.length === Math.max(...SESSIONS)) break;
      }
      console.log(`\n## Checkout start (order + sandbox provider call), ${DURATION_S} s per line: ${database.label}`);
      for (const count of SESSIONS) {
        const used = pairs.slice(0, count);
        const sessions = await Promise.all(used.map(() => signIn(base)));
        const until = Date.now() + DURATION_S * 1000;
        const times = (await Promise.all(used.map((pair, index) => checkoutLoop(base, sessions[index]!, pair, until))))
          .flat()
          .sort((a, b) => a - b);
        const p95 = percentile(times, 0.95);
        const within = p95 < BUDGET_P95_MS;
        if (count === BUDGETED_SESSIONS) ok &&= within;
        const verdict = count === BUDGETED_SESSIONS ? `budget p95 < ${BUDGET_P95_MS} ms: ${within ? 'PASS' : 'FAIL'}` : 'not budgeted';
        console.log(
          `  ${String(used.length).padStart(2)} sessions  ${String(times.length).padStart(5)} checkouts, ${(times.length / DURATION_S).toFixed(0).padStart(3)}/s  ` +
            `p50 ${percentile(times, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  p99 ${percentile(times, 0.99).toFixed(1)} ms  (${verdict})`,
        );
      }
    } finally {
      await stopPortal(child);
    }
  }
  return ok;
}
