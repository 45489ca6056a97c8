// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIntl } from '../../lib/intl';
import { CookieDialogPicture } from '../../prerender/CookieDialogPicture';
import { setLanguage } from '../../stores/prefs-store';
import { CONSENT_COOKIE_NAME } from './consent-cookie';
import { consentDialog } from './consent-store';
import { CookieConsent } from './CookieConsent';

/**
 * The picture of the cookie dialog in the pages drawn at build time (client/prerender) copies the
 * dialog's markup by hand; the app puts the real dialog in its place at its first render. A text,
 * heading or button changed in one and not in the other would show a visitor one dialog turning
 * into another.
 */
function visibleParts(dialog: Element): string[] {
  return [...dialog.querySelectorAll('h1, h2, h3, h4, h5, h6, p, button')].map((element) => {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const variant = [...element.classList].filter((name) => /^btn--/.test(name)).join(' ');
    return `${element.tagName.toLowerCase()}${variant ? ` ${variant}` : ''}: ${text}`;
  });
}

/** The frame around the dialog's content: overlay, modal (its size) and dialog, by their classes. */
function frameClasses(dialog: Element): string[] {
  const modal = dialog.closest('.modal');
  const overlay = dialog.closest('.modal-overlay');
  return [overlay, modal, dialog].map((element) =>
    [...(element?.classList ?? [])].filter((name) => name !== 'cookie-dialog-picture' && !name.startsWith('react-aria')).join(' '),
  );
}

beforeAll(async () => {
  await startIntl();
});
beforeEach(() => {
  // A first visit: no decision yet, so the dialog opens by itself and cannot be dismissed.
  document.cookie = `${CONSENT_COOKIE_NAME}=; Max-Age=0; Path=/`;
  consentDialog.isOpen = true;
});
afterEach(cleanup);

describe('the picture of the cookie dialog in the drawn pages', () => {
  it.each(['pl', 'en'] as const)('shows what the real dialog shows on a first visit (%s)', async (lang) => {
    setLanguage(lang);
    await waitFor(() => expect(document.documentElement.lang).toBe(lang));

    render(<CookieConsent />);
    const real = await screen.findByRole('dialog');
    const { container } = render(<CookieDialogPicture />);
    const picture = container.querySelector('.cookie-dialog-picture .dialog');
    if (!picture) throw new Error('the picture has no .dialog inside .cookie-dialog-picture');

    expect(visibleParts(real).length).toBeGreaterThan(3);
    expect(visibleParts(picture)).toEqual(visibleParts(real));
    expect(frameClasses(picture)).toEqual(frameClasses(real));
  });
});
