import { formatDate, formatDateTime } from '../lib/dates';
import { PdfLayout, type ProviderInfo } from './layout';
import { drawPatientBlock, type PatientDetails } from './patient';
import { describeRadiologist, type Radiologist } from './radiologist';

/** Referrals are Polish documents only: they are filed with Polish providers. */
export type ReferralInput = {
  provider: ProviderInfo;
  patient: PatientDetails;
  /** The accession number of the examination in the provider's radiology system. */
  accessionNumber: string;
  examinedAt: Date;
  issuedAt: Date;
  /** What the patient is referred for, e.g. "USG obu piersi". */
  referredFor: string;
  diagnosis: { icd10: string; name: string };
  /** Why: the finding that needs the further examination. */
  justification: string;
  urgent: boolean;
  physician: Radiologist;
};

const REFERRAL_TITLE = 'Skierowanie';

export async function renderReferral(input: ReferralInput): Promise<Uint8Array> {
  const layout = await PdfLayout.create({
    provider: input.provider,
    language: 'pl',
    title: REFERRAL_TITLE,
    subtitle: 'na diagnostykę pogłębioną piersi w ramach programu profilaktyki raka piersi',
    issuedAt: input.issuedAt,
  });
  drawPatientBlock(layout, 'pl', input.patient, input.examinedAt, [['Numer badania', input.accessionNumber]]);
  layout.fields([
    ['Świadczeniodawca kierujący', `${input.provider.legalName}, ${input.provider.address}`],
    ['Kieruję na', input.referredFor],
    ['Rozpoznanie (ICD-10)', `${input.diagnosis.icd10} – ${input.diagnosis.name}`],
    ['Tryb', input.urgent ? 'pilny – podejrzenie nowotworu złośliwego' : 'planowy'],
    ['Data wystawienia', formatDate(input.issuedAt, 'pl')],
  ]);
  layout.heading('Uzasadnienie skierowania');
  layout.paragraph(input.justification);
  layout.heading('Informacje dla pacjentki');
  layout.bullets([
    'Badanie można wykonać w dowolnej placówce z dołączonego wykazu placówek; termin należy uzgodnić telefonicznie.',
    'Na badanie należy zabrać dokument tożsamości, to skierowanie, opis mammografii oraz zdjęcia z poprzednich badań (płytę lub obraz ISO pobrany z portalu pacjenta).',
    'Diagnostyka pogłębiona w ramach programu profilaktyki raka piersi jest finansowana ze środków publicznych.',
    ...(input.urgent ? ['Ze względu na charakter zmiany badanie należy wykonać bez zbędnej zwłoki, najlepiej w ciągu 14 dni.'] : []),
  ]);
  layout.heading('Lekarz kierujący');
  layout.paragraph(describeRadiologist(input.physician, 'pl'));
  layout.paragraph(`Dokument podpisany elektronicznie ${formatDateTime(input.issuedAt, 'pl')}.`, { muted: true });
  return layout.save();
}
