import { renderInstruction, type InstructionContent, type InstructionLanguage } from './instruction';
import type { ProviderInfo } from './layout';

const REFERRAL_INFORMATION_TITLES: Record<InstructionLanguage, string> = {
  pl: 'Informacja o skierowaniu na diagnostykę pogłębioną',
  en: 'About your referral for further diagnostics',
};

function content(language: InstructionLanguage, provider: ProviderInfo): InstructionContent {
  if (language === 'en') {
    return {
      title: REFERRAL_INFORMATION_TITLES.en,
      intro:
        'You have received a referral because the radiologists saw something in your mammogram that needs a closer look. ' +
        'Most referrals end with a benign finding: a referral is not a diagnosis of cancer.',
      sections: [
        {
          heading: 'What the BI-RADS category means',
          bullets: [
            'BI-RADS 0: additional views or an ultrasound are needed before the image can be assessed.',
            'BI-RADS 3: probably benign (the risk of malignancy is below 2%); a follow-up examination after 6 months is recommended.',
            'BI-RADS 4: suspicious; a biopsy is recommended to establish the nature of the change.',
            'BI-RADS 5: highly suggestive of malignancy; an urgent biopsy and a consultation at a breast centre are needed.',
          ],
        },
        {
          heading: 'How to use the referral',
          bullets: [
            'Choose a facility from the list of facilities attached to your result and call to book an appointment.',
            'Bring an identity document, the referral, the mammography report and the images (a disc or the ISO image from the portal).',
            'The referral and the list of facilities are always available in the patient portal, under "Referrals".',
          ],
        },
        {
          heading: 'Questions',
          paragraphs: [
            'A radiologist can discuss your result with you in a phone consultation that you can order in the portal. ' +
              `You can also contact us: phone ${provider.phone}, email ${provider.email}.`,
          ],
        },
      ],
    };
  }
  return {
    title: REFERRAL_INFORMATION_TITLES.pl,
    intro:
      'Otrzymała Pani skierowanie, ponieważ w badaniu mammograficznym lekarze zauważyli obraz, który wymaga dokładniejszej oceny. ' +
      'Większość takich skierowań kończy się stwierdzeniem zmiany łagodnej – skierowanie nie oznacza rozpoznania choroby nowotworowej.',
    sections: [
      {
        heading: 'Co oznacza kategoria BI-RADS',
        bullets: [
          'BI-RADS 0: przed oceną obrazu potrzebne są dodatkowe zdjęcia lub badanie USG.',
          'BI-RADS 3: zmiana prawdopodobnie łagodna (ryzyko złośliwości poniżej 2%); zalecane badanie kontrolne po 6 miesiącach.',
          'BI-RADS 4: zmiana podejrzana; zalecana biopsja, która pozwoli ustalić jej charakter.',
          'BI-RADS 5: zmiana o wysokim prawdopodobieństwie złośliwości; konieczna pilna biopsja i konsultacja w ośrodku leczenia chorób piersi.',
        ],
      },
      {
        heading: 'Jak zrealizować skierowanie',
        bullets: [
          'Wybierz placówkę z wykazu placówek dołączonego do wyniku i zadzwoń, aby umówić termin.',
          'Zabierz dokument tożsamości, skierowanie, opis mammografii i zdjęcia (płytę lub obraz ISO z portalu).',
          'Skierowanie i wykaz placówek są zawsze dostępne w portalu pacjenta, w zakładce „Skierowania”.',
        ],
      },
      {
        heading: 'Pytania',
        paragraphs: [
          'Lekarz radiolog może omówić z Panią wynik podczas konsultacji telefonicznej, którą można zamówić w portalu. ' +
            `Można też skontaktować się z nami: tel. ${provider.phone}, e-mail ${provider.email}.`,
        ],
      },
    ],
  };
}

export function renderReferralInformation(provider: ProviderInfo, language: InstructionLanguage, issuedAt?: Date): Promise<Uint8Array> {
  return renderInstruction(provider, language, content(language, provider), issuedAt);
}
