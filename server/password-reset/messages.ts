import type { ResetLanguage } from '../../common/validation/password-reset';
import { escapeHtml } from '../lib/html';

export type ResetMail = { subject: string; text: string; html: string };

type MailWording = {
  subject: string;
  greeting: string;
  request: (provider: string) => string;
  action: string;
  button: string;
  validity: (minutes: number) => string;
  notYou: string;
  signOff: string;
  automatic: string;
};

/**
 * What a patient reads when she asked for a new password: who writes, what to do, how long the
 * link works, and that nothing changes if she did not ask. Nothing personal beyond the link.
 */
const MAIL_WORDING: Record<ResetLanguage, MailWording> = {
  pl: {
    subject: 'Ustawienie nowego hasła w portalu pacjenta',
    greeting: 'Dzień dobry,',
    request: (provider) => `otrzymaliśmy prośbę o ustawienie nowego hasła do konta w portalu pacjenta ${provider}.`,
    action: 'Aby ustawić nowe hasło, otwórz poniższy link:',
    button: 'Ustaw nowe hasło',
    validity: (minutes) => `Link jest ważny przez ${minutes} minut i można go użyć tylko raz.`,
    notYou: 'Jeżeli prośba nie pochodzi od Ciebie, zignoruj tę wiadomość: dotychczasowe hasło pozostaje ważne.',
    signOff: 'Z pozdrowieniami',
    automatic: 'Ta wiadomość została wysłana automatycznie. Prosimy na nią nie odpowiadać.',
  },
  en: {
    subject: 'Setting a new password for the patient portal',
    greeting: 'Hello,',
    request: (provider) => `we have received a request to set a new password for your account in the patient portal of ${provider}.`,
    action: 'To set a new password, open this link:',
    button: 'Set a new password',
    validity: (minutes) => `The link is valid for ${minutes} minutes and can be used only once.`,
    notYou: 'If you did not ask for this, please ignore this message: your current password stays valid.',
    signOff: 'Kind regards',
    automatic: 'This message was sent automatically. Please do not reply to it.',
  },
};

export type ResetMessageInput = { language: ResetLanguage; link: string; providerName: string; validMinutes: number };

export function resetMail({ language, link, providerName, validMinutes }: ResetMessageInput): ResetMail {
  const w = MAIL_WORDING[language];
  const text = [
    w.greeting,
    '',
    w.request(providerName),
    '',
    w.action,
    link,
    '',
    w.validity(validMinutes),
    '',
    w.notYou,
    '',
    w.signOff,
    providerName,
    '',
    '--',
    w.automatic,
    '',
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${e(w.subject)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">
<p>${e(w.greeting)}</p>
<p>${e(w.request(providerName))}</p>
<p>${e(w.action)}</p>
<p><a href="${e(link)}" style="display:inline-block;padding:12px 20px;background:#a3195b;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold">${e(w.button)}</a></p>
<p style="word-break:break-all;font-size:14px"><a href="${e(link)}" style="color:#a3195b">${e(link)}</a></p>
<p>${e(w.validity(validMinutes))}</p>
<p>${e(w.notYou)}</p>
<p>${e(w.signOff)}<br>${e(providerName)}</p>
<hr style="border:none;border-top:1px solid #cccccc">
<p style="font-size:13px;color:#555555">${e(w.automatic)}</p>
</body>
</html>
`;
  return { subject: w.subject, text, html };
}

/** A few words before the link, so most links fit two SMS segments; the sender name says who writes. */
const SMS_WORDING: Record<ResetLanguage, (link: string, minutes: number) => string> = {
  pl: (link, minutes) => `Nowe hasło do portalu pacjenta ustawisz tutaj (link ważny ${minutes} min): ${link}`,
  en: (link, minutes) => `Set a new patient portal password here (link valid ${minutes} min): ${link}`,
};

export function resetSms({ language, link, validMinutes }: Omit<ResetMessageInput, 'providerName'>): string {
  return SMS_WORDING[language](link, validMinutes);
}
