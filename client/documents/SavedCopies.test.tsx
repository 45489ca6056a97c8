// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEnglish } from '../testing/session';
import { deleteAllKept, keepList, readKeptList } from './offline-copies';
import { SavedCopies } from './SavedCopies';

beforeAll(startEnglish);
afterEach(async () => {
  cleanup();
  await deleteAllKept('u:1');
  await deleteAllKept('u:2');
});

describe('SavedCopies', () => {
  it("lists the owner's kept lists with their date, and deletes them with everything else", async () => {
    await keepList('u:1', 'screenings', { items: [] });
    await keepList('u:2', 'referrals', { items: [] });
    render(<SavedCopies ownerKey="u:1" />);
    expect(await screen.findByText(/^Your list of screenings and referrals, saved on .*20\d\d/)).toBeTruthy();
    expect(screen.queryByText(/^No offline copies are saved/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Delete all offline copies' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete all offline copies?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/^No offline copies are saved/)).toBeTruthy();
    expect(screen.queryByText(/^Your list of screenings and referrals/)).toBeNull();
    expect(await readKeptList('u:1', 'screenings')).toBeNull();
    // Another owner's copies are neither shown nor deleted.
    expect(await readKeptList('u:2', 'referrals')).not.toBeNull();
  });

  it("shows nothing of another owner's lists", async () => {
    await keepList('u:2', 'screenings', { items: [] });
    render(<SavedCopies ownerKey="u:1" />);
    expect(await screen.findByText(/^No offline copies are saved/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete all offline copies' })).toBeNull();
    await waitFor(() => expect(screen.queryByText(/^Your list of screenings and referrals/)).toBeNull());
  });
});
