// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEnglish } from '../testing/session';
import { lockAllCopies } from './copies-lock';
import { keepList, keepsCopies, readKeptList, startKeeping, stopKeeping, unlockKeptCopies } from './offline-copies';
import { SavedCopies } from './SavedCopies';

const SWITCH = 'Keep my results on this device for offline reading';

beforeAll(startEnglish);
beforeEach(async () => {
  lockAllCopies();
  await stopKeeping('u:1');
  await stopKeeping('u:2');
});
afterEach(() => cleanup());

const keepSwitch = () => screen.getByRole('switch', { name: SWITCH });

describe('keeping copies on this device (issue 16)', () => {
  it('is off until she switches it on, says what it does, and keeps nothing meanwhile', async () => {
    render(<SavedCopies ownerKey="u:1" />);
    await waitFor(() => expect(keepSwitch().hasAttribute('disabled')).toBe(false));
    expect((keepSwitch() as HTMLInputElement).checked).toBe(false);
    // The description is read with the switch: encrypted, a PIN, not on a shared device.
    const described = document.getElementById(keepSwitch().getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toMatch(/encrypted.*PIN.*shared or public device/);
    expect(screen.queryByText(/^Nothing is saved on this device yet/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete all offline copies' })).toBeNull();
  });

  it('asks for a PIN of at least 6 digits typed twice, with a message under each field, by keyboard alone', async () => {
    const user = userEvent.setup();
    render(<SavedCopies ownerKey="u:1" />);
    await waitFor(() => expect(keepSwitch().hasAttribute('disabled')).toBe(false));
    await user.tab();
    expect(document.activeElement).toBe(keepSwitch());
    await user.keyboard(' ');

    const dialog = await screen.findByRole('dialog', { name: 'Set a PIN for this device' });
    expect(within(dialog).getByText(/opens your results kept on this device when there is no internet connection/)).toBeTruthy();
    expect(within(dialog).getByText(/Do not keep your results on a device other people use/)).toBeTruthy();
    const pin = within(dialog).getByLabelText('Device PIN');
    const again = within(dialog).getByLabelText('Device PIN again');
    // The dialog takes focus (its title is read); the PIN is the first stop in it.
    await user.tab();
    expect(document.activeElement).toBe(pin);
    expect(pin.getAttribute('inputmode')).toBe('numeric');
    expect(pin.getAttribute('type')).toBe('password');

    // Nothing typed: a message under each field, focus on the first.
    await user.keyboard('{Enter}');
    expect(within(dialog).getByText('Enter a PIN.')).toBeTruthy();
    expect(within(dialog).getByText('Type the PIN again.')).toBeTruthy();
    expect(document.activeElement).toBe(pin);

    const attempt = async (first: string, second: string) => {
      await user.clear(pin);
      await user.clear(again);
      await user.type(pin, first);
      await user.type(again, `${second}{Enter}`);
    };
    await attempt('12ab56', '12ab56');
    expect(within(dialog).getByText('Use digits only.')).toBeTruthy();
    await attempt('48291', '48291');
    expect(within(dialog).getByText('The PIN needs at least 6 digits.')).toBeTruthy();
    await attempt('123456', '123456');
    expect(within(dialog).getByText(/^Choose a PIN that is not one digit repeated/)).toBeTruthy();
    await attempt('482915', '482916');
    expect(within(dialog).getByText('The two PINs are not the same.')).toBeTruthy();
    expect(document.activeElement).toBe(again);
    expect(await keepsCopies('u:1')).toBe(false);

    await attempt('482915', '482915');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect((keepSwitch() as HTMLInputElement).checked).toBe(true));
    expect(await keepsCopies('u:1')).toBe(true);
    expect(await screen.findByText(/^Nothing is saved on this device yet/)).toBeTruthy();
    // The PIN she set opens what is kept from now on.
    expect(await unlockKeptCopies('u:1', '482915')).toEqual({ kind: 'unlocked' });
  });

  it('stays off when she cancels the PIN (Escape)', async () => {
    const user = userEvent.setup();
    render(<SavedCopies ownerKey="u:1" />);
    await waitFor(() => expect(keepSwitch().hasAttribute('disabled')).toBe(false));
    await user.click(keepSwitch());
    await screen.findByRole('dialog', { name: 'Set a PIN for this device' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((keepSwitch() as HTMLInputElement).checked).toBe(false);
    expect(await keepsCopies('u:1')).toBe(false);
  });

  it('switched off, deletes everything of hers after asking, her PIN with it', async () => {
    const user = userEvent.setup();
    await startKeeping('u:1', '482915');
    await keepList('u:1', 'screenings', { items: [] });
    render(<SavedCopies ownerKey="u:1" />);
    await waitFor(() => expect((keepSwitch() as HTMLInputElement).checked).toBe(true));
    await user.click(keepSwitch());
    const confirm = await screen.findByRole('alertdialog', { name: 'Stop keeping your results on this device?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete and stop keeping' }));
    await waitFor(() => expect((keepSwitch() as HTMLInputElement).checked).toBe(false));
    expect(await keepsCopies('u:1')).toBe(false);
    expect(await readKeptList('u:1', 'screenings')).toBeNull();
  });
});

describe('SavedCopies', () => {
  it("lists the owner's kept lists with their date, and deletes them with everything else, still keeping from now on", async () => {
    await startKeeping('u:1', '482915');
    await startKeeping('u:2', '739104');
    await keepList('u:1', 'screenings', { items: [] });
    await keepList('u:2', 'referrals', { items: [] });
    render(<SavedCopies ownerKey="u:1" />);
    expect(await screen.findByText(/^Your list of screenings and referrals, saved on .*20\d\d/)).toBeTruthy();
    expect(screen.queryByText(/^Nothing is saved on this device yet/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Delete all offline copies' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete all offline copies?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/^Nothing is saved on this device yet/)).toBeTruthy();
    expect(screen.queryByText(/^Your list of screenings and referrals/)).toBeNull();
    expect((keepSwitch() as HTMLInputElement).checked).toBe(true);
    await unlockKeptCopies('u:1', '482915');
    expect(await readKeptList('u:1', 'screenings')).toBeNull();
    // Another owner's copies are neither shown nor deleted.
    await unlockKeptCopies('u:2', '739104');
    expect(await readKeptList('u:2', 'referrals')).not.toBeNull();
  });

  it("shows nothing of another owner's lists", async () => {
    await startKeeping('u:1', '482915');
    await startKeeping('u:2', '739104');
    await keepList('u:2', 'screenings', { items: [] });
    render(<SavedCopies ownerKey="u:1" />);
    expect(await screen.findByText(/^Nothing is saved on this device yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete all offline copies' })).toBeNull();
    await waitFor(() => expect(screen.queryByText(/^Your list of screenings and referrals/)).toBeNull());
  });
});
