import type { LocalizedText, Money } from '../../common/types/orders';
import { escapeHtml } from '../lib/html';

/** The mails of an order, in the language she ordered in (DECISIONS.md 13: through the outbox). */
export type OrderMailKind = 'received' | 'paid' | 'cancelled' | 'expired';
type Language = 'pl' | 'en';

export type OrderMailFacts = {
  number: string;
  product: LocalizedText;
  price: Money;
  /** The order's page in the portal, where she sees its status. */
  statusUrl: string;
};

const TEXTS: Record<Language, Record<OrderMailKind, { subject: string; lines: (facts: OrderMailFacts, price: string) => string[] }>> = {
  pl: {
    received: {
      subject: 'Przyjęliśmy zamówienie',
      lines: (f, price) => [`Przyjęliśmy Pani zamówienie nr ${f.number}: ${f.product.pl}, cena ${price}.`],
    },
    paid: {
      subject: 'Otrzymaliśmy płatność',
      lines: (f, price) => [
        `Otrzymaliśmy płatność za zamówienie nr ${f.number}: ${f.product.pl}, ${price}.`,
        'Dziękujemy. Zajmiemy się zamówieniem.',
      ],
    },
    cancelled: {
      subject: 'Płatność anulowana',
      lines: (f) => [
        `Płatność za zamówienie nr ${f.number} (${f.product.pl}) została anulowana, a zamówienie zamknięte.`,
        'Może Pani złożyć nowe zamówienie w portalu.',
      ],
    },
    expired: {
      subject: 'Zamówienie wygasło',
      lines: (f) => [
        `Nie otrzymaliśmy płatności za zamówienie nr ${f.number} (${f.product.pl}) w wyznaczonym czasie, więc zamówienie zostało anulowane.`,
        'Może Pani złożyć nowe zamówienie w portalu.',
      ],
    },
  },
  en: {
    received: {
      subject: 'We have received your order',
      lines: (f, price) => [`We have received your order no. ${f.number}: ${f.product.en}, price ${price}.`],
    },
    paid: {
      subject: 'We have received your payment',
      lines: (f, price) => [
        `We have received your payment for order no. ${f.number}: ${f.product.en}, ${price}.`,
        'Thank you. We will take care of your order.',
      ],
    },
    cancelled: {
      subject: 'Payment cancelled',
      lines: (f) => [
        `The payment for order no. ${f.number} (${f.product.en}) was cancelled and the order closed.`,
        'You can place a new order in the portal.',
      ],
    },
    expired: {
      subject: 'Your order has expired',
      lines: (f) => [
        `We did not receive the payment for order no. ${f.number} (${f.product.en}) in time, so the order was cancelled.`,
        'You can place a new order in the portal.',
      ],
    },
  },
};

const CLOSING: Record<Language, { status: string; signature: string }> = {
  pl: { status: 'Status zamówienia:', signature: 'Portal Pacjentki' },
  en: { status: 'Order status:', signature: 'Patient Portal' },
};

/** Made once per language and currency: building a formatter costs far more than using one. */
const priceFormats = new Map<string, Intl.NumberFormat>();

function formatPrice(price: Money, language: Language): string {
  const key = `${language}:${price.currency}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language === 'pl' ? 'pl-PL' : 'en-GB', { style: 'currency', currency: price.currency });
    priceFormats.set(key, format);
  }
  return format.format(price.amountGrosze / 100);
}

/**
 * Subject and body of one mail. The subject names no product or person (subjects show in
 * notifications on a locked phone); the body is plain text plus the same as escaped HTML.
 */
export function orderMail(kind: OrderMailKind, language: Language, facts: OrderMailFacts): { subject: string; text: string; html: string } {
  const { subject, lines } = TEXTS[language][kind];
  const body = lines(facts, formatPrice(facts.price, language));
  const closing = CLOSING[language];
  const text = [...body, '', `${closing.status} ${facts.statusUrl}`, '', closing.signature, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family:sans-serif;font-size:14px">
${body.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>${escapeHtml(closing.status)} <a href="${escapeHtml(facts.statusUrl)}">${escapeHtml(facts.statusUrl)}</a></p>
<p>${escapeHtml(closing.signature)}</p>
</body>
</html>
`;
  return { subject: `${subject} ${facts.number}`, text, html };
}
