import { formatDate } from '../lib/dates';
import type { UserLanguage } from '../lib/parse';
import type { DocumentKind } from './documents-repo';

const BASE_NAMES: Readonly<Record<DocumentKind, Record<UserLanguage, string>>> = {
  description: { pl: 'opis-badania', en: 'screening-description' },
  referral: { pl: 'skierowanie', en: 'referral' },
  facilities_list: { pl: 'wykaz-placowek', en: 'facilities-list' },
};

/**
 * The name a downloaded document is saved under, in the user's language: what it is, the day of
 * the examination (provider's time zone) and, for a description, the language it is written in,
 * e.g. `opis-badania-2026-10-06-EN.pdf`.
 */
export function downloadName(kind: DocumentKind, documentLanguage: string | null, examinedAt: Date, userLanguage: UserLanguage): string {
  const day = formatDate(examinedAt, 'en');
  const language = kind === 'description' ? `-${(documentLanguage ?? 'pl').toUpperCase()}` : '';
  return `${BASE_NAMES[kind][userLanguage]}-${day}${language}.pdf`;
}
