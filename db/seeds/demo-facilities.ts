import type { Facility } from '../../server/documents';

/** Fictional facilities of further breast diagnostics, printed on the "Wykaz placówek" PDF. */
export const DEMO_FACILITIES_REGION = 'województwo mazowieckie';

export const DEMO_FACILITIES: Facility[] = [
  {
    name: 'Centrum Diagnostyki Piersi „Amelia” (placówka fikcyjna)',
    address: 'ul. Słoneczna 14, 00-789 Warszawa',
    phone: '+48 22 000 11 00',
    services: 'mammografia celowana, USG piersi, biopsja gruboigłowa i VAB',
  },
  {
    name: 'Mazowiecki Ośrodek Chorób Piersi (placówka fikcyjna)',
    address: 'al. Przykładowa 40, 02-001 Warszawa',
    phone: '+48 22 000 12 00',
    services: 'USG piersi, biopsja gruboigłowa, konsultacja chirurgiczno-onkologiczna (Breast Unit)',
  },
  {
    name: 'Radomskie Centrum Mammografii (placówka fikcyjna)',
    address: 'ul. Lipowa 3, 26-600 Radom',
    phone: '+48 48 000 13 00',
    services: 'mammografia celowana, USG piersi',
  },
  {
    name: 'Pracownia Diagnostyki Piersi Szpitala Przykładowego (placówka fikcyjna)',
    address: 'ul. Klonowa 8, 09-400 Płock',
    phone: '+48 24 000 14 00',
    services: 'mammografia celowana, USG piersi, biopsja gruboigłowa',
  },
  {
    name: 'Poradnia Chorób Piersi „Kalina” (placówka fikcyjna)',
    address: 'ul. Akacjowa 21, 08-110 Siedlce',
    phone: '+48 25 000 15 00',
    services: 'USG piersi, biopsja gruboigłowa',
  },
  {
    name: 'Ośrodek Diagnostyki Obrazowej „Narew” (placówka fikcyjna)',
    address: 'ul. Nadrzeczna 5, 07-410 Ostrołęka',
    phone: '+48 29 000 16 00',
    services: 'mammografia celowana, USG piersi',
  },
];
