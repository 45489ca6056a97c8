// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefs } from '../../stores/prefs-store';
import { startIntl } from '../../lib/intl';
import { reloadIntoNewVersion } from './register';
import { offerUpdate, pwaUpdate } from './update-store';
import { UpdatePrompt } from './UpdatePrompt';

vi.mock('./register', () => ({ reloadIntoNewVersion: vi.fn() }));

describe('the new-version prompt', () => {
  beforeAll(async () => {
    await startIntl();
  });

  beforeEach(() => {
    Object.assign(pwaUpdate, { available: false, dismissed: false });
    vi.mocked(reloadIntoNewVersion).mockClear();
  });

  afterEach(cleanup);

  it('stays silent until a new version is waiting', () => {
    render(<UpdatePrompt />);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('announces the new version in Polish and reloads into it on request', async () => {
    render(<UpdatePrompt />);
    await act(async () => offerUpdate());

    expect(screen.getByRole('status').textContent).toBe('Dostępna jest nowa wersja portalu.');
    await userEvent.click(screen.getByRole('button', { name: 'Odśwież' }));
    await vi.waitFor(() => expect(reloadIntoNewVersion).toHaveBeenCalledOnce());
  });

  it('does not take the focus away from what the patient is doing', async () => {
    render(
      <>
        <input aria-label="field" />
        <UpdatePrompt />
      </>,
    );
    const field = screen.getByRole('textbox');
    field.focus();
    await act(async () => offerUpdate());
    expect(document.activeElement).toBe(field);
  });

  it('can be put off until the next update', async () => {
    render(<UpdatePrompt />);
    await act(async () => offerUpdate());
    await userEvent.click(screen.getByRole('button', { name: 'Później' }));

    expect(screen.getByRole('status').textContent).toBe('');
    expect(reloadIntoNewVersion).not.toHaveBeenCalled();
  });

  it('speaks English when the patient chose English', async () => {
    prefs.lang = 'en';
    await vi.waitFor(() => expect(document.documentElement.lang).toBe('en'));
    render(<UpdatePrompt />);
    await act(async () => offerUpdate());

    expect(screen.getByRole('status').textContent).toBe('A new version is available.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    prefs.lang = 'pl';
  });
});
