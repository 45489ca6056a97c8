import type { Language } from '../stores/prefs-store';
import type { DocumentLanguage } from '../lib/screening-result';

/**
 * Download names in the user's language, the same rule as the server's Content-Disposition
 * (docs/api.md), used because the blob API hands back the body only.
 */
export type DownloadKind = 'description' | 'referral' | 'facilitiesList' | 'isoInstruction' | 'referralInformation';

const BASE_NAMES: Readonly<Record<DownloadKind, Record<Language, string>>> = {
  description: { pl: 'opis-badania', en: 'screening-description' },
  referral: { pl: 'skierowanie', en: 'referral' },
  facilitiesList: { pl: 'wykaz-placowek', en: 'facilities-list' },
  isoInstruction: { pl: 'instrukcja-obrazu-iso', en: 'iso-image-instruction' },
  referralInformation: { pl: 'informacja-o-skierowaniu', en: 'referral-information' },
};

/** The examination day in Poland, where the screenings take place: YYYY-MM-DD. */
function examinationDay(examinedAt: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date(examinedAt));
}

export function downloadName(
  kind: DownloadKind,
  uiLanguage: Language,
  options: { examinedAt?: string; documentLanguage?: DocumentLanguage } = {},
): string {
  const parts = [BASE_NAMES[kind][uiLanguage]];
  if (options.examinedAt) parts.push(examinationDay(options.examinedAt));
  if (options.documentLanguage) parts.push(options.documentLanguage.toUpperCase());
  return `${parts.join('-')}.pdf`;
}
