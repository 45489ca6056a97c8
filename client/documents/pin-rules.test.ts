import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import pl from '../i18n/pl.json';
import { checkNewPin, MAX_PIN_DIGITS, MIN_PIN_DIGITS } from './pin-rules';

describe('checkNewPin', () => {
  it('accepts 6 to 20 digits typed twice alike', () => {
    expect(checkNewPin('482915', '482915')).toEqual({});
    expect(checkNewPin('48291573920174638201', '48291573920174638201')).toEqual({});
  });

  it('names the first problem of each field', () => {
    expect(checkNewPin('', '')).toEqual({ pin: 'offline.pin.errors.required', pinAgain: 'offline.pin.errors.againRequired' });
    expect(checkNewPin('4829 15', '4829 15').pin).toBe('offline.pin.errors.digitsOnly');
    expect(checkNewPin('48291', '48291').pin).toBe('offline.pin.errors.tooShort');
    expect(checkNewPin('4'.repeat(21), '4'.repeat(21)).pin).toBe('offline.pin.errors.tooLong');
    expect(checkNewPin('482915', '482951')).toEqual({ pinAgain: 'offline.pin.errors.mismatch' });
    // A PIN that is wrong already is not also called different.
    expect(checkNewPin('48291', '482915')).toEqual({ pin: 'offline.pin.errors.tooShort' });
  });

  it('refuses the PINs anyone tries first', () => {
    for (const pin of ['000000', '777777', '123456', '654321', '234567890', '901234']) {
      expect(checkNewPin(pin, pin).pin, pin).toBe('offline.pin.errors.tooSimple');
    }
    expect(checkNewPin('112233', '112233')).toEqual({});
  });

  it('says the same limits in both languages as it applies', () => {
    for (const catalog of [en, pl]) {
      expect(catalog['offline.pin.errors.tooShort']).toContain(String(MIN_PIN_DIGITS));
      expect(catalog['offline.pin.errors.tooLong']).toContain(String(MAX_PIN_DIGITS));
      expect(catalog['offline.keep.pinHint']).toContain(String(MIN_PIN_DIGITS));
    }
  });
});
