import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { Form } from '../../components/ui/Form';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { Slider } from '../../components/ui/Slider';
import { useT } from '../../lib/intl';
import {
  INITIAL_DRAFT,
  isPainLevelAsked,
  PAIN_LABELS,
  PAIN_SCALE_REVERSED,
  QUALITY_LABELS,
  RATING_QUESTIONS,
  toSurveyAnswers,
  type SurveyDraft,
} from './survey-questions';
import type { SurveyAnswers } from '@common/validation/survey';

export type SurveyFormProps = {
  onSubmit: (answers: SurveyAnswers) => Promise<void>;
  onCancel: () => void;
};

/** The new survey: five ratings, the pain of the examination, the long-term pain gate and the level it unlocks. */
export function SurveyForm({ onSubmit, onCancel }: SurveyFormProps) {
  const t = useT();
  const [draft, setDraft] = useState<SurveyDraft>(INITIAL_DRAFT);
  const [gateMissing, setGateMissing] = useState(false);
  const [sending, setSending] = useState(false);
  const painAsked = isPainLevelAsked(draft);
  const painNumber = RATING_QUESTIONS.length + 1;
  const gateNumber = painNumber + 1;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const answers = toSurveyAnswers(draft);
    if (!answers) {
      setGateMissing(true);
      return;
    }
    setSending(true);
    try {
      await onSubmit(answers);
    } finally {
      setSending(false);
    }
  }

  return (
    <Form onSubmit={(event) => void submit(event)} className="survey-form">
      <ol className="survey-form__questions">
        {RATING_QUESTIONS.map(({ field, question }, index) => (
          <li key={field} className="survey-form__question">
            <Slider
              label={t('survey.numbered', { number: index + 1, question: t(question) })}
              value={draft[field]}
              onChange={(value) => setDraft((previous) => ({ ...previous, [field]: value }))}
              valueLabel={(value) => t(QUALITY_LABELS[value] ?? 'survey.quality.sufficient')}
            />
          </li>
        ))}
        <li className="survey-form__question">
          <Slider
            label={t('survey.numbered', { number: painNumber, question: t('survey.question.painMeasure') })}
            value={draft.painMeasure}
            onChange={(value) => setDraft((previous) => ({ ...previous, painMeasure: value }))}
            valueLabel={(value) => t(PAIN_LABELS[value] ?? 'survey.pain.none')}
            reversed={PAIN_SCALE_REVERSED}
          />
        </li>
        <li className="survey-form__question">
          <RadioGroup
            label={t('survey.numbered', { number: gateNumber, question: t('survey.question.longTermPain') })}
            value={draft.longTermPain === null ? null : String(draft.longTermPain)}
            onChange={(value) => {
              setGateMissing(false);
              setDraft((previous) => ({ ...previous, longTermPain: value === 'true' }));
            }}
            appearance="buttons"
            isRequired
            errorMessage={gateMissing ? t('survey.gateRequired') : undefined}
          >
            <Radio value="true">{t('survey.yes')}</Radio>
            <Radio value="false">{t('survey.no')}</Radio>
          </RadioGroup>
        </li>
        <li className="survey-form__question">
          <Slider
            label={t('survey.numbered', { number: gateNumber + 1, question: t('survey.question.longTermPainLevel') })}
            description={painAsked ? undefined : t('survey.painBlocked')}
            value={draft.longTermPainLevel}
            onChange={(value) => setDraft((previous) => ({ ...previous, longTermPainLevel: value }))}
            valueLabel={(value) => t(PAIN_LABELS[value] ?? 'survey.pain.none')}
            reversed={PAIN_SCALE_REVERSED}
            isDisabled={!painAsked}
          />
        </li>
      </ol>
      <div className="survey-form__actions">
        <Button variant="secondary" onPress={onCancel}>
          {t('survey.cancel')}
        </Button>
        <Button type="submit" isPending={sending}>
          {t('survey.send')}
        </Button>
      </div>
    </Form>
  );
}
