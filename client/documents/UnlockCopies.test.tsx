// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderAt, startEnglish } from '../testing/session';
import { lockAllCopies, requestPin } from './copies-lock';
import { KeptCopiesLock } from './KeptCopiesLock';
import { hasKeptCopies, keepList, keepsCopies, startKeeping, stopKeeping } from './offline-copies';

const PIN = '482915';

beforeAll(startEnglish);
beforeEach(async () => {
  lockAllCopies();
  await stopKeeping('u:1');
  await startKeeping('u:1', PIN);
  await keepList('u:1', 'screenings', { items: [] });
});
afterEach(() => cleanup());

/** A page of her kept copies that found them locked: the prompt stands in for it. */
async function lockedPage() {
  requestPin('u:1', '/screenings');
  const user = userEvent.setup();
  renderAt(
    '/screenings',
    <KeptCopiesLock>
      <p>her kept list</p>
    </KeptCopiesLock>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Enter your device PIN' });
  const pin = () => screen.getByLabelText('Device PIN');
  // The heading takes focus after a navigation (client/lib/page-focus.ts); the PIN is a Tab away.
  await user.tab();
  expect(document.activeElement).toBe(pin());
  const tryPin = async (value: string) => {
    await user.clear(pin());
    await user.type(pin(), `${value}{Enter}`);
  };
  /** A wrong PIN, and its answer awaited (the PIN takes a moment to check). */
  const tryWrong = async (value: string, attemptsLeft: number) => {
    await tryPin(value);
    const left = attemptsLeft === 1 ? '1 attempt' : `${attemptsLeft} attempts`;
    expect(await screen.findByText(`Wrong PIN. ${left} left.`)).toBeTruthy();
  };
  return { pin, tryPin, tryWrong };
}

describe('the PIN prompt of kept copies', () => {
  it('says why it asks and what five wrong PINs do, and shows the page once the PIN is right', async () => {
    const { pin, tryPin } = await lockedPage();
    expect(screen.queryByText('her kept list')).toBeNull();
    expect(screen.getByText(/^You are offline. Your results kept on this device are encrypted/)).toBeTruthy();
    expect(screen.getByText('After 5 wrong PINs in a row, your results are deleted from this device.')).toBeTruthy();
    expect(pin().getAttribute('inputmode')).toBe('numeric');

    await tryPin('');
    expect(await screen.findByText('Enter your PIN.')).toBeTruthy();
    await tryPin(PIN);
    expect(await screen.findByText('her kept list')).toBeTruthy();
  });

  it('counts down the wrong PINs, warns before the last, and deletes her copies at the fifth', async () => {
    const { pin, tryPin, tryWrong } = await lockedPage();
    await tryWrong('111111', 4);
    expect((pin() as HTMLInputElement).value).toBe('');
    await tryWrong('222222', 3);
    await tryWrong('333333', 2);
    await tryWrong('444444', 1);
    // Said before the last try, read with the field.
    const warning = screen.getByText(/^Last attempt: if this PIN is wrong too, your results will be deleted/);
    expect(pin().getAttribute('aria-describedby')).toContain(warning.id);

    await tryPin('555555');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Too many wrong PINs: your results were deleted from this device/);
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(await keepsCopies('u:1')).toBe(false);
    expect(await hasKeptCopies('u:1')).toBe(false);
    expect(screen.queryByText('her kept list')).toBeNull();
  });

  it('warns from the start when the wrong PINs of an earlier visit left one attempt', async () => {
    const { tryWrong } = await lockedPage();
    for (const [index, wrong] of ['111111', '222222', '333333', '444444'].entries()) await tryWrong(wrong, 4 - index);
    cleanup();
    await lockedPage();
    expect(screen.getByText(/^Last attempt: if this PIN is wrong too/)).toBeTruthy();
  });
});
