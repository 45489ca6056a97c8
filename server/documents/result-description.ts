import { formatDateTime } from '../lib/dates';
import type { DocumentLanguage } from './labels';
import { PdfLayout, type ProviderInfo } from './layout';
import { drawPatientBlock, type PatientDetails } from './patient';
import { describeRadiologist, type Radiologist } from './radiologist';

/** ACR breast composition categories (BI-RADS 5th edition). */
export type BreastComposition = 'a' | 'b' | 'c' | 'd';
/** The portal's result scale: -1 stands for BI-RADS 0, "additional imaging needed". */
export type BiradsResult = -1 | 1 | 2 | 3 | 4 | 5;
export type ExaminationType = 'screening' | 'additional_views';

export type ResultDescriptionInput = {
  provider: ProviderInfo;
  language: DocumentLanguage;
  patient: PatientDetails;
  /** The accession number of the examination in the provider's radiology system. */
  accessionNumber: string;
  examinedAt: Date;
  examinationType: ExaminationType;
  absorbedDoseMgy: number | null;
  composition: BreastComposition;
  birads: BiradsResult;
  /** The radiologists' own words, already in `language`. */
  findings: string[];
  conclusion: string;
  recommendation: string;
  /** Screening mammograms are read independently by two radiologists. */
  readers: Radiologist[];
  signedAt: Date;
};

type DescriptionTexts = {
  title: string;
  examinations: Record<ExaminationType, string>;
  accessionNumber: string;
  examination: string;
  dose: string;
  composition: string;
  findings: string;
  conclusion: string;
  category: string;
  recommendation: string;
  readers: string;
  signed: (when: string) => string;
  translationNote?: string;
  compositions: Record<BreastComposition, string>;
  categories: Record<BiradsResult, string>;
  decimalSeparator: string;
};

