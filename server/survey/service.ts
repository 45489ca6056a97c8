import { surveyAnswersSchema, type SurveyStatus } from '../../common/validation/survey';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { formatDate } from '../lib/pdf/dates';
import { parseInput } from '../lib/validate';
import { ownedScreeningId, type RequestContext } from '../result/ownership';
import { findSurveySubmittedAt, storeSurvey } from './repo';

/** Refusals of the survey land as screening refusals: the audit types have no survey of their own. */
const REFUSAL = 'SCREENING_UNAUTHORIZED';

/** `GET /api/screening/survey`: null while the survey is new (the route answers 204). */
export async function surveyStatus(context: RequestContext, requestedId: number | undefined): Promise<SurveyStatus | null> {
  const screeningId = await ownedScreeningId(context, requestedId, REFUSAL);
  const submittedAt = await findSurveySubmittedAt(context.db, screeningId);
  return submittedAt ? { submittedAt: submittedAt.toISOString() } : null;
}

/**
 * `POST /api/screening/survey`: once per screening. Ownership is settled before the answers are
 * read, so someone else's screening gets its 404 whatever the body holds.
 */
export async function submitSurvey(context: RequestContext, clock: Clock, requestedId: number | undefined, body: unknown): Promise<void> {
  const screeningId = await ownedScreeningId(context, requestedId, REFUSAL);
  const answers = parseInput(surveyAnswersSchema, body);
  const now = new Date(clock());
  // The provider's calendar day, the only time the anonymous answers keep.
  const submittedOn = formatDate(now, 'en');
  const stored = await storeSurvey(context.db, screeningId, answers, now, submittedOn);
  if (!stored) throw new AppError(409, 'SURVEY_ALREADY_SUBMITTED');
}
