import { surveyAnswersSchema, type SurveyStatus } from '../../common/validation/survey';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { formatDate } from '../lib/dates';
import { AppError } from '../lib/errors';
import { parseInput } from '../lib/parse';
import type { RequestContext } from '../lib/principal';
import { ownedScreeningId } from '../screenings';
import { findSurvey, storeSurvey, SURVEY_RATINGS, surveyTotals, type SurveyPeriod, type SurveyRating } from './repo';

/** Refusals of the survey land as screening refusals: the audit types have no survey of their own. */
const REFUSAL = 'SCREENING_UNAUTHORIZED';

export type SurveyDeps = { db: Db; clock: Clock };

export function createSurveyService({ db, clock }: SurveyDeps) {
  return {
    /**
     * `GET /api/screening/survey`: null while the survey is new (the route answers 204); once
     * sent, her answers (DECISIONS.md 16), shown only to the owner of the screening.
     */
    async status(context: RequestContext, requestedId: number | undefined): Promise<SurveyStatus | null> {
      const screeningId = await ownedScreeningId(db, context, requestedId, REFUSAL);
      const survey = await findSurvey(db, screeningId);
      return survey ? { submittedAt: survey.submittedAt.toISOString(), answers: survey.answers } : null;
    },

    /**
     * `POST /api/screening/survey`: once per screening. Ownership is settled before the answers
     * are read, so someone else's screening gets its 404 whatever the body holds.
     */
    async submit(context: RequestContext, requestedId: number | undefined, body: unknown): Promise<void> {
      const screeningId = await ownedScreeningId(db, context, requestedId, REFUSAL);
      const answers = parseInput(surveyAnswersSchema, body);
      const now = new Date(clock());
      // The provider's calendar day: what its reports count by.
      const submittedOn = formatDate(now, 'en');
      const stored = await storeSurvey(db, screeningId, answers, now, submittedOn);
      if (!stored) throw new AppError(409, 'SURVEY_ALREADY_SUBMITTED');
    },
  };
}

/**
 * A figure over fewer answers than this is withheld from the provider's report: over one or two
 * answers a total is her answer (DECISIONS.md 16: the provider sees aggregates only).
 */
export const MINIMUM_ANSWERS_IN_REPORT = 5;

export type RatingSummary = {
  answered: number;
  /** Mean of the 1-5 values, two decimals; null when withheld or nothing was answered. */
  average: number | null;
  /** How many gave 1, 2, 3, 4 and 5; null when withheld. */
  counts: Record<'1' | '2' | '3' | '4' | '5', number> | null;
};

export type SurveySummary = {
  period: { from: string | null; to: string | null };
  responses: number;
  minimumAnswers: number;
  ratings: Record<SurveyRating, RatingSummary>;
  longTermPain: { answered: number; yes: number | null; no: number | null };
};

function ratingSummary(counts: number[]): RatingSummary {
  const answered = counts.reduce((sum, count) => sum + count, 0);
  if (answered < MINIMUM_ANSWERS_IN_REPORT) return { answered, average: null, counts: null };
  const total = counts.reduce((sum, count, index) => sum + count * (index + 1), 0);
  const [one = 0, two = 0, three = 0, four = 0, five = 0] = counts;
  return { answered, average: Math.round((total / answered) * 100) / 100, counts: { 1: one, 2: two, 3: three, 4: four, 5: five } };
}

/** The provider's survey report: totals of a period, never anyone's answers. */
export function createSurveyReportService({ db }: Pick<SurveyDeps, 'db'>) {
  return {
    async summary(period: SurveyPeriod): Promise<SurveySummary> {
      const totals = await surveyTotals(db, period);
      const shown = totals.responses >= MINIMUM_ANSWERS_IN_REPORT;
      return {
        period: { from: period.from ?? null, to: period.to ?? null },
        responses: totals.responses,
        minimumAnswers: MINIMUM_ANSWERS_IN_REPORT,
        ratings: Object.fromEntries(SURVEY_RATINGS.map((rating) => [rating, ratingSummary(totals.ratings[rating])])) as Record<
          SurveyRating,
          RatingSummary
        >,
        longTermPain: {
          answered: totals.responses,
          yes: shown ? totals.longTermPainYes : null,
          no: shown ? totals.responses - totals.longTermPainYes : null,
        },
      };
    },
  };
}
