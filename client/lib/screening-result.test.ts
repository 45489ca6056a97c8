import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import pl from '../i18n/pl.json';
import { downloadName } from '../documents/download-names';
import { documentLanguage, isDescriptionCompleted, resultExplanation, resultWordingKey } from './screening-result';

describe('the result scale (spec section 3)', () => {
  it.each([
    [1, 'Normal (negative)', 'Obraz prawidłowy (wynik negatywny)'],
    [2, 'Delicate change (benign finding)', 'Zmiana łagodna (niezłośliwa)'],
    [3, 'Possibly delicate change (probably benign)', 'Zmiana prawdopodobnie łagodna'],
    [4, 'Suspicious change (suspicious abnormality)', 'Zmiana podejrzana (wymaga dalszej diagnostyki)'],
    [5, 'Malicious change (highly suggestive of malignancy)', 'Zmiana o wysokim prawdopodobieństwie złośliwości'],
    [-1, 'Needs more checks (additional imaging needed)', 'Potrzebne dodatkowe badania (dodatkowe badanie obrazowe)'],
  ])('words BI-RADS %s in English and Polish', (value, english, polish) => {
    const key = resultWordingKey(value);
    expect(key).not.toBeNull();
    expect(en[key as keyof typeof en]).toBe(english);
    expect(pl[key as keyof typeof pl]).toBe(polish);
  });

  it('shows no result as blank, and an unknown value too', () => {
    expect(resultWordingKey(null)).toBeNull();
    expect(resultWordingKey(undefined)).toBeNull();
    expect(resultWordingKey(0)).toBeNull();
  });
});

describe('the result explained in plain words', () => {
  it.each([
    [1, 'routine', false],
    [2, 'routine', false],
    [3, 'followUp', true],
    [4, 'attention', true],
    [5, 'attention', true],
    [-1, 'followUp', true],
  ] as const)('gives BI-RADS %s the %s look, with the referral and booking texts: %s', (value, tone, furtherTests) => {
    const explanation = resultExplanation(value);
    expect(explanation).toMatchObject({ tone, furtherTests });
    for (const key of [explanation!.title, explanation!.meaning, explanation!.next]) {
      expect(key.startsWith('result.explanation.')).toBe(true);
      expect(en[key as keyof typeof en]).toBeTruthy();
      expect(pl[key as keyof typeof pl]).toBeTruthy();
    }
  });

  it('sets only 4 and 5 apart from a benign result, and explains nothing without a result', () => {
    expect([1, 2, 3, 4, 5, -1].filter((value) => resultExplanation(value)?.tone === 'attention')).toEqual([4, 5]);
    expect(resultExplanation(null)).toBeNull();
    expect(resultExplanation(undefined)).toBeNull();
    expect(resultExplanation(0)).toBeNull();
  });
});

describe('the description status (spec section 4)', () => {
  it('is completed only for desc_all_completed', () => {
    expect(isDescriptionCompleted('desc_all_completed')).toBe(true);
    expect(isDescriptionCompleted('desc_in_progress')).toBe(false);
    // The filter's spelling is not the status the result page shows as done.
    expect(isDescriptionCompleted('desc_all_finished')).toBe(false);
  });
});

describe('the language of a description from its name (spec section 3)', () => {
  it.each([
    ['opis-badania-2026-10-06-EN.pdf', 'en'],
    ['Opis EN.pdf', 'en'],
    ['description_DE.pdf', 'de'],
    ['opis-badania-2026-10-06.pdf', 'pl'],
    ['opis-PL.pdf', 'pl'],
    // Letters inside a word are not a language mark.
    ['DENSYTOMETRIA.pdf', 'pl'],
    ['OPIS_KONTENERA.pdf', 'pl'],
  ])('reads %s as %s', (name, language) => {
    expect(documentLanguage(name)).toBe(language);
  });
});

describe('download names', () => {
  it('names a description by the user language, examination day in Poland and the document language', () => {
    // 23:30 UTC on 5 October is already 6 October in Warsaw.
    expect(downloadName('description', 'pl', { examinedAt: '2026-10-05T23:30:00Z', documentLanguage: 'en' })).toBe(
      'opis-badania-2026-10-06-EN.pdf',
    );
    expect(downloadName('description', 'en', { examinedAt: '2026-10-06T08:00:00Z', documentLanguage: 'en' })).toBe(
      'screening-description-2026-10-06-EN.pdf',
    );
    expect(downloadName('isoInstruction', 'en')).toBe('iso-image-instruction.pdf');
  });
});
