import { renderInstruction, type InstructionContent, type InstructionLanguage } from './instruction';
import type { ProviderInfo } from './layout';

const ISO_INSTRUCTION_TITLES: Record<InstructionLanguage, string> = {
  pl: 'Instrukcja: obraz ISO z badaniem mammograficznym',
  en: 'Instructions: the ISO image of your mammogram',
};

function content(language: InstructionLanguage, provider: ProviderInfo): InstructionContent {
  if (language === 'en') {
    return {
      title: ISO_INSTRUCTION_TITLES.en,
      intro:
        'An ISO image is a single file holding an exact copy of a CD/DVD with the images of your mammography. The images are stored ' +
        'in the DICOM standard used by every radiology department, together with a DICOMDIR index, so any doctor can open them in ' +
        'a medical image viewer.',
      sections: [
        {
          heading: 'Ordering and downloading',
          bullets: [
            'In the result portal, in the "ISO image" section, choose "Generate". Preparing the image usually takes a few minutes.',
            'When the image is ready, a download button appears in the same section. The .iso file usually takes from several dozen to a few hundred megabytes.',
            'Download over a stable connection, preferably on a computer rather than a phone.',
          ],
        },
        {
          heading: 'Opening the image',
          bullets: [
            'Windows 10 and 11: double-click the file; Windows mounts it as a DVD drive.',
            'macOS: double-click the file; it appears in Finder as a disc.',
            'Linux: open it with the file manager or mount it with "mount -o loop".',
            'The mammograms open in any DICOM viewer. Your doctor will normally use the viewer of their own practice.',
          ],
        },
        {
          heading: 'Burning a disc for your doctor',
          paragraphs: [
            'If your doctor asks for a disc, burn the ISO image onto a blank CD or DVD with "Burn disc image" (Windows) or from Finder (macOS). ' +
              'Do not copy the .iso file itself onto the disc: the disc must hold its contents.',
          ],
        },
        {
          heading: 'Keeping your data safe',
          bullets: [
            'The image contains personal and medical data. Keep it in a safe place and do not send it through unprotected channels.',
            'The downloaded file stays on your device until you delete it; delete it when you no longer need it.',
            `Questions: phone ${provider.phone}, email ${provider.email}.`,
          ],
        },
      ],
    };
  }
  return {
    title: ISO_INSTRUCTION_TITLES.pl,
    intro:
      'Obraz ISO to jeden plik z wierną kopią płyty CD/DVD ze zdjęciami z Pani badania mammograficznego. Zdjęcia zapisano w standardzie ' +
      'DICOM, którego używają wszystkie pracownie radiologiczne, razem z katalogiem DICOMDIR, dzięki któremu każdy lekarz otworzy je ' +
      'w przeglądarce obrazów medycznych.',
    sections: [
      {
        heading: 'Jak zamówić i pobrać obraz',
        bullets: [
          'W portalu wyników, w sekcji „Obraz ISO”, wybierz „Generuj”. Przygotowanie obrazu trwa zwykle kilka minut.',
          'Gdy obraz będzie gotowy, w tej samej sekcji pojawi się przycisk pobierania. Plik .iso zajmuje zwykle od kilkudziesięciu do kilkuset megabajtów.',
          'Pobieraj plik przez stabilne połączenie internetowe, najlepiej na komputerze, a nie na telefonie.',
        ],
      },
      {
        heading: 'Jak otworzyć obraz',
        bullets: [
          'Windows 10 i 11: kliknij plik dwukrotnie – system podłączy go jako napęd DVD.',
          'macOS: kliknij plik dwukrotnie – obraz pojawi się w Finderze jako dysk.',
          'Linux: otwórz go w menedżerze plików albo podłącz poleceniem „mount -o loop”.',
          'Zdjęcia otworzysz w dowolnej przeglądarce plików DICOM. Lekarz zwykle korzysta z przeglądarki w swoim gabinecie.',
        ],
      },
      {
        heading: 'Jak nagrać płytę dla lekarza',
        paragraphs: [
          'Jeśli lekarz prosi o płytę, nagraj obraz ISO na czystą płytę CD lub DVD funkcją „Nagraj obraz dysku” (Windows) lub w Finderze (macOS). ' +
            'Nie kopiuj na płytę samego pliku .iso – płyta musi zawierać jego zawartość.',
        ],
      },
      {
        heading: 'Bezpieczeństwo danych',
        bullets: [
          'Obraz zawiera dane osobowe i medyczne. Przechowuj go w bezpiecznym miejscu i nie przesyłaj niezabezpieczonymi kanałami.',
          'Pobrany plik pozostaje na Twoim urządzeniu, dopóki go nie usuniesz – usuń go, gdy przestanie być potrzebny.',
          `Pytania: tel. ${provider.phone}, e-mail ${provider.email}.`,
        ],
      },
    ],
  };
}

export function renderIsoInstruction(provider: ProviderInfo, language: InstructionLanguage, issuedAt?: Date): Promise<Uint8Array> {
  return renderInstruction(provider, language, content(language, provider), issuedAt);
}
