export type DocumentLanguage = 'pl' | 'en' | 'de';

/** Labels every document type shares; each module keeps its own texts beside its layout. */
export type CommonLabels = {
  patient: string;
  pesel: string;
  birthDate: string;
  examDate: string;
  phone: string;
  email: string;
  page: (pageNumber: number, pageCount: number) => string;
};

export const COMMON_LABELS: Record<DocumentLanguage, CommonLabels> = {
  pl: {
    patient: 'Pacjent',
    pesel: 'PESEL',
    birthDate: 'Data urodzenia',
    examDate: 'Data badania',
    phone: 'tel.',
    email: 'e-mail',
    page: (pageNumber, pageCount) => `Strona ${pageNumber} z ${pageCount}`,
  },
  en: {
    patient: 'Patient',
    pesel: 'PESEL (national ID)',
    birthDate: 'Date of birth',
    examDate: 'Examination date',
    phone: 'phone',
    email: 'email',
    page: (pageNumber, pageCount) => `Page ${pageNumber} of ${pageCount}`,
  },
  de: {
    patient: 'Patient(in)',
    pesel: 'PESEL (nationale ID)',
    birthDate: 'Geburtsdatum',
    examDate: 'Untersuchungsdatum',
    phone: 'Tel.',
    email: 'E-Mail',
    page: (pageNumber, pageCount) => `Seite ${pageNumber} von ${pageCount}`,
  },
};

/** BCP 47 tags for the PDF's /Lang entry, which screen readers use to pick a voice. */
export const PDF_LANGUAGE_TAGS: Record<DocumentLanguage, string> = { pl: 'pl-PL', en: 'en-GB', de: 'de-DE' };
