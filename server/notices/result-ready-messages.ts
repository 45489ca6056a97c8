import { escapeHtml } from '../lib/html';
import type { NoticeLanguage } from './result-ready-repo';

export type NoticeMail = { subject: string; text: string; html: string };

type Wording = {
  subject: string;
  greeting: string;
  ready: (provider: string) => string;
  action: string;
  button: string;
  privacy: string;
  signOff: string;
  automatic: string;
  sms: (link: string) => string;
};

/**
 * "Your result is ready": who writes and where to read it, never the result itself (no BI-RADS,
 * no finding, not even whether anything was found): mail and SMS are not a safe place for it, and
 * a result must come with its explanation, which the portal gives.
 */
const WORDING: Record<NoticeLanguage, Wording> = {
  pl: {
    subject: 'Wynik badania mammograficznego jest gotowy',
    greeting: 'Dzień dobry,',
    ready: (provider) => `wynik Pani badania mammograficznego w ${provider} jest już dostępny w portalu pacjenta.`,
    action: 'Aby go zobaczyć, zaloguj się w portalu:',
    button: 'Przejdź do portalu',
    privacy: 'Ze względu na ochronę Pani danych wynik nie jest przesyłany w wiadomości.',
    signOff: 'Z pozdrowieniami',
    automatic: 'Ta wiadomość została wysłana automatycznie. Prosimy na nią nie odpowiadać.',
    sms: (link) => `Wynik Pani badania mammograficznego jest gotowy. Zobaczysz go w portalu pacjenta: ${link}`,
  },
  en: {
    subject: 'Your mammography result is ready',
    greeting: 'Hello,',
    ready: (provider) => `the result of your mammography screening at ${provider} is now available in the patient portal.`,
    action: 'To see it, sign in to the portal:',
    button: 'Go to the portal',
    privacy: 'To protect your data, the result itself is not sent in this message.',
    signOff: 'Kind regards',
    automatic: 'This message was sent automatically. Please do not reply to it.',
    sms: (link) => `Your mammography result is ready. See it in the patient portal: ${link}`,
  },
};

export type ResultNoticeInput = { language: NoticeLanguage; link: string; providerName: string };

export function resultReadyMail({ language, link, providerName }: ResultNoticeInput): NoticeMail {
  const w = WORDING[language];
  const text = [
    w.greeting,
    '',
    w.ready(providerName),
    '',
    w.action,
    link,
    '',
    w.privacy,
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
<p>${e(w.ready(providerName))}</p>
<p>${e(w.action)}</p>
<p><a href="${e(link)}" style="display:inline-block;padding:12px 20px;background:#a3195b;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold">${e(w.button)}</a></p>
<p style="word-break:break-all;font-size:14px"><a href="${e(link)}" style="color:#a3195b">${e(link)}</a></p>
<p>${e(w.privacy)}</p>
<p>${e(w.signOff)}<br>${e(providerName)}</p>
<hr style="border:none;border-top:1px solid #cccccc">
<p style="font-size:13px;color:#555555">${e(w.automatic)}</p>
</body>
</html>
`;
  return { subject: w.subject, text, html };
}

export function resultReadySms({ language, link }: Omit<ResultNoticeInput, 'providerName'>): string {
  return WORDING[language].sms(link);
}
