import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditType } from '../../common/audit';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { insertAccount, insertPerson } from '../../tests/support/seed-minimal';

let app: TestApp;
let seed: MinimalSeed;
/** A patient whose log holds only what these tests put there (and her logins). */
const beata = { login: 'beata.audyt@example.com', password: 'Audyt!Haslo1', userId: 0 };

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  const personId = await insertPerson(app.db, { firstName: 'Beata', lastName: 'Audytowa', birthAt: '1972-02-03' });
  beata.userId = await insertAccount(app.db, personId, { email: beata.login, password: beata.password });
});
afterAll(() => app?.close());

type Owner = { userId: number } | { screeningId: number; userId?: number };

/** Entries at chosen moments: the writer always stamps now(), and the filters are about time. */
async function insertEntries(owner: Owner, entries: { at: string; type: AuditType; ip?: string | null; description?: string }[]) {
  await app.db('audit_entries').insert(
    entries.map((entry) => ({
      created_at: entry.at,
      type: entry.type,
      ip: entry.ip === undefined ? '192.0.2.10' : entry.ip,
      description: entry.description ?? null,
      user_id: owner.userId ?? null,
      screening_id: 'screeningId' in owner ? owner.screeningId : null,
    })),
  );
}

async function signedInAs(account: { login: string; password: string }, ip = '198.51.100.7'): Promise<TestClient> {
  const client = app.client();
  expect((await client.loginPortal(account.login, account.password, { 'x-forwarded-for': ip })).status).toBe(200);
  return client;
}

