import { z } from 'zod';

/** Spec section 3: every survey rating is on a 1-5 scale. */
const SURVEY_SCALE = { min: 1, max: 5 } as const;

const RATING_INVALID = 'validation.survey.rating.invalid';
const rating = z
  .number({ error: RATING_INVALID })
  .int(RATING_INVALID)
  .min(SURVEY_SCALE.min, RATING_INVALID)
  .max(SURVEY_SCALE.max, RATING_INVALID);

/**
 * `POST /api/screening/survey`, the eight questions of spec section 3: five ratings of the
 * service, the pain felt during the examination (question 6), whether pain lasted afterwards
 * (question 7, the gate) and how strong it is (question 8, asked only after a yes: spec section 5).
 * The spec's API names seven fields; the eighth answer needs a field of its own,
 * `longTermPainLevel`, or it would be asked and thrown away.
 */
export const surveyAnswersSchema = z
  .object({
    screeningAccess: rating,
    qualityOfService: rating,
    informationAccess: rating,
    patientComfort: rating,
    staffBehaviour: rating,
    painMeasure: rating,
    longTermPain: z.boolean({ error: 'validation.survey.longTermPain.required' }),
    longTermPainLevel: rating.nullable().default(null),
  })
  .superRefine((answers, context) => {
    if (answers.longTermPain && answers.longTermPainLevel === null) {
      context.addIssue({ code: 'custom', path: ['longTermPainLevel'], message: 'validation.survey.longTermPainLevel.required' });
    }
    if (!answers.longTermPain && answers.longTermPainLevel !== null) {
      context.addIssue({ code: 'custom', path: ['longTermPainLevel'], message: 'validation.survey.longTermPainLevel.notAsked' });
    }
  });
export type SurveyAnswers = z.infer<typeof surveyAnswersSchema>;

/**
 * `GET /api/screening/survey` with 200: when the survey was sent, and her answers (DECISIONS.md 16).
 * `answers` is null for a survey sent while answers were stored anonymously (DECISIONS.md 10):
 * those cannot be shown.
 */
export type SurveyStatus = { submittedAt: string; answers: SurveyAnswers | null };
