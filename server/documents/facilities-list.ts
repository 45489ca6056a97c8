import { formatDate } from '../lib/dates';
import { PdfLayout, type ProviderInfo } from './layout';

export type Facility = {
  name: string;
  address: string;
  phone: string;
  /** Which examinations of further diagnostics the facility performs. */
  services: string;
};

export type FacilitiesListInput = {
  provider: ProviderInfo;
  issuedAt: Date;
  /** The region the list covers, e.g. "województwo mazowieckie". */
  region: string;
  facilities: Facility[];
};

/** "Wykaz placówek": where a referred patient can have the further diagnostics done. */
const FACILITIES_LIST_TITLE = 'Wykaz placówek';

export async function renderFacilitiesList(input: FacilitiesListInput): Promise<Uint8Array> {
  const layout = await PdfLayout.create({
    provider: input.provider,
    language: 'pl',
    title: FACILITIES_LIST_TITLE,
    subtitle: `Placówki wykonujące diagnostykę pogłębioną piersi – ${input.region}, stan na ${formatDate(input.issuedAt, 'pl')}`,
    issuedAt: input.issuedAt,
  });
  layout.paragraph(
    'Poniższe placówki realizują diagnostykę pogłębioną w ramach programu profilaktyki raka piersi. ' +
      'Pacjentka może wybrać dowolną z nich; przed wizytą należy telefonicznie uzgodnić termin badania.',
  );
  layout.table(
    [
      { header: 'Placówka', width: 29 },
      { header: 'Adres', width: 26 },
      { header: 'Telefon', width: 20 },
      { header: 'Zakres badań', width: 25 },
    ],
    input.facilities.map((facility) => [facility.name, facility.address, facility.phone, facility.services]),
  );
  layout.paragraph(
    'Aktualne informacje o placówkach i czasie oczekiwania udostępnia Narodowy Fundusz Zdrowia (infolinia 800\u00a0190\u00a0590).',
    { muted: true, size: 8.5 },
  );
  return layout.save();
}
