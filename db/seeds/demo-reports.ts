import type { BiradsResult, BreastComposition, ExaminationType } from '../../server/documents';

export type ReportText = { findings: string[]; conclusion: string; recommendation: string };

export type DemoReferral = {
  referredFor: string;
  diagnosis: { icd10: string; name: string };
  justification: string;
  urgent: boolean;
};

/**
 * One screening's radiology report: the Polish original and, where the patient has them, the
 * English and German translations. Texts follow BI-RADS 5th edition wording for each category.
 */
export type DemoReport = {
  examinationType: ExaminationType;
  composition: BreastComposition;
  birads: BiradsResult;
  texts: { pl: ReportText; en?: ReportText; de?: ReportText };
  referral?: DemoReferral;
};

const SCREENING_DIAGNOSIS = { icd10: 'Z12.3', name: 'Specjalne badania przesiewowe w kierunku nowotworu sutka' };
const IMAGING_DIAGNOSIS = { icd10: 'R92', name: 'Nieprawidłowe wyniki badań diagnostycznych obrazowych sutka' };
const LUMP_DIAGNOSIS = { icd10: 'N63', name: 'Guzek w sutku, nieokreślony' };

const NEXT_SCREENING = {
  pl: 'Kolejna mammografia w ramach programu badań przesiewowych za 2 lata.',
  en: 'Next screening mammography in 2 years.',
  de: 'Nächste Screening-Mammographie in 2 Jahren.',
};

/** The result-portal demo: benign finding in dense breasts, supplementary ultrasound advised. */
export const BENIGN_FIBROADENOMA_DENSE: DemoReport = {
  examinationType: 'screening',
  composition: 'c',
  birads: 2,
  texts: {
    pl: {
      findings: [
        'W piersi prawej, w kwadrancie górnym zewnętrznym, owalny, ostro odgraniczony cień o średnicy 9 mm z gruboziarnistymi zwapnieniami typu „popcorn” – obraz typowy dla zwapniałego gruczolakowłókniaka, bez zmian w porównaniu z badaniem z 2024 r.',
        'W obu piersiach pojedyncze zwapnienia naczyniowe.',
        'Nie stwierdzono zmian ogniskowych podejrzanych o złośliwość, zaburzeń architektury ani skupisk mikrozwapnień. Skóra i brodawki bez zmian. Węzły chłonne pachowe o prawidłowej budowie.',
      ],
      conclusion: 'Zmiana łagodna: zwapniały gruczolakowłókniak piersi prawej. Zwapnienia naczyniowe obu piersi.',
      recommendation: `Ze względu na niejednorodnie gęstą budowę piersi (ACR c) zalecane uzupełniające badanie USG obu piersi. ${NEXT_SCREENING.pl}`,
    },
    en: {
      findings: [
        'Right breast, upper outer quadrant: an oval, circumscribed 9 mm opacity with coarse “popcorn” calcifications, typical of a calcified fibroadenoma, unchanged compared with the 2024 examination.',
        'Scattered vascular calcifications in both breasts.',
        'No suspicious masses, architectural distortion or grouped microcalcifications. Skin and nipples unremarkable. Axillary lymph nodes of normal morphology.',
      ],
      conclusion: 'Benign finding: calcified fibroadenoma of the right breast. Vascular calcifications in both breasts.',
      recommendation: `Because the breasts are heterogeneously dense (ACR c), a supplementary ultrasound of both breasts is recommended. ${NEXT_SCREENING.en}`,
    },
    de: {
      findings: [
        'Rechte Brust, oberer äußerer Quadrant: ovale, glatt begrenzte Verschattung von 9 mm mit groben „Popcorn“-Verkalkungen, typisch für ein verkalktes Fibroadenom, unverändert im Vergleich zur Voruntersuchung von 2024.',
        'Beidseits vereinzelte Gefäßverkalkungen.',
        'Kein malignomverdächtiger Herdbefund, keine Architekturstörung, keine gruppierten Mikroverkalkungen. Haut und Mamillen unauffällig. Axilläre Lymphknoten regelrecht konfiguriert.',
      ],
      conclusion: 'Gutartiger Befund: verkalktes Fibroadenom der rechten Brust. Gefäßverkalkungen beidseits.',
      recommendation: `Wegen der heterogen dichten Brust (ACR c) wird ergänzend eine Ultraschalluntersuchung beider Brüste empfohlen. ${NEXT_SCREENING.de}`,
    },
  },
  referral: {
    referredFor: 'Uzupełniające badanie USG obu piersi',
    diagnosis: SCREENING_DIAGNOSIS,
    justification:
      'Niejednorodnie gęsta budowa piersi (ACR c) obniża czułość mammografii; w mammografii zmiana łagodna (BI-RADS 2). Badanie USG uzupełni ocenę tkanki gruczołowej.',
    urgent: false,
  },
};

