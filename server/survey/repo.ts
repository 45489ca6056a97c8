import type { SurveyAnswers } from '../../common/validation/survey';
import type { Db } from '../db';

type AnswerRow = {
  screening_access: number;
  quality_of_service: number;
  information_access: number;
  patient_comfort: number;
  staff_behaviour: number;
  pain_measure: number;
  long_term_pain: boolean;
  long_term_pain_level: number | null;
};

/** The screening's survey: when it was sent, and its answers when they were kept with it. */
export type StoredSurvey = { submittedAt: Date; answers: SurveyAnswers | null };

/**
 * Null while the survey is new. A survey sent while answers were stored anonymously
 * (DECISIONS.md 10) has no row linked to it: its answers are null.
 */
export async function findSurvey(db: Db, screeningId: number): Promise<StoredSurvey | null> {
  const row = await db('screenings as s')
    .leftJoin('survey_responses as r', 'r.screening_id', 's.id')
    .where('s.id', screeningId)
    .first<(Partial<AnswerRow> & { survey_submitted_at: Date | null; response_id: string | null }) | undefined>(
      's.survey_submitted_at',
      'r.id as response_id',
      'r.screening_access',
      'r.quality_of_service',
      'r.information_access',
      'r.patient_comfort',
      'r.staff_behaviour',
      'r.pain_measure',
      'r.long_term_pain',
      'r.long_term_pain_level',
    );
  if (!row?.survey_submitted_at) return null;
  return { submittedAt: row.survey_submitted_at, answers: row.response_id ? answersOf(row as AnswerRow) : null };
}

function answersOf(row: AnswerRow): SurveyAnswers {
  return {
    screeningAccess: row.screening_access,
    qualityOfService: row.quality_of_service,
    informationAccess: row.information_access,
    patientComfort: row.patient_comfort,
    staffBehaviour: row.staff_behaviour,
    painMeasure: row.pain_measure,
    longTermPain: row.long_term_pain,
    longTermPainLevel: row.long_term_pain_level,
  };
}

/**
 * Marks the screening's survey as sent and stores the answers with it (DECISIONS.md 16), in one
 * transaction. Returns false when the survey had been sent already: the row lock of the update
 * makes a concurrent second submit wait and then find it sent.
 */
export async function storeSurvey(
  db: Db,
  screeningId: number,
  answers: SurveyAnswers,
  submittedAt: Date,
  submittedOn: string,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const marked = await trx('screenings')
      .where('id', screeningId)
      .whereNull('survey_submitted_at')
      .update({ survey_submitted_at: submittedAt });
    if (marked === 0) return false;
    await trx('survey_responses').insert({
      screening_id: screeningId,
      screening_access: answers.screeningAccess,
      quality_of_service: answers.qualityOfService,
      information_access: answers.informationAccess,
      patient_comfort: answers.patientComfort,
      staff_behaviour: answers.staffBehaviour,
      pain_measure: answers.painMeasure,
      long_term_pain: answers.longTermPain,
      long_term_pain_level: answers.longTermPainLevel,
      submitted_on: submittedOn,
    });
    return true;
  });
}

/** The provider's calendar days of a report, both included; a missing end is open. */
export type SurveyPeriod = { from?: string; to?: string };

export const SURVEY_RATINGS = [
  'screeningAccess',
  'qualityOfService',
  'informationAccess',
  'patientComfort',
  'staffBehaviour',
  'painMeasure',
  'longTermPainLevel',
] as const;
export type SurveyRating = (typeof SURVEY_RATINGS)[number];

const RATING_VALUES = [1, 2, 3, 4, 5] as const;

const RATING_COLUMNS: Record<SurveyRating, keyof AnswerRow> = {
  screeningAccess: 'screening_access',
  qualityOfService: 'quality_of_service',
  informationAccess: 'information_access',
  patientComfort: 'patient_comfort',
  staffBehaviour: 'staff_behaviour',
  painMeasure: 'pain_measure',
  longTermPainLevel: 'long_term_pain_level',
};

/** Totals of the answers of a period: counted in the database, so no row of anyone leaves it. */
export type SurveyTotals = {
  responses: number;
  longTermPainYes: number;
  /** Per rating question, how many gave each value 1-5 (index 0 is 1). */
  ratings: Record<SurveyRating, number[]>;
};

export async function surveyTotals(db: Db, period: SurveyPeriod): Promise<SurveyTotals> {
  const query = db('survey_responses');
  if (period.from) query.where('submitted_on', '>=', period.from);
  if (period.to) query.where('submitted_on', '<=', period.to);
  const valueCounts = SURVEY_RATINGS.flatMap((rating) =>
    RATING_VALUES.map((value) => db.raw('count(*) FILTER (WHERE ?? = ?) AS ??', [RATING_COLUMNS[rating], value, `${rating}_${value}`])),
  );
  const row = await query.first<Record<string, string | number>>(
    db.raw('count(*) AS responses'),
    db.raw('count(*) FILTER (WHERE long_term_pain) AS long_term_pain_yes'),
    ...valueCounts,
  );
  const count = (name: string) => Number(row?.[name] ?? 0);
  const ratings = Object.fromEntries(
    SURVEY_RATINGS.map((rating) => [rating, RATING_VALUES.map((value) => count(`${rating}_${value}`))]),
  ) as Record<SurveyRating, number[]>;
  return { responses: count('responses'), longTermPainYes: count('long_term_pain_yes'), ratings };
}
