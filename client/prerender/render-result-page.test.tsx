// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultPageAnswers } from '@common/drawn-result-page';
import { App } from '../app/App';
import { adoptResultPageAnswers } from '../early-start/drawn-result-page';
import { arrivedResult } from '../early-start/result-requests';
import { consentDialog } from '../shell/consent/consent-store';
import { session } from '../stores/session-store';
import { demoScreening } from '../testing/result';
import { demoGuest, fakeApi } from '../testing/session';
import renderer from './render-result-page';

/** An image that happy-dom need not fetch. */
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

const answers: ResultPageAnswers = {
  user: demoGuest,
  result: {
    screening: demoScreening,
    documents: [{ id: 'a2', name: 'opis-badania.pdf', type: 'description', language: 'pl', sizeBytes: 1000 }],
    hasFacilitiesList: true,
    iso: { status: 'no_request' },
    survey: { submitted: false },
  },
  banners: {
    'top-placement': [{ id: 1, position: 'top-placement', imageUrl: PIXEL, linkUrl: null, alt: { pl: 'Sponsor A', en: 'Sponsor A' } }],
    'bottom-placement': [
      { id: 2, position: 'bottom-placement', imageUrl: PIXEL, linkUrl: 'https://example.org', alt: { pl: 'Sponsor B', en: 'Sponsor B' } },
    ],
  },
};

/**
 * Markup as the browser holds it, without what differs by nature between a server's drawing and
 * the app's render: React's markers and image preloads, the order of attributes, and the generated
 * ids that tie labels to their elements.
 */
function comparable(html: string): string {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  holder.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove());
  const ids = new Map<string, string>();
  const idOf = (value: string) => ids.get(value) ?? ids.set(value, `id${ids.size}`).get(value)!;
  for (const element of holder.querySelectorAll('*')) {
    const attributes = [...element.attributes].map(({ name, value }) => ({
      name,
      value: ['id', 'aria-labelledby', 'aria-describedby', 'for'].includes(name) ? value.split(' ').map(idOf).join(' ') : value,
    }));
    for (const { name } of attributes) element.removeAttribute(name);
    for (const { name, value } of attributes.sort((a, b) => a.name.localeCompare(b.name))) element.setAttribute(name, value);
  }
  return holder.innerHTML.replace(/<!--[^>]*-->/g, '');
}

/** The app's first render on /screening, as main.tsx starts it over the drawn page. */
function appFirstRender(): string {
  window.history.replaceState(null, '', '/screening');
  const forget = adoptResultPageAnswers(answers);
  consentDialog.isOpen = false;
  const container = document.createElement('div');
  const root = createRoot(container);
  flushSync(() => root.render(<App />));
  const html = container.innerHTML;
  root.unmount();
  forget();
  return html;
}

beforeAll(async () => {
  // What the app asks once it has rendered (the guard's check, the page's follow-ups, the version
  // line once the page is idle) is not this test's: answered "not found" for as long as the file runs.
  fakeApi({});
  await renderer.prepare();
});

describe('the result page drawn on the server', () => {
  it("shows her result in Polish, in the provider's time zone", () => {
    const { markup, title } = renderer.render('/screening', answers);
    expect(markup).toContain('Wynik badania');
    expect(title).toBe('Wynik badania – Portal Pacjentki');
    expect(markup).toMatch(/Maria.*Kowalska.*2,75 mGy/s);
    expect(markup).toContain('6 października 2026 10:30');
    expect(markup).toContain('alt="Sponsor A"');
  });

  it('is what the app first renders from the same answers, so nothing changes when it takes over', () => {
    const { markup: drawn } = renderer.render('/screening', answers);
    expect(comparable(drawn)).toBe(comparable(appFirstRender()));
  });

  it('leaves nothing of hers behind for the next request', () => {
    renderer.render('/screening', answers);
    expect(session.status).toBe('unknown');
    expect(session.user).toBeNull();
    expect(arrivedResult(undefined)).toBeUndefined();
  });

  it('is drawn only for her who answered the cookie dialog, read as the app reads its cookie', () => {
    const consent = encodeURIComponent(JSON.stringify({ version: 1, choice: 'reject-all', decidedAt: '2026-01-01T00:00:00Z' }));
    expect(renderer.cookieDialogAnswered(`portal.sid=x; portal.cookie-consent=${consent}`)).toBe(true);
    expect(renderer.cookieDialogAnswered('portal.sid=x')).toBe(false);
    expect(renderer.cookieDialogAnswered('portal.cookie-consent=%7Bbroken')).toBe(false);
  });
});
