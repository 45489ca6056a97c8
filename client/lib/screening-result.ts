import type { MessageKey } from './intl';

/** The wording of the result scale (spec section 3); no result shows blank. */
const RESULT_WORDING: Readonly<Record<string, MessageKey>> = {
  '1': 'result.scale.normal',
  '2': 'result.scale.benign',
  '3': 'result.scale.probablyBenign',
  '4': 'result.scale.suspicious',
  '5': 'result.scale.malignant',
  '-1': 'result.scale.moreChecks',
};

export function resultWordingKey(result: number | null | undefined): MessageKey | null {
  if (result === null || result === undefined) return null;
  return RESULT_WORDING[String(result)] ?? null;
}

/**
 * How a result looks on the page: `routine` (nothing to do now), `followUp` (a check-up or more
 * images), `attention` (a change that needs further tests soon). Each has its own frame, icon and
 * heading, so the difference never rests on colour alone.
 */
export type ResultTone = 'routine' | 'followUp' | 'attention';

export type ResultExplanation = {
  tone: ResultTone;
  title: MessageKey;
  meaning: MessageKey;
  next: MessageKey;
  /** She has a referral for further tests: where it is and how to book them is shown too. */
  furtherTests: boolean;
};

/**
 * The result in plain words for each value of the scale (spec section 3). The texts are one block
 * of the catalogs, `result.explanation.*`, listed for reviewers in docs/result-explanations.md.
 * Under the screening programme 3, 4, 5 and "needs more checks" all come with a referral (see
 * faq.biRads.note).
 */
const RESULT_EXPLANATIONS: Readonly<Record<string, ResultExplanation>> = {
  '1': {
    tone: 'routine',
    title: 'result.explanation.normal.title',
    meaning: 'result.explanation.normal.meaning',
    next: 'result.explanation.normal.next',
    furtherTests: false,
  },
  '2': {
    tone: 'routine',
    title: 'result.explanation.benign.title',
    meaning: 'result.explanation.benign.meaning',
    next: 'result.explanation.benign.next',
    furtherTests: false,
  },
  '3': {
    tone: 'followUp',
    title: 'result.explanation.probablyBenign.title',
    meaning: 'result.explanation.probablyBenign.meaning',
    next: 'result.explanation.probablyBenign.next',
    furtherTests: true,
  },
  '4': {
    tone: 'attention',
    title: 'result.explanation.suspicious.title',
    meaning: 'result.explanation.suspicious.meaning',
    next: 'result.explanation.suspicious.next',
    furtherTests: true,
  },
  '5': {
    tone: 'attention',
    title: 'result.explanation.malignant.title',
    meaning: 'result.explanation.malignant.meaning',
    next: 'result.explanation.malignant.next',
    furtherTests: true,
  },
  '-1': {
    tone: 'followUp',
    title: 'result.explanation.moreChecks.title',
    meaning: 'result.explanation.moreChecks.meaning',
    next: 'result.explanation.moreChecks.next',
    furtherTests: true,
  },
};

/** What the result means and what to do next; null for no result (and for a value the scale lacks). */
export function resultExplanation(result: number | null | undefined): ResultExplanation | null {
  if (result === null || result === undefined) return null;
  return RESULT_EXPLANATIONS[String(result)] ?? null;
}

/** Spec section 4: only desc_all_completed counts as done; any other value is still in description. */
export function isDescriptionCompleted(status: string): boolean {
  return status === 'desc_all_completed';
}

export type DocumentLanguage = 'pl' | 'en' | 'de';

/**
 * Spec section 3: a description name containing EN or DE is English or German, others Polish.
 * EN/DE must stand as their own token ("...-EN.pdf", "opis EN"), so that a Polish word that
 * merely contains the letters (e.g. "DENSYTOMETRIA") is not taken for a language mark.
 */
export function documentLanguage(name: string): DocumentLanguage {
  const tokens = name.split(/[^A-Za-z]+/);
  if (tokens.includes('EN')) return 'en';
  if (tokens.includes('DE')) return 'de';
  return 'pl';
}

export const DOCUMENT_LANGUAGE_LABELS: Readonly<Record<DocumentLanguage, MessageKey>> = {
  pl: 'result.documents.descriptionPl',
  en: 'result.documents.descriptionEn',
  de: 'result.documents.descriptionDe',
};
