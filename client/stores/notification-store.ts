import { proxy } from 'valtio';
import type { MessageKey, MessageValues } from '../lib/intl';

export type NotificationKind = 'success' | 'error' | 'info' | 'warning';

export type Notification = {
  id: number;
  kind: NotificationKind;
  key: MessageKey;
  values?: MessageValues;
  /** Stays until the user closes it (e.g. a failed order the user must read). */
  persistent: boolean;
};

/** Spec section 8: notifications last 10 seconds. */
export const NOTIFICATION_LIFETIME_MS = 10_000;

export const notifications = proxy<{ items: Notification[] }>({ items: [] });

let nextId = 1;

/** Shows a translated message; returns its id for `dismissNotification`. */
export function notify(input: { kind: NotificationKind; key: MessageKey; values?: MessageValues; persistent?: boolean }): number {
  const id = nextId++;
  // The same message twice in a row (e.g. a double click) is shown once.
  notifications.items = notifications.items.filter((item) => !(item.key === input.key && item.kind === input.kind));
  notifications.items.push({ id, kind: input.kind, key: input.key, values: input.values, persistent: input.persistent ?? false });
  return id;
}

export function dismissNotification(id: number): void {
  notifications.items = notifications.items.filter((item) => item.id !== id);
}