async function signedInGuest(): Promise<TestClient> {
  const client = app.client();
  expect((await client.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
  return client;
}

/** Beata's own entries of March 2024 and around it, for the filter tests (Warsaw is UTC+1 then). */
const MARCH = [
  { at: '2024-03-09T22:59:59Z', type: 'SCREENING', description: 'before the range' }, // 9 March, 23:59:59 in Warsaw
  { at: '2024-03-09T23:00:00Z', type: 'SCREENING_UNAUTHORIZED', description: 'screening 77' }, // 10 March, 00:00
  { at: '2024-03-12T10:00:00Z', type: 'ISO_GENERATE', description: 'Disc_Image 100%' },
  { at: '2024-03-13T10:00:00Z', type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '203.0.113.99', description: 'wrong_password' },
  { at: '2024-03-15T22:59:59Z', type: 'RESULT', description: 'Disc image 100 times' }, // 15 March, 23:59:59
  { at: '2024-03-15T23:00:00Z', type: 'REFFERENCE', description: 'after the range' }, // 16 March, 00:00
] satisfies { at: string; type: AuditType; ip?: string; description?: string }[];

describe('GET /api/audit filters', () => {
  let client: TestClient;
  beforeAll(async () => {
    await insertEntries({ userId: beata.userId }, MARCH);
    client = await signedInAs(beata);
  });

  async function descriptions(query: string): Promise<string[]> {
    const response = await client.get(`/api/audit?${query}`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.items.length);
    return response.body.items.map((item: { description: string | null }) => item.description);
  }

  it('takes from and to as days in Warsaw, the end exclusive (the browser sends the chosen end plus one day)', async () => {
    expect(await descriptions('from=2024-03-10&to=2024-03-16')).toEqual([
      'Disc image 100 times',
      'wrong_password',
      'Disc_Image 100%',
      'screening 77',
    ]);
    expect(await descriptions('from=2024-03-16')).toEqual(expect.arrayContaining(['after the range']));
    expect(await descriptions('to=2024-03-10')).toEqual(['before the range']);
  });

  it('matches type groups joined with a percent sign, raw or encoded, each group with its refusals', async () => {
    const screeningAndLogin = ['wrong_password', 'screening 77', 'before the range'];
    expect(await descriptions('to=2024-04-01&types=SCREENING%LOGIN_PORTAL')).toEqual(screeningAndLogin);
    expect(await descriptions('to=2024-04-01&types=SCREENING%25LOGIN_PORTAL')).toEqual(screeningAndLogin);
    expect(await descriptions('to=2024-04-01&types=ISO_GENERATE')).toEqual(['Disc_Image 100%']);
    expect(await descriptions('to=2024-04-01&types=ISO')).toEqual([]);
  });

  it('finds the description text in the IP address, never in the stored note the page does not show', async () => {
    expect(await descriptions('description=203.0.113')).toEqual(['wrong_password']);
    expect(await descriptions('description=disc%20IMAGE')).toEqual([]);
    expect(await descriptions('description=wrong_password')).toEqual([]);
  });

  it('combines the filters', async () => {
    expect(await descriptions('from=2024-03-10&to=2024-03-16&types=RESULT%ISO_GENERATE%LOGIN_PORTAL&description=203.0')).toEqual([
      'wrong_password',
    ]);
    expect(await descriptions('from=2024-03-10&to=2024-03-16&types=SCREENING&description=203.0')).toEqual([]);
  });

  it('answers each item as createdAt (UTC), type, ip and description', async () => {
    const response = await client.get('/api/audit?from=2024-03-13&to=2024-03-14');
    expect(response.body).toEqual({
      items: [
        { createdAt: '2024-03-13T10:00:00.000Z', type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '203.0.113.99', description: 'wrong_password' },
      ],
      total: 1,
    });
  });
});

describe('GET /api/audit description filter', () => {
  let client: TestClient;
  beforeAll(async () => {
    const personId = await insertPerson(app.db, { firstName: 'Dorota', lastName: 'Opisowa', birthAt: '1975-05-05' });
    const dorota = { login: 'dorota.opis@example.com', password: 'Opis!Haslo1' };
    const userId = await insertAccount(app.db, personId, { email: dorota.login, password: dorota.password });
    await insertEntries({ userId }, [
      { at: '2022-01-01T10:00:00Z', type: 'DICOM_UPLOAD', ip: '192.0.2.10', description: 'dicom with address' },
      { at: '2022-01-01T09:00:00Z', type: 'DICOM_UPLOAD', ip: null, description: 'dicom without address' },
      { at: '2022-01-01T08:00:00Z', type: 'LOGIN_PORTAL', ip: '10.1.2.3', description: 'login' },
      { at: '2022-01-01T07:00:00Z', type: 'RESULT', ip: '2001:db8::7', description: 'result v6' },
      { at: '2022-01-01T06:00:00Z', type: 'RESULT', ip: '192.0.2.99', description: 'result v4' },
    ]);
    client = await signedInAs(dorota, '198.51.100.40');
  });

  async function found(match: unknown, more = ''): Promise<string[]> {
    const query = new URLSearchParams({ to: '2022-01-02', descriptionMatch: JSON.stringify(match) });
    const response = await client.get(`/api/audit?${query.toString()}${more}`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(response.body.items.length);
    return response.body.items.map((item: { description: string | null }) => item.description);
  }

  it("matches the browser's clauses on the type and the IP address", async () => {
    expect(await found([{ types: ['DICOM_UPLOAD'] }])).toEqual(['dicom with address', 'dicom without address']);
    expect(await found([{ types: ['DICOM_UPLOAD'], ip: 'present' }])).toEqual(['dicom with address']);
    expect(await found([{ types: ['DICOM_UPLOAD'], ip: 'absent' }])).toEqual(['dicom without address']);
    expect(await found([{ ip: { startsWith: '192.0.2.' } }])).toEqual(['dicom with address', 'result v4']);
    expect(await found([{ ip: { startsWith: '2001:DB8' } }])).toEqual(['result v6']);
    expect(await found([{ types: ['RESULT', 'LOGIN_PORTAL'], ip: { endsWith: '.3' } }])).toEqual(['login']);
    expect(await found([{ ip: { equals: '10.1.2.3' } }])).toEqual(['login']);
    expect(await found([{ ip: { equals: '10.1.2' } }])).toEqual([]);
  });

  it('finds an entry that meets any clause or holds the text in its IP address', async () => {
    expect(await found([{ types: ['LOGIN_PORTAL'] }, { ip: { endsWith: '::7' } }])).toEqual(['login', 'result v6']);
    expect(await found([{ types: ['DICOM_UPLOAD'], ip: 'absent' }], '&description=2.99')).toEqual(['dicom without address', 'result v4']);
    // A clause of no conditions: the text is in the name of every type.
    expect(await found([{}])).toHaveLength(5);
    expect(await found([{}], '&types=RESULT')).toEqual(['result v6', 'result v4']);
  });

  it('takes % and _ in the parts of an address as themselves', async () => {
    expect(await found([{ ip: { startsWith: '192%' } }])).toEqual([]);
    expect(await found([{ ip: { startsWith: '192_0' } }])).toEqual([]);
    expect(await found([], '&description=192_0')).toEqual([]);
  });

  it.each([
    ['not json', 'not json'],
    ['an object', '{"types":["RESULT"]}'],
    ['an unknown type', '[{"types":["NOPE"]}]'],
    ['an empty type list', '[{"types":[]}]'],
    ['an unknown condition', '[{"ip":{"contains":"1"}}]'],
    ['an unknown field', '[{"type":"RESULT"}]'],
    ['an empty part of an address', '[{"ip":{"equals":""}}]'],
  ])('refuses %s as descriptionMatch', async (_, match) => {
    const response = await client.get(`/api/audit?descriptionMatch=${encodeURIComponent(match)}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'VALIDATION',
      issues: [{ path: 'descriptionMatch', message: 'validation.audit.description.invalid' }],
    });
  });
});

describe('GET /api/audit paging', () => {
  it('answers pages of 10 from page 1, newest first, with the total of all matches', async () => {
    const personId = await insertPerson(app.db, { firstName: 'Celina', lastName: 'Stronicowa', birthAt: '1980-01-01' });
    const celina = { login: 'celina@example.com', password: 'Strony!Haslo1' };
    const userId = await insertAccount(app.db, personId, { email: celina.login, password: celina.password });
    const hours = Array.from({ length: 23 }, (_, hour) => hour);
    await insertEntries(
      { userId },
      hours.map((hour) => ({ at: `2024-01-01T${String(hour).padStart(2, '0')}:00:00Z`, type: 'SCREENING', description: `hour ${hour}` })),
    );
    const client = await signedInAs(celina, '198.51.100.23');

    const first = await client.get('/api/audit');
    expect(first.body.total).toBe(24);
    expect(first.body.items).toHaveLength(10);
    // Her login just now is the newest entry.
    expect(first.body.items[0]).toMatchObject({ type: 'LOGIN_PORTAL', ip: '198.51.100.23', description: null });
    expect(first.body.items.slice(1).map((item: { description: string }) => item.description)).toEqual(
      [22, 21, 20, 19, 18, 17, 16, 15, 14].map((hour) => `hour ${hour}`),
    );

    const second = await client.get('/api/audit?page=2');
    expect(second.body.total).toBe(24);
    expect(second.body.items.map((item: { description: string }) => item.description)).toEqual(
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((hour) => `hour ${hour}`),
    );
    expect((await client.get('/api/audit?page=3')).body.items).toHaveLength(4);
    expect(await client.get('/api/audit?page=4')).toMatchObject({ status: 200, body: { items: [], total: 24 } });
  });
});

describe("GET /api/audit shows only the caller's own entries", () => {
  it("a patient never sees another patient's entries", async () => {
    await insertEntries({ userId: seed.patient.userId }, [{ at: '2023-05-05T10:00:00Z', type: 'RESULT', description: 'anna only' }]);
    await insertEntries({ userId: beata.userId }, [{ at: '2023-05-05T11:00:00Z', type: 'RESULT', description: 'beata only' }]);
    const anna = await signedInAs(seed.patient);
    const beataClient = await signedInAs(beata);

    const annaSees = (await anna.get('/api/audit?from=2023-05-05&to=2023-05-06')).body;
    const beataSees = (await beataClient.get('/api/audit?from=2023-05-05&to=2023-05-06')).body;
    expect(annaSees).toEqual({ items: [expect.objectContaining({ description: 'anna only' })], total: 1 });
    expect(beataSees).toEqual({ items: [expect.objectContaining({ description: 'beata only' })], total: 1 });
  });

  it("a guest sees the entries of her screening written without an account, and no one else's", async () => {
    await insertEntries({ screeningId: seed.guest.screeningId }, [
      { at: '2023-06-01T08:00:00Z', type: 'RESULT', description: 'guest read' },
    ]);
    // Written for a patient account that opened the same screening: that patient's log, not the guest's.
    await insertEntries({ screeningId: seed.guest.screeningId, userId: seed.patient.userId }, [
      { at: '2023-06-01T09:00:00Z', type: 'RESULT', description: 'patient read' },
    ]);
    await insertEntries({ screeningId: seed.patient.latestScreeningId }, [
      { at: '2023-06-01T10:00:00Z', type: 'RESULT', description: 'other screening' },
    ]);
    const guest = await signedInGuest();

    const response = await guest.get('/api/audit?types=RESULT%LOGIN_RESULT');
    expect(response.body.items.map((item: { type: string; description: string | null }) => [item.type, item.description])).toEqual([
      ['LOGIN_RESULT', null],
      ['RESULT', 'guest read'],
    ]);
    expect(response.body.total).toBe(2);
  });

  it('answers 401 without a signed-in session and 403 to a patient who must change her password', async () => {
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    expect(await anonymous.get('/api/audit')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    expect(await anonymous.post('/api/audit/browser', browser)).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });

    const ewa = await signedInAs(seed.mustChange);
    expect(await ewa.get('/api/audit')).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
  });
});

describe('GET /api/audit validation', () => {
  it.each([
    ['page=0', 'page', 'validation.audit.page.invalid'],
    ['page=abc', 'page', 'validation.audit.page.invalid'],
    ['page=1.5', 'page', 'validation.audit.page.invalid'],
    ['from=2024-02-30', 'from', 'validation.audit.date.invalid'],
    ['to=2024/03/01', 'to', 'validation.audit.date.invalid'],
    ['from=yesterday', 'from', 'validation.audit.date.invalid'],
    ['from=2024-03-10&to=2024-03-10', 'to', 'validation.audit.range.invalid'],
    ['from=2024-03-11&to=2024-03-10', 'to', 'validation.audit.range.invalid'],
    ['types=SCREENING%NOPE', 'types', 'validation.audit.types.invalid'],
    ['types=screening', 'types', 'validation.audit.types.invalid'],
    ['page=1&page=2', 'page', 'validation.audit.page.invalid'],
    [`description=${'x'.repeat(101)}`, 'description', 'validation.audit.description.invalid'],
  ])('refuses %s', async (query, path, message) => {
    const client = await signedInAs(beata);
    const response = await client.get(`/api/audit?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path, message }] });
  });

  it('reads empty parameters as no filter', async () => {
    const client = await signedInAs(beata);
    const response = await client.get('/api/audit?page=&from=&to=&types=&description=');
    expect(response.status).toBe(200);
    expect(response.body.total).toBeGreaterThan(0);
  });
});

