import { isPolishPhoneNumber, type ContactLanguage, type ContactRequest } from '../../common/validation/contact';
import { escapeHtml } from '../lib/html';

export type ProviderMail = { subject: string; text: string; html: string };

/** The provider's staff work in Polish; the patient's language tells them how to answer. */
const LANGUAGE_NAMES: Record<ContactLanguage, string> = { pl: 'polski', en: 'angielski' };

const receivedAtFormat = new Intl.DateTimeFormat('pl-PL', {
  timeZone: 'Europe/Warsaw',
  dateStyle: 'long',
  timeStyle: 'short',
});

/**
 * The message forwarded to the provider's inbox: every field, as plain text and as HTML where
 * all of the patient's input is escaped. The subject names only the message number, since
 * subjects show up in notifications and mail logs that should not carry a patient's name.
 */
export function providerMail(id: number, message: ContactRequest, receivedAt: Date): ProviderMail {
  const phone = isPolishPhoneNumber(message.phoneNumber) ? message.phoneNumber : `${message.phoneNumber} (numer spoza Polski)`;
  const fields: [string, string][] = [
    ['Imię', message.firstName],
    ['Nazwisko', message.lastName],
    ['E-mail', message.email ?? '(nie podano)'],
    ['Telefon', phone],
    ['Język odpowiedzi', LANGUAGE_NAMES[message.language]],
    ['Zgoda na przetwarzanie danych', message.consent ? 'tak' : 'nie'],
    ['Otrzymano', receivedAtFormat.format(receivedAt)],
  ];
  const intro = `Wiadomość nr ${id} z formularza kontaktowego portalu pacjenta. Odpowiedź należy wysłać w ciągu 7 dni.`;

  const text = [intro, '', ...fields.map(([label, value]) => `${label}: ${value}`), '', 'Treść:', message.content, ''].join('\n');

  const rows = fields
    .map(
      ([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="pl">
<body style="font-family:sans-serif;font-size:14px">
<p>${escapeHtml(intro)}</p>
<table>
${rows}
</table>
<h2 style="font-size:16px">Treść</h2>
<p style="white-space:pre-wrap">${escapeHtml(message.content)}</p>
</body>
</html>
`;

  return { subject: `Formularz kontaktowy: wiadomość nr ${id}`, text, html };
}
