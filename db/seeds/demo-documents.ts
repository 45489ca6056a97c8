import {
  renderFacilitiesList,
  renderIsoInstruction,
  renderReferral,
  renderReferralInformation,
  renderResultDescription,
  type DocumentLanguage,
  type InstructionLanguage,
  type ProviderInfo,
} from '../../server/documents';
import { DEMO_FACILITIES, DEMO_FACILITIES_REGION } from './demo-facilities';
import { DEMO_READERS, type DemoPatient, type DemoScreening } from './demo-people';

export type DocumentKind = 'description' | 'referral' | 'facilities_list';
export type RenderedDocument = { kind: DocumentKind; language: DocumentLanguage; name: string; bytes: Uint8Array };
export type RenderedInstruction = { type: 'iso' | 'referral-information'; language: InstructionLanguage; name: string; bytes: Uint8Array };

/** The client tells a description's language by "EN" or "DE" in its name (spec section 3). */
export const DOCUMENT_NAMES = {
  description: { pl: 'Opis badania.pdf', en: 'Opis badania EN.pdf', de: 'Opis badania DE.pdf' },
  referral: 'Skierowanie.pdf',
  facilities_list: 'Wykaz placówek.pdf',
} as const;

const INSTRUCTION_NAMES = {
  iso: { pl: 'Instrukcja obrazu ISO.pdf', en: 'ISO image instructions.pdf' },
  'referral-information': { pl: 'Informacja o skierowaniu.pdf', en: 'About your referral.pdf' },
} as const;

/** Instructions carry a fixed date so their bytes are the same on every run. */
const INSTRUCTIONS_ISSUED_AT = new Date('2026-01-02T09:00:00+01:00');

/** PDFs in the order they are stored: the Polish description first, as it holds the result. */
export async function renderScreeningDocuments(
  provider: ProviderInfo,
  patient: DemoPatient,
  screening: DemoScreening,
): Promise<RenderedDocument[]> {
  const { report } = screening;
  if (!report) return [];
  const signedAt = new Date(report.signedAt);
  const examinedAt = new Date(screening.examinedAt);
  const documents: RenderedDocument[] = [];
  for (const language of ['pl', 'en', 'de'] as const) {
    const text = report.texts[language];
    if (!text) continue;
    const bytes = await renderResultDescription({
      provider,
      language,
      patient,
      accessionNumber: screening.accessionNumber,
      examinedAt,
      examinationType: report.examinationType,
      absorbedDoseMgy: screening.absorbedDoseMgy,
      composition: report.composition,
      birads: report.birads,
      ...text,
      readers: DEMO_READERS,
      signedAt,
    });
    documents.push({ kind: 'description', language, name: DOCUMENT_NAMES.description[language], bytes });
  }
  if (report.referral) {
    const referral = await renderReferral({
      provider,
      patient,
      accessionNumber: screening.accessionNumber,
      examinedAt,
      issuedAt: signedAt,
      ...report.referral,
      physician: DEMO_READERS[0]!,
    });
    documents.push({ kind: 'referral', language: 'pl', name: DOCUMENT_NAMES.referral, bytes: referral });
    const facilities = await renderFacilitiesList({
      provider,
      issuedAt: signedAt,
      region: DEMO_FACILITIES_REGION,
      facilities: DEMO_FACILITIES,
    });
    documents.push({ kind: 'facilities_list', language: 'pl', name: DOCUMENT_NAMES.facilities_list, bytes: facilities });
  }
  return documents;
}

export async function renderInstructions(provider: ProviderInfo): Promise<RenderedInstruction[]> {
  const instructions: RenderedInstruction[] = [];
  for (const language of ['pl', 'en'] as const) {
    instructions.push({
      type: 'iso',
      language,
      name: INSTRUCTION_NAMES.iso[language],
      bytes: await renderIsoInstruction(provider, language, INSTRUCTIONS_ISSUED_AT),
    });
    instructions.push({
      type: 'referral-information',
      language,
      name: INSTRUCTION_NAMES['referral-information'][language],
      bytes: await renderReferralInformation(provider, language, INSTRUCTIONS_ISSUED_AT),
    });
  }
  return instructions;
}
