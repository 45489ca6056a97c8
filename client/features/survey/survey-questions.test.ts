import { describe, expect, it } from 'vitest';
import { surveyAnswersSchema } from '@common/validation/survey';
import { INITIAL_DRAFT, isPainLevelAsked, toSurveyAnswers } from './survey-questions';

describe('the survey answers', () => {
  it('are not ready while the long-term pain gate is unanswered', () => {
    expect(toSurveyAnswers(INITIAL_DRAFT)).toBeNull();
    expect(isPainLevelAsked(INITIAL_DRAFT)).toBe(false);
  });

  it('drop the lasting pain level after a no, whatever the slider showed, and keep the examination pain', () => {
    const answers = toSurveyAnswers({ ...INITIAL_DRAFT, longTermPain: false, longTermPainLevel: 4, painMeasure: 3 });
    expect(answers).toMatchObject({ longTermPain: false, longTermPainLevel: null, painMeasure: 3 });
    expect(surveyAnswersSchema.safeParse(answers).success).toBe(true);
  });

  it('keep the lasting pain level after a yes, as the real value (1 = no pain)', () => {
    const draft = { ...INITIAL_DRAFT, longTermPain: true, longTermPainLevel: 5, staffBehaviour: 1 };
    expect(isPainLevelAsked(draft)).toBe(true);
    const answers = toSurveyAnswers(draft);
    expect(answers).toMatchObject({ longTermPain: true, longTermPainLevel: 5, staffBehaviour: 1 });
    expect(surveyAnswersSchema.safeParse(answers).success).toBe(true);
  });
});
