// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIntl } from '../../lib/intl';
import { setLanguage } from '../../stores/prefs-store';
import { notifications, notify } from '../../stores/notification-store';
import { Notifications } from './Notifications';

beforeAll(async () => {
  setLanguage('en');
  await startIntl();
});
beforeEach(() => {
  notifications.items = [];
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the notification area', () => {
  it('announces a message politely and removes it after 10 seconds', async () => {
    render(<Notifications />);
    await act(async () => void notify({ kind: 'success', key: 'app.retry' }));
    expect(screen.getByRole('status').textContent).toContain('Try again');

    await act(async () => vi.advanceTimersByTime(9_900));
    expect(screen.getByRole('status').textContent).toContain('Try again');
    await act(async () => vi.advanceTimersByTime(200));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('puts errors in an alert region and keeps a persistent one until it is closed', async () => {
    render(<Notifications />);
    await act(async () => void notify({ kind: 'error', key: 'errors.generic', persistent: true }));
    expect(screen.getByRole('alert').textContent).toContain('An error occured');

    await act(async () => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert').textContent).toContain('An error occured');

    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    await act(async () => {});
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('does not take a message away while the pointer rests on it', async () => {
    render(<Notifications />);
    await act(async () => void notify({ kind: 'info', key: 'app.retry' }));
    const message = screen.getByText('Try again');
    fireEvent.mouseEnter(message.parentElement as HTMLElement);
    await act(async () => vi.advanceTimersByTime(20_000));
    expect(screen.queryByText('Try again')).not.toBeNull();
    fireEvent.mouseLeave(message.parentElement as HTMLElement);
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText('Try again')).toBeNull();
  });
});
