import { describe, expect, it } from 'vitest';
import { resetMail, resetSms } from './messages';

const link = 'https://portal.example.test/change-password/0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60';

describe('reset mail', () => {
  it.each([
    ['pl', 'Ustawienie nowego hasła w portalu pacjenta', 'Link jest ważny przez 60 minut i można go użyć tylko raz.', 'Ustaw nowe hasło'],
    [
      'en',
      'Setting a new password for the patient portal',
      'The link is valid for 60 minutes and can be used only once.',
      'Set a new password',
    ],
  ] as const)('in %s carries the link, its validity and the provider in text and HTML', (language, subject, validity, button) => {
    const mail = resetMail({ language, link, providerName: 'Centrum Testowe', validMinutes: 60 });

    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain(validity);
    expect(mail.text).toContain('Centrum Testowe');
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain(`>${button}</a>`);
    expect(mail.html).toContain(validity);
  });

  it('tells a patient who did not ask that nothing changes', () => {
    expect(resetMail({ language: 'pl', link, providerName: 'X', validMinutes: 60 }).text).toContain('dotychczasowe hasło pozostaje ważne');
    expect(resetMail({ language: 'en', link, providerName: 'X', validMinutes: 60 }).text).toContain('your current password stays valid');
  });

  it('escapes the configured provider name in HTML', () => {
    const mail = resetMail({ language: 'en', link, providerName: 'Kowalski & Syn <Centrum>', validMinutes: 60 });

    expect(mail.html).toContain('Kowalski &amp; Syn &lt;Centrum&gt;');
    expect(mail.html).not.toContain('<Centrum>');
    expect(mail.text).toContain('Kowalski & Syn <Centrum>');
  });
});

describe('reset SMS', () => {
  it.each(['pl', 'en'] as const)('in %s is one short line ending with the link', (language) => {
    const text = resetSms({ language, link, validMinutes: 60 });

    expect(text.endsWith(` ${link}`)).toBe(true);
    expect(text).not.toContain('\n');
    // The words leave room for the link within two SMS segments even in Unicode (2 x 67).
    expect([...text.replace(link, '')].length).toBeLessThanOrEqual(70);
  });
});
