import type { SurveyAnswers } from '../../common/validation/survey';
import type { Db } from '../db';

export async function findSurveySubmittedAt(db: Db, screeningId: number): Promise<Date | null> {
  const row = await db('screenings').where('id', screeningId).first('survey_submitted_at');
  return row?.survey_submitted_at ?? null;
}

/**
 * Marks the screening's survey as sent and stores the answers, in one transaction. The answers
 * row names no screening and no person, only the day (DECISIONS.md 10). Returns false when the
 * survey had been sent already: the row lock of the update makes a concurrent second submit wait
 * and then find it sent.
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
