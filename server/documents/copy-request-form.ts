import { PdfLayout, type ProviderInfo } from './layout';

const COPY_REQUEST_FORM_TITLE = 'Wniosek o wydanie kopii dokumentacji medycznej';

/** Fee for a copy of the digital images (DECISIONS.md 2); the description itself is free. */
const COPY_FEE = '21,00 zł';
const TRANSFER_TITLE = 'opłata za kopię';

/**
 * The paper request for a copy of medical records, for patients who do not order online: printed,
 * filled in by hand and sent with the proof of the bank transfer (spec section 2, information page
 * on copies). Texts name the fee and the transfer title exactly as the information page does.
 */
export async function renderCopyRequestForm(provider: ProviderInfo): Promise<Uint8Array> {
  const layout = await PdfLayout.create({
    provider,
    language: 'pl',
    title: COPY_REQUEST_FORM_TITLE,
    subtitle: 'art. 26–28 ustawy z dnia 6 listopada 2008 r. o prawach pacjenta i Rzeczniku Praw Pacjenta',
  });

  layout.heading('1. Dane pacjentki lub pacjenta');
  layout.fillLine('Imię i nazwisko');
  layout.characterBoxes('PESEL', 11);
  layout.fillRow(['Data urodzenia', 'Data badania']);
  layout.fillLine('Adres do korespondencji', { lines: 2 });
  layout.fillRow(['Telefon', 'E-mail']);

  layout.heading('2. Wnioskuję o wydanie (proszę zaznaczyć)');
  layout.checkbox('wyniku badania – opisu mammografii (bezpłatnie)');
  layout.checkbox('ankiety wypełnionej podczas badania');
  layout.checkbox(`zdjęć cyfrowych na płycie CD/DVD wraz z licencją przeglądarki obrazów (${COPY_FEE})`);
  layout.checkbox('wglądu w dokumentację w siedzibie placówki (bezpłatnie)');

  layout.heading('3. Sposób odbioru');
  layout.checkbox('odbiór osobisty w siedzibie placówki');
  layout.checkbox('wysyłka pocztą na adres do korespondencji podany powyżej');
  layout.checkbox('odbiór przez osobę upoważnioną:');
  layout.fillRow(['Imię i nazwisko', 'Nr dowodu osobistego lub paszportu']);

  layout.heading('4. Opłata');
  layout.paragraph(`Kopia zdjęć cyfrowych kosztuje ${COPY_FEE}, wynik badania jest bezpłatny. Dane do przelewu:`);
  layout.fields(
    [
      ['Odbiorca', provider.legalName],
      ['Numer rachunku', provider.bankAccount],
      ['Tytuł przelewu', `„${TRANSFER_TITLE}”, imię i nazwisko pacjentki lub pacjenta`],
    ],
    { labelWidth: 110 },
  );

  layout.heading('5. Oświadczenia');
  layout.checkbox(
    'Oświadczam, że jestem osobą, której dotyczy dokumentacja, albo jej przedstawicielem ustawowym, a dane we wniosku są zgodne z prawdą.',
  );
  layout.checkbox('Przyjmuję do wiadomości, że kopia zdjęć zostanie wydana po zaksięgowaniu opłaty.');

  layout.paragraph(
    `Podpisany wniosek z potwierdzeniem przelewu prosimy wysłać e-mailem na adres ${provider.email} ` +
      'lub pocztą na adres placówki podany w nagłówku.',
    { muted: true, size: 9 },
  );
  layout.signatureLines(['Miejscowość i data', 'Czytelny podpis wnioskodawcy']);
  return layout.save();
}
