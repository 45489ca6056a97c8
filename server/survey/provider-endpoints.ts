import { z } from 'zod';
import { defineEndpoint, type ProviderEndpoint } from '../provider/endpoint';
import { SURVEY_RATINGS } from './repo';
import { createSurveyReportService, MINIMUM_ANSWERS_IN_REPORT, type SurveyDeps } from './service';

const day = (description: string) => z.iso.date({ message: 'Expected a date as YYYY-MM-DD.' }).optional().describe(description);

const summaryQuery = z
  .object({
    from: day("The first day of the period (the provider's calendar day the survey was sent), included."),
    to: day('The last day of the period, included.'),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: 'from must not be after to.', path: ['to'] });

const count = z.number().int().min(0);

const ratingSchema = z.object({
  answered: count.describe('How many answered the question in the period.'),
  average: z
    .number()
    .nullable()
    .describe(`Mean of the 1-5 values, two decimals; null when fewer than ${MINIMUM_ANSWERS_IN_REPORT} answered.`),
  counts: z
    .object({ 1: count, 2: count, 3: count, 4: count, 5: count })
    .nullable()
    .describe(`How many gave each value; null when fewer than ${MINIMUM_ANSWERS_IN_REPORT} answered.`),
});

const RATING_DESCRIPTIONS: Record<(typeof SURVEY_RATINGS)[number], string> = {
  screeningAccess: 'Question 1, access to the screening: 1 unsatisfactory ... 5 very good.',
  qualityOfService: 'Question 2, quality of the service: 1 unsatisfactory ... 5 very good.',
  informationAccess: 'Question 3, information about the examination: 1 unsatisfactory ... 5 very good.',
  patientComfort: 'Question 4, comfort during the examination: 1 unsatisfactory ... 5 very good.',
  staffBehaviour: 'Question 5, behaviour of the staff: 1 unsatisfactory ... 5 very good.',
  painMeasure: 'Question 6, pain during the examination: 1 no pain ... 5 strong.',
  longTermPainLevel: 'Question 8, strength of the pain that lasted: 1 no pain ... 5 strong; asked only after a yes to question 7.',
};

const summarySchema = z.object({
  period: z.object({ from: z.string().nullable(), to: z.string().nullable() }).describe('As asked; null: open.'),
  responses: count.describe('Surveys sent in the period.'),
  minimumAnswers: count.describe("A figure over fewer answers than this is withheld (null), so that nobody's answers can be read from it."),
  ratings: z.object(Object.fromEntries(SURVEY_RATINGS.map((rating) => [rating, ratingSchema.describe(RATING_DESCRIPTIONS[rating])]))),
  longTermPain: z
    .object({ answered: count, yes: count.nullable(), no: count.nullable() })
    .describe('Question 7, pain lasting after the examination; yes and no are null when fewer surveys than minimumAnswers were sent.'),
});

/**
 * The provider API's survey report (scope surveys:read): totals per question over a period,
 * never a patient's answers (DECISIONS.md 16).
 */
export function surveyEndpoints(deps: Pick<SurveyDeps, 'db'>): ProviderEndpoint[] {
  const reports = createSurveyReportService(deps);
  return [
    defineEndpoint({
      method: 'get',
      path: '/survey-summary',
      operationId: 'getSurveySummary',
      summary: 'Totals of the satisfaction survey over a period',
      description:
        "Counts and averages per question of the surveys sent between `from` and `to` (the provider's calendar days, both " +
        'included; either may be left out). Surveys sent before answers were kept with the screening are counted too. ' +
        `There are no per-patient rows; a figure over fewer than ${MINIMUM_ANSWERS_IN_REPORT} answers is null.`,
      tag: 'Reports',
      scope: 'surveys:read',
      request: { query: summaryQuery },
      responses: { 200: { description: 'The totals of the period.', schema: summarySchema } },
      async handle({ query }) {
        return { status: 200, body: await reports.summary(query) };
      },
    }),
  ];
}