export const NEGATIVE: DemoReport = {
  examinationType: 'screening',
  composition: 'b',
  birads: 1,
  texts: {
    pl: {
      findings: [
        'Obie piersi symetryczne. Nie uwidoczniono zmian ogniskowych, zaburzeń architektury ani podejrzanych mikrozwapnień.',
        'Skóra i brodawki bez zmian. W dołach pachowych węzły chłonne prawidłowej wielkości, z zachowaną wnęką tłuszczową.',
      ],
      conclusion: 'Obraz mammograficzny prawidłowy, bez zmian podejrzanych.',
      recommendation: NEXT_SCREENING.pl,
    },
  },
};

export const BENIGN_LYMPH_NODE: DemoReport = {
  examinationType: 'screening',
  composition: 'b',
  birads: 2,
  texts: {
    pl: {
      findings: [
        'W piersi lewej, w kwadrancie górnym zewnętrznym, owalny węzeł chłonny wewnątrzpiersiowy o średnicy 7 mm, z zachowaną wnęką tłuszczową – obraz typowy dla zmiany łagodnej.',
        'W piersi prawej pojedyncze drobne zwapnienia skórne. Poza tym bez zmian ogniskowych, zaburzeń architektury i podejrzanych mikrozwapnień; obraz stabilny w porównaniu z badaniem z 2018 r.',
        'Skóra i brodawki bez zmian. Węzły chłonne pachowe prawidłowe.',
      ],
      conclusion: 'Zmiany łagodne: węzeł chłonny wewnątrzpiersiowy piersi lewej, zwapnienia skórne piersi prawej.',
      recommendation: NEXT_SCREENING.pl,
    },
    en: {
      findings: [
        'Left breast, upper outer quadrant: an oval 7 mm intramammary lymph node with a preserved fatty hilum, typical of a benign finding.',
        'Right breast: a few small dermal calcifications. Otherwise no masses, architectural distortion or suspicious microcalcifications; stable compared with the 2018 examination.',
        'Skin and nipples unremarkable. Axillary lymph nodes normal.',
      ],
      conclusion: 'Benign findings: intramammary lymph node in the left breast, dermal calcifications in the right breast.',
      recommendation: NEXT_SCREENING.en,
    },
  },
};

export const INCOMPLETE_ASYMMETRY: DemoReport = {
  examinationType: 'screening',
  composition: 'c',
  birads: -1,
  texts: {
    pl: {
      findings: [
        'W piersi lewej, w kwadrancie górnym zewnętrznym, w projekcji MLO asymetria ogniskowa o wymiarach około 12 mm, w projekcji CC niewidoczna jednoznacznie. Zmiana nowa w porównaniu z badaniem z 2020 r., bez towarzyszących mikrozwapnień.',
        'Pierś prawa bez zmian ogniskowych; zwapnienia skórne jak w badaniu poprzednim.',
        'Skóra i brodawki bez zmian. Węzły chłonne pachowe prawidłowe.',
      ],
      conclusion: 'Nowa asymetria ogniskowa piersi lewej, wymagająca uzupełniającej diagnostyki obrazowej przed ostateczną oceną.',
      recommendation:
        'Zalecane zdjęcia celowane z uciskiem miejscowym piersi lewej oraz badanie USG piersi lewej w ramach diagnostyki pogłębionej.',
    },
  },
  referral: {
    referredFor: 'Zdjęcia celowane z uciskiem miejscowym piersi lewej i badanie USG piersi lewej',
    diagnosis: IMAGING_DIAGNOSIS,
    justification:
      'Nowa asymetria ogniskowa w kwadrancie górnym zewnętrznym piersi lewej, widoczna w projekcji MLO (BI-RADS 0). Konieczna ocena w projekcjach uzupełniających i w USG.',
    urgent: false,
  },
};