const TEXTS: Record<DocumentLanguage, DescriptionTexts> = {
  pl: {
    title: 'Opis badania mammograficznego',
    examinations: {
      screening: 'Mammografia przesiewowa obu piersi, projekcje CC i MLO',
      additional_views: 'Mammografia diagnostyczna: zdjęcia celowane z uciskiem miejscowym, uzupełnione badaniem USG',
    },
    accessionNumber: 'Numer badania',
    examination: 'Badanie',
    dose: 'Dawka pochłonięta (AGD, suma projekcji)',
    composition: 'Budowa piersi',
    findings: 'Opis',
    conclusion: 'Wnioski',
    category: 'Kategoria BI-RADS',
    recommendation: 'Zalecenia',
    readers: 'Lekarze opisujący (podwójna niezależna ocena)',
    signed: (when) => `Dokument podpisany elektronicznie ${when}.`,
    compositions: {
      a: 'tłuszczowa (ACR a) – piersi niemal całkowicie zbudowane z tkanki tłuszczowej.',
      b: 'tłuszczowo-gruczołowa (ACR b) – rozproszone obszary tkanki włóknisto-gruczołowej.',
      c: 'gruczołowa, niejednorodnie gęsta (ACR c) – gęstość tkanek może maskować drobne zmiany ogniskowe.',
      d: 'gruczołowa, bardzo gęsta (ACR d) – gęstość tkanek istotnie obniża czułość mammografii.',
    },
    categories: {
      [-1]: 'BI-RADS 0 – wymagana dodatkowa diagnostyka obrazowa',
      1: 'BI-RADS 1 – obraz prawidłowy',
      2: 'BI-RADS 2 – zmiana łagodna',
      3: 'BI-RADS 3 – zmiana prawdopodobnie łagodna',
      4: 'BI-RADS 4 – zmiana podejrzana',
      5: 'BI-RADS 5 – zmiana o wysokim prawdopodobieństwie złośliwości',
    },
    decimalSeparator: ',',
  },
  en: {
    title: 'Mammography report',
    examinations: {
      screening: 'Bilateral screening mammography, CC and MLO views',
      additional_views: 'Diagnostic mammography: spot compression views, supplemented by ultrasound',
    },
    accessionNumber: 'Examination number',
    examination: 'Examination',
    dose: 'Absorbed dose (AGD, all views)',
    composition: 'Breast composition',
    findings: 'Findings',
    conclusion: 'Conclusion',
    category: 'BI-RADS category',
    recommendation: 'Recommendation',
    readers: 'Reporting radiologists (independent double reading)',
    signed: (when) => `Electronically signed on ${when}.`,
    translationNote: 'This is a translation of the original Polish report. In case of any discrepancy the Polish version prevails.',
    compositions: {
      a: 'almost entirely fatty (ACR a).',
      b: 'scattered areas of fibroglandular density (ACR b).',
      c: 'heterogeneously dense (ACR c), which may obscure small masses.',
      d: 'extremely dense (ACR d), which lowers the sensitivity of mammography.',
    },
    categories: {
      [-1]: 'BI-RADS 0 – incomplete: additional imaging evaluation needed',
      1: 'BI-RADS 1 – negative',
      2: 'BI-RADS 2 – benign finding',
      3: 'BI-RADS 3 – probably benign finding',
      4: 'BI-RADS 4 – suspicious abnormality',
      5: 'BI-RADS 5 – highly suggestive of malignancy',
    },
    decimalSeparator: '.',
  },
  de: {
    title: 'Mammographiebefund',
    examinations: {
      screening: 'Beidseitige Screening-Mammographie in CC- und MLO-Projektion',
      additional_views: 'Diagnostische Mammographie: Zielaufnahmen mit Kompressionstubus, ergänzt durch Ultraschall',
    },
    accessionNumber: 'Untersuchungsnummer',
    examination: 'Untersuchung',
    dose: 'Energiedosis (AGD, Summe aller Aufnahmen)',
    composition: 'Brustdichte',
    findings: 'Befund',
    conclusion: 'Beurteilung',
    category: 'BI-RADS-Kategorie',
    recommendation: 'Empfehlung',
    readers: 'Befundende Ärzte (unabhängige Doppelbefundung)',
    signed: (when) => `Elektronisch signiert am ${when}.`,
    translationNote: 'Übersetzung des polnischen Originalbefundes. Im Zweifelsfall gilt die polnische Fassung.',
    compositions: {
      a: 'fast vollständig fettig involutiert (ACR a).',
      b: 'vereinzelte Areale fibroglandulären Gewebes (ACR b).',
      c: 'heterogen dicht (ACR c); kleine Herdbefunde können maskiert werden.',
      d: 'extrem dicht (ACR d); die Sensitivität der Mammographie ist herabgesetzt.',
    },
    categories: {
      [-1]: 'BI-RADS 0 – unvollständig, weitere Bildgebung erforderlich',
      1: 'BI-RADS 1 – unauffällig',
      2: 'BI-RADS 2 – gutartiger Befund',
      3: 'BI-RADS 3 – wahrscheinlich gutartiger Befund',
      4: 'BI-RADS 4 – suspekter Befund',
      5: 'BI-RADS 5 – hochgradig malignomverdächtiger Befund',
    },
    decimalSeparator: ',',
  },
};

export async function renderResultDescription(input: ResultDescriptionInput): Promise<Uint8Array> {
  const texts = TEXTS[input.language];
  const layout = await PdfLayout.create({
    provider: input.provider,
    language: input.language,
    title: texts.title,
    issuedAt: input.signedAt,
  });
  const dose = input.absorbedDoseMgy === null ? '—' : `${input.absorbedDoseMgy.toFixed(2).replace('.', texts.decimalSeparator)} mGy`;
  drawPatientBlock(layout, input.language, input.patient, input.examinedAt, [[texts.accessionNumber, input.accessionNumber]]);
  layout.fields([
    [texts.examination, texts.examinations[input.examinationType]],
    [texts.dose, dose],
    [texts.composition, texts.compositions[input.composition]],
  ]);
  layout.heading(texts.findings);
  for (const finding of input.findings) layout.paragraph(finding);
  layout.heading(texts.conclusion);
  layout.paragraph(input.conclusion);
  layout.paragraph(`${texts.category}: ${texts.categories[input.birads]}`, { bold: true });
  layout.heading(texts.recommendation);
  layout.paragraph(input.recommendation);
  layout.heading(texts.readers);
  layout.bullets(input.readers.map((reader) => describeRadiologist(reader, input.language)));
  layout.paragraph(texts.signed(formatDateTime(input.signedAt, input.language)), { muted: true });
  if (texts.translationNote) layout.paragraph(texts.translationNote, { muted: true, size: 8.5 });
  return layout.save();
}
