import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import { refusalKey, skipKey, uploadErrorKey } from './upload-messages';
import { SKIP_REASONS } from './run-types';

const format = (messages: Record<string, string>, locale: string) => (id: string, values: Record<string, string | number>) =>
  createIntl({ locale, messages }).formatMessage({ id }, values);

describe('the skipped-files messages', () => {
  it('take the Polish plural forms: one, few (2-4, 22-24 ...) and many (5-21, 25 ...)', () => {
    const polish = format(pl, 'pl');
    expect(polish('upload.skipped.notDicom', { count: 1 })).toBe('1 plik nie jest obrazem DICOM i został pominięty');
    expect(polish('upload.skipped.notDicom', { count: 3 })).toBe('3 pliki nie są obrazami DICOM i zostały pominięte');
    expect(polish('upload.skipped.notDicom', { count: 12 })).toBe('12 plików nie jest obrazami DICOM i zostało pominiętych');
    expect(polish('upload.skipped.alreadyStored', { count: 22 })).toBe('22 obrazy są już na Twoim koncie i nie zostały wysłane ponownie');
    expect(polish('upload.skipped.alreadyStored', { count: 25 })).toBe(
      '25 obrazów jest już na Twoim koncie i nie zostało wysłanych ponownie',
    );
  });

  it('read as the spec says in English, and every reason has one', () => {
    const english = format(en, 'en');
    expect(english('upload.skipped.notDicom', { count: 12 })).toBe('12 files are not DICOM images and were skipped');
    expect(english('upload.skipped.alreadyStored', { count: 1 })).toBe('1 image is already in your account and was not sent again');
    for (const reason of SKIP_REASONS) {
      expect(english(skipKey(reason), { count: 2, max: '2 GB' })).toMatch(/^2 /);
    }
  });
});

describe('uploadErrorKey', () => {
  it('names every code of the resumable upload, the client codes and the general ones, and falls back to the generic message', () => {
    const english = format(en, 'en');
    for (const code of [
      'UPLOAD_FILE_TOO_LARGE',
      'UPLOAD_QUOTA_EXCEEDED',
      'UPLOAD_BAD_REQUEST',
      'UPLOAD_INCOMPLETE',
      'UPLOAD_OFFSET_CONFLICT',
      'UPLOAD_BUSY',
      'NOT_FOUND',
      'UNAUTHENTICATED',
      'INVALID_CSRF_TOKEN',
      'NETWORK',
      'FILE_UNREADABLE',
    ]) {
      expect(uploadErrorKey(code), code).not.toBe('errors.generic');
      expect(english(uploadErrorKey(code), {}), code).not.toBe(uploadErrorKey(code));
    }
    expect(uploadErrorKey('UPLOAD_QUOTA_EXCEEDED')).toBe('errors.UPLOAD_QUOTA_EXCEEDED');
    expect(uploadErrorKey('UNAUTHENTICATED')).toBe('upload.error.sessionEnded');
    expect(uploadErrorKey('SOMETHING_NEW')).toBe('errors.generic');
  });

  it('names each refusal reason of the server, and a damaged file for one it does not know', () => {
    expect(refusalKey('dicomdir')).toBe('upload.refusal.dicomdir');
    expect(refusalKey('unreadable')).toBe('upload.refusal.unreadable');
    expect(refusalKey('something_else')).toBe('upload.refusal.unreadable');
  });
});