export const PROBABLY_BENIGN_FIBROADENOMA: DemoReport = {
  examinationType: 'additional_views',
  composition: 'c',
  birads: 3,
  texts: {
    pl: {
      findings: [
        'Na zdjęciach celowanych z uciskiem miejscowym asymetrii w piersi lewej odpowiada owalna, dobrze odgraniczona zmiana o wymiarach 10 × 7 mm, bez mikrozwapnień i bez zaburzeń architektury.',
        'W badaniu USG w tej lokalizacji (godz. 2, 4 cm od brodawki) zmiana hipoechogeniczna, owalna, o równych zarysach, ułożona równolegle do skóry, bez wzmożonego przepływu w badaniu dopplerowskim – obraz sugeruje gruczolakowłókniaka.',
        'Węzły chłonne pachowe lewe prawidłowe.',
      ],
      conclusion: 'Zmiana prawdopodobnie łagodna piersi lewej (najpewniej gruczolakowłókniak).',
      recommendation: 'Kontrolna mammografia i USG piersi lewej za 6 miesięcy. W razie powiększenia się zmiany – biopsja gruboigłowa.',
    },
    de: {
      findings: [
        'In den Zielaufnahmen mit Kompressionstubus entspricht der Asymmetrie der linken Brust eine ovale, glatt begrenzte Läsion von 10 × 7 mm ohne Mikroverkalkungen und ohne Architekturstörung.',
        'Sonographisch an dieser Stelle (2 Uhr, 4 cm mamillenfern) eine ovale, glatt begrenzte, hypoechogene, hautparallel orientierte Läsion ohne vermehrte Vaskularisation in der Dopplersonographie – vereinbar mit einem Fibroadenom.',
        'Axilläre Lymphknoten links unauffällig.',
      ],
      conclusion: 'Wahrscheinlich gutartiger Befund der linken Brust (am ehesten Fibroadenom).',
      recommendation: 'Kontrolle mit Mammographie und Ultraschall der linken Brust in 6 Monaten. Bei Größenzunahme Stanzbiopsie.',
    },
  },
  referral: {
    referredFor: 'Kontrolna mammografia i USG piersi lewej za 6 miesięcy',
    diagnosis: IMAGING_DIAGNOSIS,
    justification:
      'Zmiana prawdopodobnie łagodna piersi lewej (BI-RADS 3), najpewniej gruczolakowłókniak; wymaga kontroli obrazowej po 6 miesiącach dla potwierdzenia stabilności.',
    urgent: false,
  },
};

export const SUSPICIOUS_MICROCALCIFICATIONS: DemoReport = {
  examinationType: 'screening',
  composition: 'c',
  birads: 4,
  texts: {
    pl: {
      findings: [
        'W piersi prawej, w kwadrancie górnym wewnętrznym, nowe w porównaniu z badaniem z 2022 r. skupisko drobnych, amorficznych mikrozwapnień o rozległości około 8 mm, o układzie grupowym.',
        'Zmiana w piersi lewej (gruczolakowłókniak) stabilna w kolejnych badaniach kontrolnych – obraz łagodny.',
        'Skóra i brodawki bez zmian. Węzły chłonne pachowe prawidłowe.',
      ],
      conclusion: 'Skupisko amorficznych mikrozwapnień w piersi prawej – zmiana podejrzana, wymaga weryfikacji histopatologicznej.',
      recommendation: 'Zalecana biopsja gruboigłowa wspomagana próżnią (VAB) mikrozwapnień piersi prawej pod kontrolą stereotaktyczną.',
    },
    en: {
      findings: [
        'Right breast, upper inner quadrant: a new group of fine amorphous microcalcifications about 8 mm in extent, not present in 2022.',
        'The left breast lesion (fibroadenoma) is stable on follow-up – benign appearance.',
        'Skin and nipples unremarkable. Axillary lymph nodes normal.',
      ],
      conclusion: 'Grouped amorphous microcalcifications in the right breast – suspicious, histological verification required.',
      recommendation: 'Stereotactic vacuum-assisted biopsy (VAB) of the right breast microcalcifications is recommended.',
    },
  },
  referral: {
    referredFor: 'Biopsja gruboigłowa wspomagana próżnią (VAB) mikrozwapnień piersi prawej pod kontrolą stereotaktyczną',
    diagnosis: IMAGING_DIAGNOSIS,
    justification:
      'Nowe skupisko amorficznych mikrozwapnień w kwadrancie górnym wewnętrznym piersi prawej, rozległość około 8 mm (BI-RADS 4).',
    urgent: true,
  },
};

