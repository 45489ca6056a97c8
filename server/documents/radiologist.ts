import type { DocumentLanguage } from './labels';

export type Radiologist = {
  name: string;
  /** Polish licence to practise (numer prawa wykonywania zawodu, NPWZ). */
  licenceNumber: string;
};

const SPECIALITY: Record<DocumentLanguage, string> = {
  pl: 'specjalista radiologii i diagnostyki obrazowej',
  en: 'specialist in radiology and diagnostic imaging',
  de: 'Facharzt/Fachärztin für Radiologie',
};

const LICENCE: Record<DocumentLanguage, string> = {
  pl: 'nr PWZ',
  en: 'licence no.',
  de: 'Approbations-Nr.',
};

export function describeRadiologist(radiologist: Radiologist, language: DocumentLanguage): string {
  return `${radiologist.name}, ${SPECIALITY[language]}, ${LICENCE[language]} ${radiologist.licenceNumber}`;
}
