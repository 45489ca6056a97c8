import { formatCalendarDay, formatDateTime } from '../lib/dates';
import type { DocumentLanguage } from './labels';
import type { PdfLayout } from './layout';

export type PatientDetails = {
  firstName: string;
  lastName: string;
  pesel: string | null;
  /** Calendar day, 'YYYY-MM-DD'. */
  birthAt: string;
};

/** The boxed block naming whose document this is, as on every medical document. */
export function drawPatientBlock(
  layout: PdfLayout,
  language: DocumentLanguage,
  patient: PatientDetails,
  examinedAt?: Date,
  extraRows: Array<[string, string]> = [],
): void {
  const { labels } = layout;
  const rows: Array<[string, string]> = [
    [labels.patient, `${patient.firstName} ${patient.lastName}`],
    [labels.pesel, patient.pesel ?? '—'],
    [labels.birthDate, formatCalendarDay(patient.birthAt, language)],
  ];
  if (examinedAt) rows.push([labels.examDate, formatDateTime(examinedAt, language)]);
  layout.fields([...rows, ...extraRows], { boxed: true });
}
