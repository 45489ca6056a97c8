import { beforeEach, describe, expect, it } from 'vitest';
import { errorMessageKey } from './error-messages';
import { dismissNotification, notifications, notify } from './notification-store';

describe('notifications', () => {
  beforeEach(() => {
    notifications.items = [];
  });

  it('queue translated messages and close one by id', () => {
    const first = notify({ kind: 'success', key: 'app.retry' });
    notify({ kind: 'error', key: 'errors.generic', persistent: true });
    expect(notifications.items.map((item) => [item.kind, item.key, item.persistent])).toEqual([
      ['success', 'app.retry', false],
      ['error', 'errors.generic', true],
    ]);
    dismissNotification(first);
    expect(notifications.items.map((item) => item.key)).toEqual(['errors.generic']);
  });

  it('show the same message only once when it is raised twice', () => {
    notify({ kind: 'error', key: 'errors.offline' });
    notify({ kind: 'error', key: 'errors.offline' });
    expect(notifications.items).toHaveLength(1);
  });

  it('translate server error codes, with a generic message for unknown ones', () => {
    expect(errorMessageKey('NOT_FOUND')).toBe('errors.NOT_FOUND');
    expect(errorMessageKey('NETWORK')).toBe('errors.offline');
    // The database (or another part of the portal) out of reach: "no connection", not "an error occured".
    expect(errorMessageKey('NO_CONNECTION')).toBe('errors.noConnection');
    expect(errorMessageKey('BAD_REQUEST')).toBe('errors.BAD_REQUEST');
    expect(errorMessageKey('STORAGE_FULL')).toBe('errors.STORAGE_FULL');
    expect(errorMessageKey('SOMETHING_NEW')).toBe('errors.generic');
    expect(errorMessageKey(null)).toBe('errors.generic');
  });
});
