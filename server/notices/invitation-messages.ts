import { escapeHtml } from '../lib/html';
import type { NoticeLanguage } from './result-ready-repo';
import type { NoticeMail } from './result-ready-messages';

type Wording = {
  subject: string;
  greeting: string;
  invitation: (provider: string) => string;
  offer: string;
  action: string;
  button: string;
  login: (email: string) => string;
  validity: (days: number) => string;
  notYou: string;
  signOff: string;
  automatic: string;
  sms: (link: string, days: number) => string;
};

/**
 * The provider's invitation to the patient portal: who invites, what the portal offers, how to
 * start (set a password through the link), the login, and how long the link works. Nothing about
 * her screenings.
 */
const WORDING: Record<NoticeLanguage, Wording> = {
  pl: {
    subject: 'Zaproszenie do portalu pacjenta',
    greeting: 'Dzień dobry,',
    invitation: (provider) => `${provider} zaprasza Panią do portalu pacjenta.`,
    offer: 'W portalu znajdzie Pani wyniki swoich badań mammograficznych, opisy, skierowania i zdjęcia.',
    action: 'Aby zacząć, ustaw hasło do konta, otwierając poniższy link:',
    button: 'Ustaw hasło',
    login: (email) => `Loginem do portalu jest adres e-mail: ${email}`,
    validity: (days) => `Link jest ważny przez ${days} dni i można go użyć tylko raz.`,
    notYou: 'Jeżeli ta wiadomość nie jest przeznaczona dla Pani, prosimy ją zignorować.',
    signOff: 'Z pozdrowieniami',
    automatic: 'Ta wiadomość została wysłana automatycznie. Prosimy na nią nie odpowiadać.',
    sms: (link, days) => `Zaproszenie do portalu pacjenta: ustaw hasło tutaj (link ważny ${days} dni): ${link}`,
  },
  en: {
    subject: 'Your invitation to the patient portal',
    greeting: 'Hello,',
    invitation: (provider) => `${provider} invites you to its patient portal.`,
    offer: 'In the portal you will find the results of your mammography screenings, their descriptions, referrals and images.',
    action: 'To start, set a password for your account by opening this link:',
    button: 'Set your password',
    login: (email) => `Your portal login is your email address: ${email}`,
    validity: (days) => `The link is valid for ${days} days and can be used only once.`,
    notYou: 'If this message was not meant for you, please ignore it.',
    signOff: 'Kind regards',
    automatic: 'This message was sent automatically. Please do not reply to it.',
    sms: (link, days) => `Invitation to the patient portal: set your password here (link valid ${days} days): ${link}`,
  },
};

export type InvitationInput = { language: NoticeLanguage; link: string; login: string; providerName: string; validDays: number };

export function invitationMail({ language, link, login, providerName, validDays }: InvitationInput): NoticeMail {
  const w = WORDING[language];
  const text = [
    w.greeting,
    '',
    w.invitation(providerName),
    w.offer,
    '',
    w.action,
    link,
    '',
    w.login(login),
    w.validity(validDays),
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
<p>${e(w.invitation(providerName))} ${e(w.offer)}</p>
<p>${e(w.action)}</p>
<p><a href="${e(link)}" style="display:inline-block;padding:12px 20px;background:#a3195b;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold">${e(w.button)}</a></p>
<p style="word-break:break-all;font-size:14px"><a href="${e(link)}" style="color:#a3195b">${e(link)}</a></p>
<p>${e(w.login(login))}<br>${e(w.validity(validDays))}</p>
<p>${e(w.notYou)}</p>
<p>${e(w.signOff)}<br>${e(providerName)}</p>
<hr style="border:none;border-top:1px solid #cccccc">
<p style="font-size:13px;color:#555555">${e(w.automatic)}</p>
</body>
</html>
`;
  return { subject: w.subject, text, html };
}

export function invitationSms({ language, link, validDays }: Pick<InvitationInput, 'language' | 'link' | 'validDays'>): string {
  return WORDING[language].sms(link, validDays);
}