const browser = { browserName: 'Chrome', browserVersion: '126', os: 'Windows', resolutionX: 1920, resolutionY: 1080 };

describe('POST /api/audit/browser', () => {
  function browserRows() {
    return app
      .db('browser_details')
      .orderBy('id')
      .select('user_id', 'screening_id', 'browser_name', 'browser_version', 'os', 'resolution_x', 'resolution_y');
  }

  it('records the browser once per session, for the patient and again after her next login', async () => {
    const before = (await browserRows()).length;
    const client = await signedInAs(beata);
    expect((await client.post('/api/audit/browser', browser)).status).toBe(204);
    expect((await client.post('/api/audit/browser', { ...browser, browserName: 'Firefox' })).status).toBe(204);

    const rows = await browserRows();
    expect(rows.slice(before)).toEqual([
      {
        user_id: beata.userId,
        screening_id: null,
        browser_name: 'Chrome',
        browser_version: '126',
        os: 'Windows',
        resolution_x: 1920,
        resolution_y: 1080,
      },
    ]);

    await client.logout();
    await client.loginPortal(beata.login, beata.password);
    expect((await client.post('/api/audit/browser', browser)).status).toBe(204);
    expect((await browserRows()).length).toBe(before + 2);
  });

  it("records a guest's browser against her screening", async () => {
    const guest = await signedInGuest();
    expect(
      (await guest.post('/api/audit/browser', { ...browser, browserVersion: '', os: 'Android', resolutionX: 412, resolutionY: 915 }))
        .status,
    ).toBe(204);
    const rows = await browserRows();
    expect(rows.at(-1)).toMatchObject({ user_id: null, screening_id: seed.guest.screeningId, os: 'Android', browser_version: '' });
  });

  it('refuses details that are not browser details', async () => {
    const client = await signedInAs(beata);
    const response = await client.post('/api/audit/browser', { ...browser, resolutionX: -1, os: 42 });
    expect(response.status).toBe(400);
    expect(response.body.issues).toEqual([
      { path: 'os', message: 'validation.audit.browser.invalid' },
      { path: 'resolutionX', message: 'validation.audit.browser.invalid' },
    ]);
  });
});

describe('the audit table', () => {
  it('refuses to change or delete an entry', async () => {
    await expect(app.db('audit_entries').update({ description: 'rewritten' }).where({ user_id: beata.userId })).rejects.toThrow(
      /append-only/,
    );
    await expect(app.db('audit_entries').delete().where({ user_id: beata.userId })).rejects.toThrow(/append-only/);
  });
});
