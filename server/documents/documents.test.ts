import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  renderCopyRequestForm,
  renderFacilitiesList,
  renderIsoInstruction,
  renderReferral,
  renderReferralInformation,
  renderResultDescription,
  type ResultDescriptionInput,
} from '.';
import { readPdfText } from '../../tests/support/read-pdf-text';

const provider = {
  legalName: 'Centrum Badań Piersi „Różana” sp. z o.o. (dane fikcyjne)',
  address: 'ul. Źródlana 7, 90-001 Łódź',
  phone: '+48 42 000 00 00',
  email: 'rejestracja@example.com',
  bankAccount: 'PL12 3456 0000 0000 0000 0000 0000',
};
const patient = { firstName: 'Katarzyna', lastName: 'Zielińska', pesel: '68041209860', birthAt: '1968-04-12' };
const radiologist = { name: 'lek. Małgorzata Wójcik', licenceNumber: '5425740' };
const A4 = { width: 595.28, height: 841.89 };

function description(overrides: Partial<ResultDescriptionInput> = {}): ResultDescriptionInput {
  return {
    provider,
    language: 'pl',
    patient,
    accessionNumber: 'MMG/2026/10/04127',
    examinedAt: new Date('2026-10-06T08:40:00Z'),
    examinationType: 'screening',
    absorbedDoseMgy: 4.62,
    composition: 'c',
    birads: 2,
    findings: ['W piersi prawej owalny, ostro odgraniczony cień ze zwapnieniami typu „popcorn” – zwapniały gruczolakowłókniak.'],
    conclusion: 'Zmiana łagodna piersi prawej.',
    recommendation: 'Uzupełniające badanie USG obu piersi.',
    readers: [radiologist],
    signedAt: new Date('2026-10-09T12:15:00Z'),
    ...overrides,
  };
}

async function pageSizes(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => page.getSize());
}

