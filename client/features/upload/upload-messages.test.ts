import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import { uploadErrorKey } from './upload-messages';

const format = (messages: Record<string, string>, locale: string) => (count: number) =>
  createIntl({ locale, messages }).formatMessage({ id: 'upload.skipped.notDicom' }, { count });

describe('the skipped-files message', () => {
  it('takes the Polish plural forms: one, few (2-4, 22-24 ...) and many (5-21, 25 ...)', () => {
    const polish = format(pl, 'pl');
    expect(polish(1)).toBe('1 plik nie jest obrazem DICOM i został pominięty');
    expect(polish(3)).toBe('3 pliki nie są obrazami DICOM i zostały pominięte');
    expect(polish(12)).toBe('12 plików nie jest obrazami DICOM i zostało pominiętych');
    expect(polish(22)).toBe('22 pliki nie są obrazami DICOM i zostały pominięte');
    expect(polish(25)).toBe('25 plików nie jest obrazami DICOM i zostało pominiętych');
  });

  it('reads as the spec says in English', () => {
    const english = format(en, 'en');
    expect(english(12)).toBe('12 files are not DICOM images and were skipped');
    expect(english(1)).toBe('1 file is not a DICOM image and was skipped');
  });
});

describe('uploadErrorKey', () => {
  it('names the upload codes, the request limit and the general codes, and falls back to the generic message', () => {
    expect(uploadErrorKey('UPLOAD_QUOTA_EXCEEDED')).toBe('errors.UPLOAD_QUOTA_EXCEEDED');
    expect(uploadErrorKey('PAYLOAD_TOO_LARGE')).toBe('errors.PAYLOAD_TOO_LARGE');
    expect(uploadErrorKey('NETWORK')).toBe('errors.offline');
    expect(uploadErrorKey('SOMETHING_NEW')).toBe('errors.generic');
  });
});
