// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIntl } from '../../lib/intl';
import { setLanguage } from '../../stores/prefs-store';
import { CONSENT_COOKIE_NAME, readConsent } from './consent-cookie';
import { consentDialog, openCookieSettings } from './consent-store';
import { CookieConsent } from './CookieConsent';
import { DRAWN_COOKIE_DIALOG_ID } from './drawn-cookie-dialog';

function clearConsentCookie() {
  document.cookie = `${CONSENT_COOKIE_NAME}=; Max-Age=0; Path=/`;
}

beforeAll(async () => {
  setLanguage('en');
  await startIntl();
});
beforeEach(() => {
  clearConsentCookie();
  consentDialog.isOpen = readConsent() === null;
});
afterEach(cleanup);

describe('the cookie-consent dialog', () => {
  it('shows while there is no consent cookie and records "allow all"', async () => {
    render(<CookieConsent />);
    const dialog = await screen.findByRole('dialog', { name: 'Cookies' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Allow all' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readConsent()?.choice).toBe('allow-all');
  });

  it('records "reject all"', async () => {
    render(<CookieConsent />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reject all' }));
    await waitFor(() => expect(readConsent()?.choice).toBe('reject-all'));
  });

  it('lists the real cookies when adjusting; necessary ones stay on and cannot be switched off', async () => {
    render(<CookieConsent />);
    await userEvent.click(await screen.findByRole('button', { name: 'Adjust' }));

    const table = screen.getByRole('table', { name: 'Cookies used by the portal' });
    expect(within(table).getByText('portal.sid')).toBeTruthy();
    expect(within(table).getByText('portal.csrf')).toBeTruthy();
    expect(within(table).getAllByText('Until the browser is closed')).toHaveLength(2);
    expect(within(table).getByText('portal.device')).toBeTruthy();
    expect(within(table).getByText('1 year')).toBeTruthy();
    expect(within(table).getByText('portal.cookie-consent')).toBeTruthy();
    expect(within(table).getByText('365 days')).toBeTruthy();
    for (const name of ['portal.sid', 'portal.csrf', 'portal.device', 'portal.cookie-consent']) {
      const checkbox = within(table).getByRole('checkbox', { name: `Cookie ${name} is enabled` }) as HTMLInputElement;
      expect(checkbox.checked).toBe(true);
      expect(checkbox.disabled).toBe(true);
    }

    await userEvent.click(screen.getByRole('button', { name: 'Save and exit' }));
    await waitFor(() => expect(readConsent()?.choice).toBe('custom'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays closed once a choice exists, and opens again from the cookie settings', async () => {
    document.cookie = `${CONSENT_COOKIE_NAME}=${encodeURIComponent(JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: '2026-01-01T00:00:00.000Z' }))}; Path=/`;
    consentDialog.isOpen = readConsent() === null;
    render(<CookieConsent />);
    expect(screen.queryByRole('dialog')).toBeNull();

    openCookieSettings();
    expect(await screen.findByRole('dialog', { name: 'Cookies' })).toBeTruthy();
  });

  it('puts focus back on the control that opened it once she has chosen', async () => {
    document.cookie = `${CONSENT_COOKIE_NAME}=${encodeURIComponent(JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: '2026-01-01T00:00:00.000Z' }))}; Path=/`;
    consentDialog.isOpen = false;
    render(
      <>
        <button type="button" onClick={openCookieSettings}>
          Cookie settings
        </button>
        <CookieConsent />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Cookie settings' });
    await userEvent.click(opener);
    await userEvent.click(await screen.findByRole('button', { name: 'Reject all' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('on a first visit puts focus at the start of the content, not on the page body', async () => {
    render(
      <>
        <main id="main" tabIndex={-1}>
          content
        </main>
        <CookieConsent />
      </>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Allow all' }));

    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });
});

/** A public page drawn at build time: the dialog's picture beside the app's root (scripts/vite-prerender.ts). */
function drawPicture(): HTMLElement {
  const picture = document.createElement('div');
  picture.id = DRAWN_COOKIE_DIALOG_ID;
  picture.inert = true;
  picture.textContent = 'Cookies (picture)';
  document.body.append(picture);
  return picture;
}

describe('the cookie dialog over a page drawn at build time', () => {
  afterEach(() => document.getElementById(DRAWN_COOKIE_DIALOG_ID)?.remove());

  it('leaves the picture in place at the first render and replaces it a frame later, never showing two or none', async () => {
    const picture = drawPicture();
    render(<CookieConsent />);
    // The app's first render: the picture still stands for the dialog.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(picture.isConnected).toBe(true);

    const dialog = await screen.findByRole('dialog', { name: 'Cookies' });
    // The picture went in the same commit as the dialog came.
    expect(picture.isConnected).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Allow all' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('takes the picture away at once for a visitor who has already decided', () => {
    document.cookie = `${CONSENT_COOKIE_NAME}=${encodeURIComponent(JSON.stringify({ version: 1, choice: 'reject-all', decidedAt: '2026-01-01T00:00:00.000Z' }))}; Path=/`;
    consentDialog.isOpen = readConsent() === null;
    const picture = drawPicture();
    render(<CookieConsent />);

    expect(picture.isConnected).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
