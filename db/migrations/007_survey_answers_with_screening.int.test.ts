import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { findSurvey, storeSurvey, surveyTotals } from '../../server/survey/repo';
import { databaseBefore, type MigrationDatabase } from '../../tests/support/migration-database';

/**
 * Migration 007 on a database that already has data: a portal migrated up to 006 holds anonymous
 * survey answers (DECISIONS.md 10) and a screening whose survey was sent. After 007 the old rows
 * stay, unlinked; new answers are kept with their screening; rolling back and forth works. Runs on
 * PGlite and, with DATABASE_URL, on PostgreSQL.
 */
let migration: MigrationDatabase;
let db: Db;

const BEFORE_007 = '006_provider_integration';

const oldAnswers = {
  screening_access: 4,
  quality_of_service: 5,
  information_access: 3,
  patient_comfort: 4,
  staff_behaviour: 5,
  pain_measure: 2,
  long_term_pain: true,
  long_term_pain_level: 3,
  submitted_on: '2025-11-04',
};

const answers = {
  screeningAccess: 2,
  qualityOfService: 3,
  informationAccess: 4,
  patientComfort: 5,
  staffBehaviour: 1,
  painMeasure: 1,
  longTermPain: false,
  longTermPainLevel: null,
};

async function surveyColumns() {
  const columns = await db('information_schema.columns')
    .where({ table_schema: migration.schema, table_name: 'survey_responses' })
    .pluck<string[]>('column_name');
  return columns.sort();
}

let personId: number;
let sentScreeningId: number;
let newScreeningId: number;

async function insertScreening(examinedAt: string, surveySubmittedAt: string | null): Promise<number> {
  const [row] = await db('screenings')
    .insert({
      personal_data_id: personId,
      access_code_hash: randomBytes(32),
      examined_at: examinedAt,
      survey_submitted_at: surveySubmittedAt,
    })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

beforeAll(async () => {
  // The portal as it was before 007, with data.
  migration = await databaseBefore('007_survey_answers_with_screening');
  db = migration.db;
  expect(await migration.completed()).toContain(BEFORE_007);
  const [person] = await db('personal_data')
    .insert({ first_name: 'Halina', last_name: 'Dawna', birth_at: '1961-02-03' })
    .returning<{ id: number }[]>('id');
  personId = person!.id;
  sentScreeningId = await insertScreening('2025-11-01T09:00:00Z', '2025-11-04T10:00:00Z');
  newScreeningId = await insertScreening('2025-12-01T09:00:00Z', null);
  await db('survey_responses').insert(oldAnswers);
});

afterAll(() => migration?.drop());

describe('migration 007_survey_answers_with_screening', () => {
  it('runs on the existing data, keeps the anonymous answers unlinked, and the sent survey shows as sent without answers', async () => {
    expect(await surveyColumns()).not.toContain('screening_id');
    expect((await migration.pending())[0]).toBe('007_survey_answers_with_screening');

    // 007 alone: later migrations are not part of this story (the rollback below undoes only 007).
    await migration.up();
    expect(await surveyColumns()).toContain('screening_id');
    expect(await db('survey_responses').select('screening_id', 'screening_access', 'submitted_on')).toEqual([
      { screening_id: null, screening_access: 4, submitted_on: '2025-11-04' },
    ]);
    expect(await findSurvey(db, sentScreeningId)).toEqual({ submittedAt: new Date('2025-11-04T10:00:00Z'), answers: null });
    expect(await findSurvey(db, newScreeningId)).toBeNull();
  });

  it('then keeps new answers with their screening, once, and counts old and new alike', async () => {
    expect(await storeSurvey(db, newScreeningId, answers, new Date('2025-12-02T08:00:00Z'), '2025-12-02')).toBe(true);
    expect(await findSurvey(db, newScreeningId)).toEqual({ submittedAt: new Date('2025-12-02T08:00:00Z'), answers });
    // A second send stores nothing: the screening is marked sent in the same transaction.
    expect(await storeSurvey(db, newScreeningId, { ...answers, staffBehaviour: 5 }, new Date(), '2025-12-03')).toBe(false);
    expect(await db('survey_responses').where({ screening_id: newScreeningId })).toHaveLength(1);
    // One row per screening, enforced by the database too.
    await expect(db('survey_responses').insert({ ...oldAnswers, screening_id: newScreeningId })).rejects.toMatchObject({ code: '23505' });
    expect((await surveyTotals(db, {})).responses).toBe(2);
  });

  it('leaves the answers of a deleted screening in the totals, linked to no one', async () => {
    await db('screenings').where({ id: newScreeningId }).delete();
    expect(await db('survey_responses').whereNotNull('screening_id')).toEqual([]);
    expect((await surveyTotals(db, { from: '2025-12-01' })).responses).toBe(1);
  });

  it('rolls back to 006 and forward again', async () => {
    await migration.down();
    expect(await surveyColumns()).not.toContain('screening_id');
    expect(await db('survey_responses').count<{ count: number }[]>('* as count')).toEqual([{ count: 2 }]);
    await migration.latest();
    expect(await surveyColumns()).toContain('screening_id');
  });
});