describe('result description', () => {
  it('reads back in Polish with diacritics, the letterhead, the patient and the BI-RADS category', async () => {
    const text = await readPdfText(await renderResultDescription(description()));
    for (const expected of [
      'Centrum Badań Piersi „Różana” sp. z o.o. (dane fikcyjne)',
      'ul. Źródlana 7, 90-001 Łódź',
      'Opis badania mammograficznego',
      'Katarzyna Zielińska',
      '68041209860',
      '12.04.1968',
      '06.10.2026 10:40',
      'gruczołowa, niejednorodnie gęsta (ACR c)',
      '4,62 mGy',
      'BI-RADS 2 – zmiana łagodna',
      'lek. Małgorzata Wójcik, specjalista radiologii i diagnostyki obrazowej, nr PWZ 5425740',
      'Dokument podpisany elektronicznie 09.10.2026 14:15.',
      'Strona 1 z 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('is a translation in English and German, with their own labels and page numbers', async () => {
    const english = await readPdfText(await renderResultDescription(description({ language: 'en', birads: -1 })));
    expect(english).toContain('Mammography report');
    expect(english).toContain('BI-RADS 0 – incomplete: additional imaging evaluation needed');
    expect(english).toContain('4.62 mGy');
    expect(english).toContain('the Polish version prevails');
    expect(english).toContain('Page 1 of 1');
    const german = await readPdfText(await renderResultDescription(description({ language: 'de', birads: 5 })));
    expect(german).toContain('Mammographiebefund');
    expect(german).toContain('BI-RADS 5 – hochgradig malignomverdächtiger Befund');
    expect(german).toContain('Übersetzung des polnischen Originalbefundes');
    expect(german).toContain('Seite 1 von 1');
  });

  it('continues a long report on A4 pages that each carry the letterhead and their number', async () => {
    const findings = Array.from(
      { length: 40 },
      (_, index) => `Akapit ${index + 1}: bez zmian ogniskowych, skóra i brodawki bez zmian, węzły chłonne pachowe prawidłowe.`,
    );
    const bytes = await renderResultDescription(description({ findings }));
    const sizes = await pageSizes(bytes);
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toEqual(A4);
    const text = await readPdfText(bytes);
    expect(text.split('Centrum Badań Piersi').length - 1).toBe(sizes.length);
    expect(text).toContain(`Strona ${sizes.length} z ${sizes.length}`);
    expect(text).toContain('Akapit 40: bez zmian ogniskowych');
  });

  it('gives the same bytes for the same input, so stored checksums stay meaningful', async () => {
    const first = await renderResultDescription(description());
    const second = await renderResultDescription(description());
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });
});

describe('referral and facilities list', () => {
  it('names what the patient is referred for, the ICD-10 diagnosis and the urgency', async () => {
    const text = await readPdfText(
      await renderReferral({
        provider,
        patient,
        accessionNumber: 'MMG/2026/10/04127',
        examinedAt: new Date('2026-10-06T08:40:00Z'),
        issuedAt: new Date('2026-10-09T12:15:00Z'),
        referredFor: 'Biopsja gruboigłowa zmiany w piersi lewej pod kontrolą USG',
        diagnosis: { icd10: 'R92', name: 'Nieprawidłowe wyniki diagnostyki obrazowej sutka' },
        justification: 'Guz o spikularnych zarysach w piersi lewej.',
        urgent: true,
        physician: radiologist,
      }),
    );
    expect(text).toContain('Skierowanie');
    expect(text).toContain('Kieruję na Biopsja gruboigłowa zmiany w piersi lewej pod kontrolą USG');
    expect(text).toContain('R92 – Nieprawidłowe wyniki diagnostyki obrazowej sutka');
    expect(text).toContain('pilny – podejrzenie nowotworu złośliwego');
    expect(text).toContain('Katarzyna Zielińska');
  });

  it('lists every facility, repeating the table header on each page', async () => {
    const facilities = Array.from({ length: 25 }, (_, index) => ({
      name: `Pracownia Diagnostyki Piersi nr ${index + 1} (fikcyjna)`,
      address: `ul. Łąkowa ${index + 1}, 00-950 Warszawa`,
      phone: '+48 22 000 10 00',
      services: 'mammografia celowana, USG piersi, biopsja gruboigłowa',
    }));
    const bytes = await renderFacilitiesList({
      provider,
      issuedAt: new Date('2026-10-09T12:15:00Z'),
      region: 'województwo łódzkie',
      facilities,
    });
    const pages = (await pageSizes(bytes)).length;
    expect(pages).toBeGreaterThan(1);
    const text = await readPdfText(bytes);
    expect(text).toContain('Wykaz placówek');
    expect(text).toContain('województwo łódzkie, stan na 09.10.2026');
    expect(text).toContain('Pracownia Diagnostyki Piersi nr 25 (fikcyjna)');
    expect(text.split('Zakres badań').length - 1).toBe(pages);
  });
});

describe('instructions and the copy request form', () => {
  it('has the ISO instruction and the referral information in Polish and English', async () => {
    expect(await readPdfText(await renderIsoInstruction(provider, 'pl'))).toContain('Jak nagrać płytę dla lekarza');
    expect(await readPdfText(await renderIsoInstruction(provider, 'en'))).toContain('Burning a disc for your doctor');
    const polish = await readPdfText(await renderReferralInformation(provider, 'pl'));
    expect(polish).toContain('stwierdzeniem zmiany łagodnej');
    expect(polish).toContain('tel. +48 42 000 00 00, e-mail rejestracja@example.com');
    expect(await readPdfText(await renderReferralInformation(provider, 'en'))).toContain('a referral is not a diagnosis of cancer');
  });

  it('is a one-page form with the document types, the fee, the transfer title and the bank account', async () => {
    const bytes = await renderCopyRequestForm(provider);
    expect(await pageSizes(bytes)).toEqual([A4]);
    const text = await readPdfText(bytes);
    for (const expected of [
      'Wniosek o wydanie kopii dokumentacji medycznej',
      'wyniku badania',
      'ankiety',
      'zdjęć cyfrowych na płycie CD/DVD wraz z licencją',
      'wglądu w dokumentację',
      '21,00 zł',
      '„opłata za kopię”',
      'PL12 3456 0000 0000 0000 0000 0000',
      'Czytelny podpis wnioskodawcy',
    ]) {
      expect(text).toContain(expected);
    }
  });
});
