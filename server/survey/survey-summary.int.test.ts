import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { providerClient, type ProviderClient } from '../../tests/support/provider';

/**
 * The provider's survey report (DECISIONS.md 16): totals per question over a period, checked
 * against the OpenAPI document by the provider client; never a patient's answers.
 */
let app: TestApp;
let seed: MinimalSeed;
let reports: ProviderClient;

type Answers = {
  screeningAccess: number;
  qualityOfService: number;
  informationAccess: number;
  patientComfort: number;
  staffBehaviour: number;
  painMeasure: number;
  longTermPain: boolean;
  longTermPainLevel: number | null;
};

const base: Answers = {
  screeningAccess: 5,
  qualityOfService: 4,
  informationAccess: 4,
  patientComfort: 3,
  staffBehaviour: 5,
  painMeasure: 2,
  longTermPain: false,
  longTermPainLevel: null,
};

/** An answers row of a day, as an anonymous one stored before DECISIONS.md 16 (no screening). */
function anonymousRow(day: string, answers: Answers) {
  return {
    screening_access: answers.screeningAccess,
    quality_of_service: answers.qualityOfService,
    information_access: answers.informationAccess,
    patient_comfort: answers.patientComfort,
    staff_behaviour: answers.staffBehaviour,
    pain_measure: answers.painMeasure,
    long_term_pain: answers.longTermPain,
    long_term_pain_level: answers.longTermPainLevel,
    submitted_on: day,
  };
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  reports = await providerClient(app, ['surveys:read']);
  // March 2026: six surveys, two of them with lasting pain. April: two surveys.
  await app
    .db('survey_responses')
    .insert([
      anonymousRow('2026-03-01', base),
      anonymousRow('2026-03-02', { ...base, screeningAccess: 4 }),
      anonymousRow('2026-03-10', { ...base, screeningAccess: 3, longTermPain: true, longTermPainLevel: 2 }),
      anonymousRow('2026-03-15', { ...base, screeningAccess: 5, painMeasure: 4 }),
      anonymousRow('2026-03-31', { ...base, screeningAccess: 1, longTermPain: true, longTermPainLevel: 4 }),
      anonymousRow('2026-04-01', base),
      anonymousRow('2026-04-02', { ...base, staffBehaviour: 1 }),
    ]);
});
afterAll(() => app?.close());

describe('GET /survey-summary', () => {
  it('needs the surveys:read scope', async () => {
    const other = await providerClient(app, ['orders:read']);
    expect(await other.get('/survey-summary')).toMatchObject({
      status: 403,
      body: { code: 'API_KEY_SCOPE', requiredScope: 'surveys:read' },
    });
  });

  it('counts the answers of a period per question, with a survey sent through the portal, and names no one', async () => {
    // A sixth March survey, sent by the patient today (the test clock's day is not in March 2026).
    const patient = await seededSignIns(app, seed).patient();
    expect((await patient.post(`/api/screening/survey?id=${seed.patient.latestScreeningId}`, base)).status).toBe(201);
    await app.db('survey_responses').where({ screening_id: seed.patient.latestScreeningId }).update({ submitted_on: '2026-03-20' });

    const march = await reports.get('/survey-summary?from=2026-03-01&to=2026-03-31');
    expect(march.status).toBe(200);
    expect(march.headers.get('cache-control')).toBe('no-store');
    expect(march.body).toMatchObject({
      period: { from: '2026-03-01', to: '2026-03-31' },
      responses: 6,
      minimumAnswers: 5,
      longTermPain: { answered: 6, yes: 2, no: 4 },
    });
    expect(march.body.ratings.screeningAccess).toEqual({ answered: 6, average: 3.83, counts: { 1: 1, 2: 0, 3: 1, 4: 1, 5: 3 } });
    expect(march.body.ratings.painMeasure).toEqual({ answered: 6, average: 2.33, counts: { 1: 0, 2: 5, 3: 0, 4: 1, 5: 0 } });
    // Two answered question 8: too few to show.
    expect(march.body.ratings.longTermPainLevel).toEqual({ answered: 2, average: null, counts: null });
    // Aggregates only: no rows, no ids, no days of single surveys.
    expect(Object.keys(march.body).sort()).toEqual(['longTermPain', 'minimumAnswers', 'period', 'ratings', 'responses']);
    expect(march.text).not.toMatch(/screening_?id|submitted|"id"/i);

    const open = await reports.get('/survey-summary');
    expect(open.body).toMatchObject({ period: { from: null, to: null }, responses: 8 });
    expect((await reports.get('/survey-summary?from=2026-03-31')).body.responses).toBe(3);
    expect((await reports.get('/survey-summary?to=2026-03-01')).body.responses).toBe(1);
  });

  it('withholds every figure over fewer answers than the minimum, so one survey cannot be read back', async () => {
    const april = await reports.get('/survey-summary?from=2026-04-01&to=2026-04-30');
    expect(april.body).toMatchObject({ responses: 2, longTermPain: { answered: 2, yes: null, no: null } });
    expect(april.body.ratings.staffBehaviour).toEqual({ answered: 2, average: null, counts: null });
    const oneDay = await reports.get('/survey-summary?from=2026-03-10&to=2026-03-10');
    expect(oneDay.body).toMatchObject({ responses: 1, ratings: { screeningAccess: { answered: 1, average: null, counts: null } } });
    const none = await reports.get('/survey-summary?from=2030-01-01&to=2030-01-31');
    expect(none.body).toMatchObject({ responses: 0, ratings: { painMeasure: { answered: 0, average: null, counts: null } } });
  });

  it('refuses a day that is not a calendar date, and a period that ends before it starts', async () => {
    expect(await reports.get('/survey-summary?from=2026-02-30')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', issues: [{ path: 'from' }] },
    });
    expect(await reports.get('/survey-summary?from=03/01/2026')).toMatchObject({ status: 400 });
    expect(await reports.get('/survey-summary?from=2026-04-01&to=2026-03-01')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', issues: [{ path: 'to', message: 'from must not be after to.' }] },
    });
  });

  it('is in the OpenAPI document with its scope', async () => {
    const document = (await reports.openApiDocument()) as unknown as {
      paths: Record<string, { get?: { security: unknown; parameters: Array<{ name: string }> } }>;
    };
    const operation = document.paths['/survey-summary']?.get;
    expect(operation?.security).toEqual([{ apiKey: ['surveys:read'] }]);
    expect(operation?.parameters.map((parameter) => parameter.name)).toEqual(['from', 'to']);
  });
});
