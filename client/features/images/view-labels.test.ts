import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import type { MessageKey, MessageValues, Translate } from '../../lib/intl';
import { imageAltText, shortViewName, slotName } from './view-labels';

function translator(locale: 'pl' | 'en') {
  const intl = createIntl({ locale, messages: locale === 'pl' ? pl : en });
  const t: Translate = (key: MessageKey, values?: MessageValues) => intl.formatMessage({ id: key }, values as Record<string, string>);
  return { t, formatDate: (value: string, options: Intl.DateTimeFormatOptions) => intl.formatDate(value, options) };
}

const rcc = { laterality: 'R' as const, viewPosition: 'CC', studyDate: '2025-03-14' };

describe('view labels', () => {
  it('names the side, the view and the day, in Polish and English', () => {
    const polish = translator('pl');
    expect(imageAltText(polish.t, polish.formatDate, rcc, null)).toBe('Prawa pierś, projekcja CC, 14 marca 2025');
    const english = translator('en');
    expect(imageAltText(english.t, english.formatDate, { ...rcc, laterality: 'L', viewPosition: 'MLO' }, null)).toBe(
      'Left breast, MLO view, March 14, 2025',
    );
  });

  it('takes the screening’s day for an image without one, whatever the time zone', () => {
    const { t, formatDate } = translator('pl');
    expect(imageAltText(t, formatDate, { ...rcc, studyDate: null }, '2024-04-23T07:30:00.000Z')).toBe(
      'Prawa pierś, projekcja CC, 23 kwietnia 2024',
    );
    expect(imageAltText(t, formatDate, { ...rcc, studyDate: null }, null)).toBe('Prawa pierś, projekcja CC, data nieznana');
  });

  it('says so when the side or the view is unknown', () => {
    const { t } = translator('pl');
    expect(shortViewName(t, { laterality: null, viewPosition: ' xccl' })).toBe('Strona nieznana, projekcja XCCL');
    expect(shortViewName(t, { laterality: 'L', viewPosition: null })).toBe('Lewa pierś, projekcja nieznana');
    expect(slotName(t, 'LMLO')).toBe('Lewa pierś, projekcja MLO');
  });
});
