import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type SignIn } from '../../tests/support/app';
import { signedInPatient } from '../../tests/support/orders';
import { addressSource, auditEntries } from '../../tests/support/ownership';

let app: TestApp;
let seed: MinimalSeed;
let patientClient: SignIn;
let guestClient: SignIn;
const nextAddress = addressSource('192.0.2');

const answers = {
  screeningAccess: 5,
  qualityOfService: 4,
  informationAccess: 3,
  patientComfort: 2,
  staffBehaviour: 1,
  painMeasure: 2,
  longTermPain: true,
  longTermPainLevel: 3,
};

/** The answers as the columns of survey_responses hold them. */
const storedColumns = (given: typeof answers) => ({
  screening_access: given.screeningAccess,
  quality_of_service: given.qualityOfService,
  information_access: given.informationAccess,
  patient_comfort: given.patientComfort,
  staff_behaviour: given.staffBehaviour,
  pain_measure: given.painMeasure,
  long_term_pain: given.longTermPain,
  long_term_pain_level: given.longTermPainLevel,
});

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  ({ patient: patientClient, guest: guestClient } = seededSignIns(app, seed));
});
afterAll(() => app?.close());

describe('the survey of a guest', () => {
  it('is new (204), then sent (201), then shown read-only with its date (200), and refused a second time (409)', async () => {
    const client = await guestClient();
    const fresh = await client.get('/api/screening/survey');
    expect(fresh.status).toBe(204);
    expect(fresh.text).toBe('');

    const sentAt = Date.now();
    expect(await client.post('/api/screening/survey', answers)).toMatchObject({ status: 201 });

    const view = await client.get(`/api/screening/survey?id=${seed.guest.screeningId}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(view.body).sort()).toEqual(['answers', 'submittedAt']);
    expect(view.body.answers).toEqual(answers);
    expect(Math.abs(Date.parse(view.body.submittedAt) - sentAt)).toBeLessThan(60_000);
    // Her own session, with or without the id of her screening.
    expect((await client.get('/api/screening/survey')).body.answers).toEqual(answers);

    expect(await client.post('/api/screening/survey', { ...answers, screeningAccess: 1 })).toMatchObject({
      status: 409,
      body: { code: 'SURVEY_ALREADY_SUBMITTED' },
    });
    expect(await app.db('survey_responses').where({ screening_access: 1, quality_of_service: 4 })).toHaveLength(0);
  });

  it('is refused for another screening or an unknown one, with SCREENING_UNAUTHORIZED in her log', async () => {
    const { ip, headers } = nextAddress();
    const client = await guestClient(headers);
    for (const id of [seed.patient.latestScreeningId, 999999]) {
      expect(await client.get(`/api/screening/survey?id=${id}`, { headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      expect(await client.post(`/api/screening/survey?id=${id}`, answers, { headers })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    const refusal = (id: number) => ({ user_id: null, screening_id: seed.guest.screeningId, description: `screening ${id}` });
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toEqual([
      refusal(seed.patient.latestScreeningId),
      refusal(seed.patient.latestScreeningId),
      refusal(999999),
      refusal(999999),
    ]);
    const latest = await app.db('screenings').where('id', seed.patient.latestScreeningId).first('survey_submitted_at');
    expect(latest.survey_submitted_at).toBeNull();
  });
});

describe('the survey of a patient', () => {
  it('belongs to the screening named by id, and her answers are kept with it and shown to her (DECISIONS.md 16)', async () => {
    const client = await patientClient();
    const id = seed.patient.olderScreeningId;
    expect((await client.get(`/api/screening/survey?id=${id}`)).status).toBe(204);
    const painless = { ...answers, longTermPain: false, longTermPainLevel: null, screeningAccess: 3, qualityOfService: 3 };
    expect((await client.post(`/api/screening/survey?id=${id}`, painless)).status).toBe(201);
    const view = await client.get(`/api/screening/survey?id=${id}`);
    expect(view).toMatchObject({ status: 200, body: { answers: painless } });
    // Her other screening keeps its own, unsent survey.
    expect((await client.get(`/api/screening/survey?id=${seed.patient.latestScreeningId}`)).status).toBe(204);

    const stored = await app.db('survey_responses').where({ screening_id: id });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      screening_access: 3,
      quality_of_service: 3,
      long_term_pain: false,
      long_term_pain_level: null,
      pain_measure: 2,
      submitted_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('is not shown to another patient: 404 as for any screening not hers, with SCREENING_UNAUTHORIZED in her log', async () => {
    const id = seed.patient.olderScreeningId;
    const owner = await patientClient();
    expect((await owner.get(`/api/screening/survey?id=${id}`)).body.answers).toMatchObject({ screeningAccess: 3 });

    const { ip, headers } = nextAddress();
    const other = await signedInPatient(app, 'Barbara');
    const refused = await other.client.get(`/api/screening/survey?id=${id}`, { headers });
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(refused.text).not.toContain('screeningAccess');
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toEqual([
      { user_id: other.userId, screening_id: null, description: `screening ${id}` },
    ]);
    // Nor to the guest of another screening.
    const guest = await guestClient();
    expect(await guest.get(`/api/screening/survey?id=${id}`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('sent while answers were stored anonymously (DECISIONS.md 10), shows as sent with no answers', async () => {
    const client = await patientClient();
    const [{ id }] = await app
      .db('screenings')
      .insert({
        personal_data_id: seed.patient.personalDataId,
        access_code_hash: Buffer.alloc(32, 9),
        examined_at: '2019-02-01T10:00:00Z',
        survey_submitted_at: '2019-02-03T10:00:00Z',
      })
      .returning('id');
    await app.db('survey_responses').insert({ ...storedColumns(answers), submitted_on: '2019-02-03' });
    expect(await client.get(`/api/screening/survey?id=${id}`)).toMatchObject({
      status: 200,
      body: { submittedAt: '2019-02-03T10:00:00.000Z', answers: null },
    });
  });

  it('needs the screening id, and refuses foreign and unknown ones with SCREENING_UNAUTHORIZED in her log', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    expect((await client.get('/api/screening/survey', { headers })).status).toBe(404);
    expect((await client.post('/api/screening/survey', answers, { headers })).status).toBe(404);
    for (const id of [seed.guest.screeningId, 999999]) {
      expect(await client.get(`/api/screening/survey?id=${id}`, { headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      // A foreign screening is refused before the answers are read.
      expect(await client.post(`/api/screening/survey?id=${id}`, {}, { headers })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toHaveLength(4);
    expect((await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip))[0]).toEqual({
      user_id: seed.patient.userId,
      screening_id: null,
      description: `screening ${seed.guest.screeningId}`,
    });
  });
});

it('takes one of two simultaneous submits and refuses the other', async () => {
  const client = await patientClient();
  const [{ id }] = await app
    .db('screenings')
    .insert({ personal_data_id: seed.patient.personalDataId, access_code_hash: Buffer.alloc(32, 7), examined_at: '2025-02-01T10:00:00Z' })
    .returning('id');
  const before = await app.db('survey_responses').count({ n: '*' }).first();
  const responses = await Promise.all([0, 1].map(() => client.post(`/api/screening/survey?id=${id}`, answers)));
  expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
  const after = await app.db('survey_responses').count({ n: '*' }).first();
  expect(Number(after?.n) - Number(before?.n)).toBe(1);
});

describe('validation of the answers', () => {
  const post = async (body: unknown) => {
    const client = await patientClient();
    return client.post(`/api/screening/survey?id=${seed.patient.latestScreeningId}`, body);
  };

  it('requires the lasting pain level after a yes (question 8), and refuses it after a no', async () => {
    const level = (message: string) => [{ path: 'longTermPainLevel', message }];
    expect(await post({ ...answers, longTermPainLevel: null })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', issues: level('validation.survey.longTermPainLevel.required') },
    });
    expect((await post({ ...answers, longTermPainLevel: undefined })).body.issues).toEqual(
      level('validation.survey.longTermPainLevel.required'),
    );
    expect((await post({ ...answers, longTermPain: false, longTermPainLevel: 3 })).body.issues).toEqual(
      level('validation.survey.longTermPainLevel.notAsked'),
    );
  });

  it('always asks the pain of the examination itself (question 6)', async () => {
    expect((await post({ ...answers, painMeasure: null })).body.issues).toEqual([
      { path: 'painMeasure', message: 'validation.survey.rating.invalid' },
    ]);
  });

  it('takes only whole ratings from 1 to 5 and a yes/no gate', async () => {
    const invalid = (path: string) => [{ path, message: 'validation.survey.rating.invalid' }];
    expect((await post({ ...answers, screeningAccess: 0 })).body.issues).toEqual(invalid('screeningAccess'));
    expect((await post({ ...answers, staffBehaviour: 6 })).body.issues).toEqual(invalid('staffBehaviour'));
    expect((await post({ ...answers, patientComfort: 2.5 })).body.issues).toEqual(invalid('patientComfort'));
    expect((await post({ ...answers, informationAccess: '3' })).body.issues).toEqual(invalid('informationAccess'));
    expect((await post({ ...answers, painMeasure: 6 })).body.issues).toEqual(invalid('painMeasure'));
    expect((await post({ ...answers, longTermPainLevel: 0 })).body.issues).toEqual(invalid('longTermPainLevel'));
    expect((await post({ ...answers, longTermPain: 'yes' })).body.issues).toEqual([
      { path: 'longTermPain', message: 'validation.survey.longTermPain.required' },
    ]);
    const { qualityOfService: _omitted, ...missing } = answers;
    expect((await post(missing)).body.issues).toEqual(invalid('qualityOfService'));
    expect((await post(null)).status).toBe(400);
    // Nothing was stored by any refused answer.
    const latest = await app.db('screenings').where('id', seed.patient.latestScreeningId).first('survey_submitted_at');
    expect(latest.survey_submitted_at).toBeNull();
  });
});

it('needs a session and the CSRF token', async () => {
  const anonymous = app.client();
  await anonymous.fetchCsrf();
  expect((await anonymous.get('/api/screening/survey')).status).toBe(401);
  const guest = await guestClient();
  expect((await guest.post('/api/screening/survey', answers, { withoutCsrf: true })).status).toBe(403);
});
