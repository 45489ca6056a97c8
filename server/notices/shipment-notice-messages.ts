import { escapeHtml } from '../lib/html';

/** The statuses a patient is told about (DECISIONS.md 18); `not_applicable` is never announced. */
export type NoticeShipmentStatus = 'awaiting' | 'prepared' | 'sent' | 'delivered' | 'collected';
export type NoticeLanguage = 'pl' | 'en';

export type ShipmentNoticeFacts = {
  /** The order's number as she quotes it, e.g. "MP-000042". */
  number: string;
  status: NoticeShipmentStatus;
  /** The carrier's tracking number of a sent copy, when the provider gave one. */
  trackingNumber: string | null;
  /** The order's page in the portal. */
  orderUrl: string;
};

type Wording = {
  subject: string;
  greeting: string;
  status: Record<NoticeShipmentStatus, (number: string) => string>;
  tracking: (trackingNumber: string) => string;
  details: string;
  signOff: string;
  automatic: string;
  sms: (number: string, status: string) => string;
  smsStatus: Record<NoticeShipmentStatus, string>;
};

/**
 * A short notice of a copy order's shipment: which order, what happened, where to look. It names
 * no examination, result or health detail; the order page behind the sign-in shows the rest.
 */
const WORDING: Record<NoticeLanguage, Wording> = {
  pl: {
    subject: 'Zmiana statusu zamówienia',
    greeting: 'Dzień dobry,',
    status: {
      awaiting: (n) => `zamówienie nr ${n} oczekuje na przygotowanie.`,
      prepared: (n) => `zamówienie nr ${n} zostało przygotowane.`,
      sent: (n) => `zamówienie nr ${n} zostało wysłane.`,
      delivered: (n) => `zamówienie nr ${n} zostało doręczone.`,
      collected: (n) => `zamówienie nr ${n} zostało odebrane osobiście.`,
    },
    tracking: (t) => `Numer przesyłki: ${t}.`,
    details: 'Szczegóły zamówienia są w portalu pacjenta:',
    signOff: 'Z pozdrowieniami',
    automatic: 'Ta wiadomość została wysłana automatycznie. Prosimy na nią nie odpowiadać.',
    sms: (n, status) => `Zamówienie ${n}: ${status}. Szczegóły w portalu pacjenta.`,
    smsStatus: {
      awaiting: 'oczekuje na przygotowanie',
      prepared: 'przygotowane',
      sent: 'wysłane',
      delivered: 'doręczone',
      collected: 'odebrane',
    },
  },
  en: {
    subject: 'Your order status has changed',
    greeting: 'Hello,',
    status: {
      awaiting: (n) => `order no. ${n} is waiting to be prepared.`,
      prepared: (n) => `order no. ${n} has been prepared.`,
      sent: (n) => `order no. ${n} has been sent.`,
      delivered: (n) => `order no. ${n} has been delivered.`,
      collected: (n) => `order no. ${n} has been collected in person.`,
    },
    tracking: (t) => `Tracking number: ${t}.`,
    details: 'The details of your order are in the patient portal:',
    signOff: 'Kind regards',
    automatic: 'This message was sent automatically. Please do not reply to it.',
    sms: (n, status) => `Order ${n}: ${status}. Details in the patient portal.`,
    smsStatus: {
      awaiting: 'waiting to be prepared',
      prepared: 'prepared',
      sent: 'sent',
      delivered: 'delivered',
      collected: 'collected',
    },
  },
};

export function shipmentNoticeMail(language: NoticeLanguage, facts: ShipmentNoticeFacts, providerName: string) {
  const w = WORDING[language];
  const lines = [
    w.greeting,
    '',
    w.status[facts.status](facts.number),
    ...(facts.status === 'sent' && facts.trackingNumber ? [w.tracking(facts.trackingNumber)] : []),
    '',
    w.details,
    facts.orderUrl,
    '',
    w.signOff,
    providerName,
    '',
    w.automatic,
  ];
  const paragraphs = [
    `<p>${escapeHtml(w.greeting)}</p>`,
    `<p>${escapeHtml(w.status[facts.status](facts.number))}${
      facts.status === 'sent' && facts.trackingNumber ? `<br>${escapeHtml(w.tracking(facts.trackingNumber))}` : ''
    }</p>`,
    `<p>${escapeHtml(w.details)}<br><a href="${escapeHtml(facts.orderUrl)}">${escapeHtml(facts.orderUrl)}</a></p>`,
    `<p>${escapeHtml(w.signOff)}<br>${escapeHtml(providerName)}</p>`,
    `<p><small>${escapeHtml(w.automatic)}</small></p>`,
  ];
  return { subject: w.subject, text: lines.join('\n'), html: paragraphs.join('\n') };
}

/** The SMS: the order's number, its new status and the order page, nothing more. */
export function shipmentNoticeSms(language: NoticeLanguage, facts: ShipmentNoticeFacts): string {
  const w = WORDING[language];
  return `${w.sms(facts.number, w.smsStatus[facts.status])} ${facts.orderUrl}`;
}
