import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../tests/support/app';
import { createTestApiKey } from '../tests/support/provider';
import { servedRoutes, type ServedRoute } from '../tests/support/served-routes';
import { PROVIDER_API_PREFIX } from './provider/openapi';
import { PROVIDER_SCOPES } from './provider/scopes';

/**
 * Property: no input makes any JSON route answer 5xx (issue 16: bad input answered 500). Every
 * route the app serves, walked from its router, gets random path parameters (undecodable escapes,
 * U+0000, huge numbers), query strings and JSON bodies (fields the forms use, any JSON value),
 * as a signed-in patient and as a provider system with every scope. The seed is fixed so a
 * failure repeats; FUZZ_SEED and FUZZ_RUNS explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 12);

let app: TestApp;
let seed: MinimalSeed;
beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

/** Field names the portal's forms and the provider's calls use, so some bodies get past the first checks. */
const FIELDS = [
  'login',
  'password',
  'oldPassword',
  'newPassword',
  'email',
  'firstName',
  'lastName',
  'phoneNumber',
  'content',
  'consent',
  'language',
  'lang',
  'accessCode',
  'birthAt',
  'portalTerms',
  'policyTerms',
  'screeningId',
  'productId',
  'slotId',
  'quantity',
  'street',
  'city',
  'postalCode',
  'province',
  'rating',
  'answers',
  'description',
  'from',
  'to',
  'page',
  'types',
  'sopInstanceUids',
  'token',
  'pesel',
  'documentNumber',
  'orderId',
  'kind',
  'status',
  'externalId',
  'patientId',
  'title',
  'body',
  'date',
];

const encode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ff'; // a lone surrogate cannot be encoded: send an undecodable escape instead
  }
};

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\u202e', '💥', "'; DROP TABLE patients;--", '9'.repeat(400), '', ' ', '2024-02-30'),
);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(2 ** 53, -1, 0, 1e308));
const fieldValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), scalar, { maxKeys: 3 }));
const body = fc.oneof(fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 6 }), fc.jsonValue({ maxDepth: 3 }));
const segment = fc.oneof(
  fc.constantFrom('1', '0', '-1', '2147483648', '99999999999999999999', 'abc', '%ff', '%00', '%E0%A4%A', '%2e%2e', '1e3', '%20', 'null'),
  text.map(encode),
);
const query = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(text.map(encode), fc.constantFrom('%ff', '%00')), { maxKeys: 3 });

type Sender = (method: string, url: string, body: unknown) => Promise<number>;

const randomInput = fc.record({ params: fc.array(segment, { minLength: 4, maxLength: 4 }), query, body });

function urlOf(prefix: string, route: ServedRoute, params: string[], search: Record<string, string>): string {
  let index = 0;
  const path = route.path.replace(/:\w+/g, () => params[index++ % params.length]!);
  const queryString = Object.entries(search)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return `${prefix}${path}${queryString ? `?${queryString}` : ''}`;
}

async function expectNo5xx(prefix: string, routes: ServedRoute[], send: Sender): Promise<void> {
  const failures: string[] = [];
  for (const route of routes) {
    await fc
      .assert(
        fc.asyncProperty(randomInput, async ({ params, query: search, body: payload }) => {
          const url = urlOf(prefix, route, params, search);
          const status = await send(route.method.toUpperCase(), url, route.method === 'get' ? undefined : payload);
          if (status >= 500) failures.push(`${route.method.toUpperCase()} ${url} ${JSON.stringify(payload)} -> ${status}`);
          return status < 500;
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      )
      .catch(() => undefined); // collected in `failures`, so one report names every route that failed
  }
  expect(failures).toEqual([]);
}

it('answers no patient API call with 5xx, whatever its path, query and body', async () => {
  const signIn = seededSignIns(app, seed).patient;
  let patient: TestClient = await signIn();
  const routes = servedRoutes(app.express, '/api');
  expect(routes.length).toBeGreaterThan(50);
  await expectNo5xx('/api', routes, async (method, url, payload) => {
    const response = await patient.request(method, url, payload === undefined ? {} : { rawBody: JSON.stringify(payload) });
    // A call that ended her session (a sign-out) is answered; the next ones need her signed in again.
    if (response.status === 401) patient = await signIn();
    return response.status;
  });
});

it('answers no provider API call with 5xx, whatever its path, query and body', async () => {
  const { key } = await createTestApiKey(app, PROVIDER_SCOPES, { rateLimitPerMinute: 1_000_000 });
  const routes = servedRoutes(app.express, PROVIDER_API_PREFIX);
  expect(routes.length).toBeGreaterThan(10);
  await expectNo5xx(PROVIDER_API_PREFIX, routes, async (method, url, payload) => {
    const response = await fetch(`${app.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    await response.arrayBuffer();
    return response.status;
  });
});

it('logs no unhandled error meanwhile', () => {
  const errors = app.logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
  expect(errors.map((line) => line.msg)).toEqual([]);
});
