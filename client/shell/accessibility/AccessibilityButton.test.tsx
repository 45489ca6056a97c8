// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIntl, useT } from '../../lib/intl';
import { AccessibilityButton } from './AccessibilityButton';
import { PREFS_STORAGE_KEY, resetPrefs } from '../../stores/prefs-store';

function PageHeading() {
  const t = useT();
  return <h1>{t('faq.title')}</h1>;
}

beforeAll(async () => {
  resetPrefs();
  await startIntl();
});
afterEach(cleanup);

describe('the accessibility panel', () => {
  it('switches language, text size and contrast at once and keeps them on the device', async () => {
    render(
      <>
        <AccessibilityButton />
        <PageHeading />
      </>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pytania i odpowiedzi');

    await userEvent.click(screen.getByRole('button', { name: 'Ustawienia dostępności' }));
    await userEvent.click(await screen.findByRole('radio', { name: 'English' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Questions and answers'));
    expect(document.documentElement.lang).toBe('en');

    await userEvent.click(screen.getByRole('radio', { name: 'Largest (160%)' }));
    await userEvent.click(screen.getByRole('radio', { name: /White text on black/ }));
    const html = document.documentElement;
    expect(html.dataset.theme).toBe('white-black');
    expect(html.style.getPropertyValue('--font-scale')).toBe('1.6');
    expect(JSON.parse(localStorage.getItem(PREFS_STORAGE_KEY) ?? '{}')).toEqual({
      lang: 'en',
      theme: 'white-black',
      fontScale: 1.6,
    });

    await userEvent.click(screen.getByRole('button', { name: 'Restore default settings' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pytania i odpowiedzi'));
    expect(html.lang).toBe('pl');
    expect(html.dataset.theme).toBe('default');
    expect(html.style.getPropertyValue('--font-scale')).toBe('1');
    expect(JSON.parse(localStorage.getItem(PREFS_STORAGE_KEY) ?? '{}')).toEqual({ lang: 'pl', theme: 'default', fontScale: 1 });
  });
});
