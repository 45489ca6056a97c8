/**
 * What the portal sells (DECISIONS.md 2: prices live here, in grosze, never in message texts)
 * and the sponsor banners of the result page.
 */
export const PRODUCTS = [
  {
    code: 'copy-of-records',
    kind: 'copy',
    name_pl: 'Kopia dokumentacji medycznej',
    name_en: 'Copy of the medical records',
    description_pl: 'Kopia wyniku, ankiety lub wgląd w dokumentację badania, bez zdjęć, do odbioru osobiście lub wysyłką. Bezpłatnie.',
    description_en:
      'A copy of the result or survey, or an inspection of the records, without the images, collected in person or sent by post. Free of charge.',
    price_grosze: 0,
  },
  {
    code: 'copy-of-images',
    kind: 'copy',
    name_pl: 'Kopia zdjęć mammograficznych',
    name_en: 'Copy of the mammography images',
    description_pl:
      'Cyfrowe zdjęcia z badania (obrazy DICOM) na płycie CD/DVD wraz z licencją przeglądarki, do odbioru osobiście lub wysyłką.',
    description_en: 'The digital images of the examination (DICOM) on a CD/DVD with a viewer licence, collected in person or sent by post.',
    price_grosze: 2100,
  },
  {
    code: 'translation-en',
    kind: 'translation_en',
    name_pl: 'Tłumaczenie opisu badania na język angielski',
    name_en: 'Translation of the report into English',
    description_pl: 'Opis badania przetłumaczony na język angielski przez tłumacza medycznego, dostępny w portalu w ciągu 5 dni roboczych.',
    description_en: 'The report translated into English by a medical translator, available in the portal within 5 business days.',
    price_grosze: 8900,
  },
  {
    code: 'translation-de',
    kind: 'translation_de',
    name_pl: 'Tłumaczenie opisu badania na język niemiecki',
    name_en: 'Translation of the report into German',
    description_pl: 'Opis badania przetłumaczony na język niemiecki przez tłumacza medycznego, dostępny w portalu w ciągu 5 dni roboczych.',
    description_en: 'The report translated into German by a medical translator, available in the portal within 5 business days.',
    price_grosze: 9900,
  },
  {
    code: 'radiologist-consultation',
    kind: 'consultation',
    name_pl: 'Konsultacja telefoniczna z lekarzem radiologiem',
    name_en: 'Phone consultation with a radiologist',
    description_pl: 'Rozmowa telefoniczna (do 20 minut) z lekarzem radiologiem, który omówi wynik badania i dalsze postępowanie.',
    description_en: 'A phone call (up to 20 minutes) with a radiologist who explains the result and the next steps.',
    price_grosze: 20000,
  },
] as const;

export const BANNERS = [
  {
    position: 'top-placement',
    image_url: '/banners/fundacja-rozowa-wstazka.svg',
    link_url: 'https://example.org/fundacja-rozowa-wstazka',
    alt_pl: 'Fundacja Różowa Wstążka (fikcyjna) – partner programu badań',
    alt_en: 'Pink Ribbon Foundation (fictional) – partner of the screening programme',
    sort_order: 1,
  },
  {
    position: 'top-placement',
    image_url: '/banners/miasto-przykladowo.svg',
    link_url: 'https://example.org/miasto-przykladowo',
    alt_pl: 'Miasto Przykładowo (fikcyjne) – patronat nad programem',
    alt_en: 'City of Przykładowo (fictional) – patron of the programme',
    sort_order: 2,
  },
  {
    position: 'bottom-placement',
    image_url: '/banners/stowarzyszenie-zdrowie-kobiet.svg',
    link_url: 'https://example.org/zdrowie-kobiet',
    alt_pl: 'Stowarzyszenie Zdrowie Kobiet (fikcyjne)',
    alt_en: "Women's Health Association (fictional)",
    sort_order: 1,
  },
  {
    position: 'bottom-placement',
    image_url: '/banners/laboratorium-aurora.svg',
    link_url: null,
    alt_pl: 'Laboratorium Aurora (fikcyjne) – sponsor',
    alt_en: 'Aurora Laboratory (fictional) – sponsor',
    sort_order: 2,
  },
] as const;
