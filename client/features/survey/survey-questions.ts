import type { SurveyAnswers } from '@common/validation/survey';
import type { MessageKey } from '../../lib/intl';

type RatingField = 'screeningAccess' | 'qualityOfService' | 'informationAccess' | 'patientComfort' | 'staffBehaviour';

/** Spec section 3: words for the 1-5 steps, lowest first. */
export const QUALITY_LABELS: Readonly<Record<number, MessageKey>> = {
  1: 'survey.quality.unsatisfactory',
  2: 'survey.quality.average',
  3: 'survey.quality.sufficient',
  4: 'survey.quality.good',
  5: 'survey.quality.veryGood',
};

export const PAIN_LABELS: Readonly<Record<number, MessageKey>> = {
  1: 'survey.pain.none',
  2: 'survey.pain.discomfort',
  3: 'survey.pain.slight',
  4: 'survey.pain.medium',
  5: 'survey.pain.strong',
};

export type RatingQuestion = { field: RatingField; question: MessageKey };

/** The ratings on the quality scale, in the order they are asked. */
export const RATING_QUESTIONS: readonly RatingQuestion[] = [
  { field: 'screeningAccess', question: 'survey.question.screeningAccess' },
  { field: 'qualityOfService', question: 'survey.question.qualityOfService' },
  { field: 'informationAccess', question: 'survey.question.informationAccess' },
  { field: 'patientComfort', question: 'survey.question.patientComfort' },
  { field: 'staffBehaviour', question: 'survey.question.staffBehaviour' },
];

/**
 * Spec section 5: questions 6 and 8, the two pain questions, run reversed. Their sliders show the
 * strongest pain on the left and no pain on the right; the stored value keeps 1 = no pain ... 5 = strong.
 */
export const PAIN_SCALE_REVERSED = true;

export type SurveyDraft = Record<RatingField, number> & {
  /** Question 6: pain during the examination. */
  painMeasure: number;
  /** Question 7, the gate. */
  longTermPain: boolean | null;
  /** Question 8: how strong the lasting pain is, asked only after a yes. */
  longTermPainLevel: number;
};

const NEUTRAL_RATING = 3;
export const INITIAL_DRAFT: SurveyDraft = {
  screeningAccess: NEUTRAL_RATING,
  qualityOfService: NEUTRAL_RATING,
  informationAccess: NEUTRAL_RATING,
  patientComfort: NEUTRAL_RATING,
  staffBehaviour: NEUTRAL_RATING,
  painMeasure: 1,
  longTermPain: null,
  longTermPainLevel: 1,
};

/** Question 8 is asked only after a yes to the gate (spec section 5). */
export function isPainLevelAsked(draft: SurveyDraft): boolean {
  return draft.longTermPain === true;
}

/** The body of POST /api/screening/survey, or null while the gate is unanswered. */
export function toSurveyAnswers(draft: SurveyDraft): SurveyAnswers | null {
  if (draft.longTermPain === null) return null;
  return {
    screeningAccess: draft.screeningAccess,
    qualityOfService: draft.qualityOfService,
    informationAccess: draft.informationAccess,
    patientComfort: draft.patientComfort,
    staffBehaviour: draft.staffBehaviour,
    painMeasure: draft.painMeasure,
    longTermPain: draft.longTermPain,
    longTermPainLevel: draft.longTermPain ? draft.longTermPainLevel : null,
  };
}

export type SurveyField = keyof SurveyAnswers;

/** The number each answer's question is asked under: five ratings, then 6, the gate 7 and 8. */
export const QUESTION_NUMBERS: Readonly<Record<SurveyField, number>> = {
  screeningAccess: 1,
  qualityOfService: 2,
  informationAccess: 3,
  patientComfort: 4,
  staffBehaviour: 5,
  painMeasure: 6,
  longTermPain: 7,
  longTermPainLevel: 8,
};

export type AnsweredQuestion = { field: SurveyField; question: MessageKey; answer: MessageKey | null };

/**
 * The eight questions in order with the words of her answers, for view mode; `answer` is null for
 * every question of a survey whose answers were stored anonymously (DECISIONS.md 10).
 */
export function answeredQuestions(answers: SurveyAnswers | null): AnsweredQuestion[] {
  const ratings = RATING_QUESTIONS.map(({ field, question }) => ({
    field,
    question,
    answer: answers ? (QUALITY_LABELS[answers[field]] ?? null) : null,
  }));
  const painLevel = answers?.longTermPainLevel;
  return [
    ...ratings,
    { field: 'painMeasure', question: 'survey.question.painMeasure', answer: answers ? (PAIN_LABELS[answers.painMeasure] ?? null) : null },
    {
      field: 'longTermPain',
      question: 'survey.question.longTermPain',
      answer: answers ? (answers.longTermPain ? 'survey.yes' : 'survey.no') : null,
    },
    {
      field: 'longTermPainLevel',
      question: 'survey.question.longTermPainLevel',
      answer: !answers ? null : painLevel ? (PAIN_LABELS[painLevel] ?? null) : 'survey.view.notAsked',
    },
  ];
}
