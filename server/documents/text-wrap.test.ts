import { describe, expect, it } from 'vitest';
import { wrapText } from './text-wrap';

// One point per character keeps the expectations readable.
const measure = (text: string) => text.length;

describe('wrapText', () => {
  it('breaks at spaces and keeps every line within the width', () => {
    const lines = wrapText('Piersi o budowie tłuszczowej bez zmian ogniskowych', 20, measure);
    expect(lines).toEqual(['Piersi o budowie', 'tłuszczowej bez', 'zmian ogniskowych']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
  });

  it('splits a word only when it is wider than a whole line', () => {
    expect(wrapText('krótkie słowa', 8, measure)).toEqual(['krótkie', 'słowa']);
    expect(wrapText('gruczolakowłókniak', 8, measure)).toEqual(['gruczola', 'kowłókni', 'ak']);
  });

  it('keeps explicit line breaks and empty lines', () => {
    expect(wrapText('Wnioski:\n\nzmiana łagodna', 40, measure)).toEqual(['Wnioski:', '', 'zmiana łagodna']);
  });

  it('drops repeated spaces instead of printing them', () => {
    expect(wrapText('BI-RADS   2', 40, measure)).toEqual(['BI-RADS 2']);
  });
});

describe('wrapText at hyphens', () => {
  it('breaks a compound word after its hyphen rather than inside a part', () => {
    expect(wrapText('konsultacja chirurgiczno-onkologiczna', 26, measure)).toEqual(['konsultacja chirurgiczno-', 'onkologiczna']);
  });

  it('keeps short prefixes and numbers joined', () => {
    expect(wrapText('kategoria BI-RADS 5', 13, measure)).toEqual(['kategoria', 'BI-RADS 5']);
    expect(wrapText('ul. Lipowa 3, 26-600 Radom', 16, measure)).toEqual(['ul. Lipowa 3,', '26-600 Radom']);
  });
});

describe('wrapText of a compound wider than the line', () => {
  it('starts a line with the compound and breaks it at the hyphen', () => {
    expect(wrapText('konsultacja chirurgiczno-onkologiczna', 14, measure)).toEqual(['konsultacja', 'chirurgiczno-', 'onkologiczna']);
  });
});
