import { surveyAnswersSchema, type SurveyStatus } from '../../common/validation/survey';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { formatDate } from '../lib/dates';
import { AppError } from '../lib/errors';
import { parseInput } from '../lib/parse';
import type { RequestContext } from '../lib/principal';
import { ownedScreeningId } from '../screenings';
import { findSurveySubmittedAt, storeSurvey } from './repo';

/** Refusals of the survey land as screening refusals: the audit types have no survey of their own. */
const REFUSAL = 'SCREENING_UNAUTHORIZED';

export type SurveyDeps = { db: Db; clock: Clock };

export function createSurveyService({ db, clock }: SurveyDeps) {
  return {
    /** `GET /api/screening/survey`: null while the survey is new (the route answers 204). */
    async status(context: RequestContext, requestedId: number | undefined): Promise<SurveyStatus | null> {
      const screeningId = await ownedScreeningId(db, context, requestedId, REFUSAL);
      const submittedAt = await findSurveySubmittedAt(db, screeningId);
      return submittedAt ? { submittedAt: submittedAt.toISOString() } : null;
    },

    /**
     * `POST /api/screening/survey`: once per screening. Ownership is settled before the answers
     * are read, so someone else's screening gets its 404 whatever the body holds.
     */
    async submit(context: RequestContext, requestedId: number | undefined, body: unknown): Promise<void> {
      const screeningId = await ownedScreeningId(db, context, requestedId, REFUSAL);
      const answers = parseInput(surveyAnswersSchema, body);
      const now = new Date(clock());
      // The provider's calendar day, the only time the anonymous answers keep.
      const submittedOn = formatDate(now, 'en');
      const stored = await storeSurvey(db, screeningId, answers, now, submittedOn);
      if (!stored) throw new AppError(409, 'SURVEY_ALREADY_SUBMITTED');
    },
  };
}
