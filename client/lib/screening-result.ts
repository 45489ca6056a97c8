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
