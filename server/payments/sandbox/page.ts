import { escapeHtml } from '../../lib/html';
import type { SandboxCheckout } from './repo';

/**
 * The sandbox's hosted checkout page. It is the payment provider's page, not the portal's, so it
 * is plain server-made HTML in the buyer's language with its own small stylesheet, and says
 * plainly that no money moves.
 */
const TEXTS = {
  pl: {
    title: 'Płatność testowa',
    notice: 'To jest testowy operator płatności portalu. Żadne pieniądze nie zostaną pobrane.',
    amount: 'Kwota',
    description: 'Tytuł',
    order: 'Numer transakcji',
    pay: 'Zapłać',
    cancel: 'Anuluj płatność',
    pending: 'Zostaw jako oczekującą',
    status: { NEW: 'Oczekuje na decyzję', PENDING: 'Płatność oczekująca', COMPLETED: 'Opłacono', CANCELED: 'Anulowano' },
    decided: 'Ta transakcja jest już zakończona.',
    back: 'Wróć do portalu',
    notFound: 'Nie znaleziono transakcji.',
  },
  en: {
    title: 'Test payment',
    notice: "This is the portal's test payment provider. No money will be taken.",
    amount: 'Amount',
    description: 'Title',
    order: 'Transaction number',
    pay: 'Pay',
    cancel: 'Cancel the payment',
    pending: 'Leave it pending',
    status: { NEW: 'Awaiting your decision', PENDING: 'Payment pending', COMPLETED: 'Paid', CANCELED: 'Cancelled' },
    decided: 'This transaction has already ended.',
    back: 'Back to the portal',
    notFound: 'Transaction not found.',
  },
} as const;

export type SandboxLanguage = keyof typeof TEXTS;

export function sandboxLanguage(value: unknown, fallback: SandboxLanguage = 'pl'): SandboxLanguage {
  return value === 'en' || value === 'pl' ? value : fallback;
}

function formatAmount(amountGrosze: number, currency: string, language: SandboxLanguage): string {
  return new Intl.NumberFormat(language === 'pl' ? 'pl-PL' : 'en-GB', { style: 'currency', currency }).format(amountGrosze / 100);
}

function layout(language: SandboxLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="./assets/sandbox.css">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function checkoutPage(checkout: SandboxCheckout, language: SandboxLanguage): string {
  const t = TEXTS[language];
  const open = checkout.status === 'NEW' || checkout.status === 'PENDING';
  const rows: [string, string][] = [
    [t.amount, formatAmount(checkout.amountGrosze, checkout.currency, language)],
    [t.description, checkout.description],
    [t.order, checkout.id],
  ];
  const actions = open
    ? `<form method="post" action="./${escapeHtml(checkout.id)}?lang=${language}">
<button type="submit" name="action" value="pay" class="primary">${escapeHtml(t.pay)}</button>
<button type="submit" name="action" value="pending">${escapeHtml(t.pending)}</button>
<button type="submit" name="action" value="cancel">${escapeHtml(t.cancel)}</button>
</form>`
    : `<p>${escapeHtml(t.decided)}</p>
<p><a href="${escapeHtml(checkout.continueUrl)}">${escapeHtml(t.back)}</a></p>`;
  return layout(
    language,
    t.title,
    `<h1>${escapeHtml(t.title)}</h1>
<p class="notice">${escapeHtml(t.notice)}</p>
<dl>
${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}
<dt>Status</dt><dd>${escapeHtml(t.status[checkout.status])}</dd>
</dl>
${actions}`,
  );
}

export function notFoundPage(language: SandboxLanguage): string {
  const t = TEXTS[language];
  return layout(language, t.title, `<h1>${escapeHtml(t.title)}</h1>\n<p>${escapeHtml(t.notFound)}</p>`);
}

export const SANDBOX_CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f1f6;color:#1d1b20}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0003}
h1{font-size:1.5rem;margin-top:0}
.notice{background:#fff4ce;border-left:4px solid #8a6d00;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
form{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
button{font:inherit;min-height:44px;padding:.5rem 1rem;border:2px solid #5b2a86;border-radius:6px;background:#fff;color:#5b2a86;cursor:pointer}
button.primary{background:#5b2a86;color:#fff}
button:focus-visible,a:focus-visible{outline:3px solid #1d1b20;outline-offset:2px}
a{color:#5b2a86}
`;