export const HIGHLY_SUGGESTIVE_MASS: DemoReport = {
  examinationType: 'screening',
  composition: 'b',
  birads: 5,
  texts: {
    pl: {
      findings: [
        'W piersi lewej, w kwadrancie dolnym zewnętrznym, guz o nieregularnym kształcie i spikularnych zarysach, o wymiarach 16 × 14 mm, z towarzyszącymi drobnymi pleomorficznymi mikrozwapnieniami i zaciągnięciem przylegającej skóry. Zmiana nowa w porównaniu z badaniem z 2024 r.',
        'W dole pachowym lewym węzeł chłonny o pogrubiałej korze (12 mm) i zatartej wnęce tłuszczowej.',
        'Pierś prawa: klips po biopsji VAB w kwadrancie górnym wewnętrznym, okolica bez zmian. Gruczolakowłókniak piersi lewej stabilny.',
      ],
      conclusion: 'Guz piersi lewej o cechach wysoce podejrzanych o złośliwość. Podejrzany węzeł chłonny pachowy lewy.',
      recommendation:
        'Pilna diagnostyka pogłębiona: biopsja gruboigłowa guza piersi lewej i węzła chłonnego pachowego lewego pod kontrolą USG, a następnie konsultacja w ośrodku leczenia chorób piersi (Breast Unit). Pacjentka może otrzymać kartę diagnostyki i leczenia onkologicznego (DiLO).',
    },
    en: {
      findings: [
        'Left breast, lower outer quadrant: an irregular mass with spiculated margins measuring 16 × 14 mm, with associated fine pleomorphic microcalcifications and retraction of the adjacent skin; new compared with 2024.',
        'Left axilla: a lymph node with a thickened cortex (12 mm) and effaced fatty hilum.',
        'Right breast: marker clip after VAB in the upper inner quadrant, surroundings unchanged. The left breast fibroadenoma is stable.',
      ],
      conclusion: 'Left breast mass highly suggestive of malignancy. Suspicious left axillary lymph node.',
      recommendation:
        'Urgent further work-up: ultrasound-guided core needle biopsy of the left breast mass and of the left axillary lymph node, followed by a consultation at a breast centre (Breast Unit). The patient is eligible for the Polish fast-track oncology card (DiLO).',
    },
    de: {
      findings: [
        'Linke Brust, unterer äußerer Quadrant: unregelmäßig geformter, spikulierter Herdbefund von 16 × 14 mm mit begleitenden feinen pleomorphen Mikroverkalkungen und Einziehung der angrenzenden Haut; neu im Vergleich zu 2024.',
        'Linke Axilla: Lymphknoten mit verdickter Rinde (12 mm) und aufgehobenem Fetthilus.',
        'Rechte Brust: Markierungsclip nach Vakuumbiopsie im oberen inneren Quadranten, Umgebung unauffällig. Fibroadenom der linken Brust unverändert.',
      ],
      conclusion: 'Hochgradig malignomverdächtiger Herdbefund der linken Brust. Suspekter axillärer Lymphknoten links.',
      recommendation:
        'Dringende Abklärung: ultraschallgesteuerte Stanzbiopsie des Herdbefundes und des axillären Lymphknotens links, anschließend Vorstellung in einem Brustzentrum. Die Patientin kann die polnische Onkologie-Schnellpfadkarte (DiLO) erhalten.',
    },
  },
  referral: {
    referredFor:
      'Biopsja gruboigłowa guza piersi lewej i węzła chłonnego pachowego lewego pod kontrolą USG; konsultacja w ośrodku leczenia chorób piersi',
    diagnosis: LUMP_DIAGNOSIS,
    justification:
      'Guz piersi lewej o nieregularnym kształcie i spikularnych zarysach, 16 × 14 mm, z pleomorficznymi mikrozwapnieniami i zaciągnięciem skóry (BI-RADS 5); podejrzany węzeł chłonny pachowy lewy.',
    urgent: true,
  },
};
