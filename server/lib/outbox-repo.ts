import type { Db } from '../db';

export type OutboxChannel = 'email' | 'sms';

export type OutboxEntry = {
  channel: OutboxChannel;
  recipient: string;
  subject?: string;
  bodyText: string;
  bodyHtml?: string;
};

/** Stores a message before any delivery attempt, so nothing is lost when the provider is down. */
export async function keepInOutbox(db: Db, entry: OutboxEntry): Promise<number> {
  const [row] = await db('outbox_messages')
    .insert({
      channel: entry.channel,
      recipient: entry.recipient,
      subject: entry.subject ?? null,
      body_text: entry.bodyText,
      body_html: entry.bodyHtml ?? null,
    })
    .returning('id');
  return Number(row.id);
}

/** One delivery attempt: either it was sent (`sentAt`) or it failed with `lastError`. */
export async function markOutboxAttempt(
  db: Db,
  id: number,
  outcome: { sentAt: Date; lastError?: never } | { lastError: string; sentAt?: never },
): Promise<void> {
  await db('outbox_messages')
    .where({ id })
    .update({
      attempts: db.raw('attempts + 1'),
      sent_at: outcome.sentAt ?? null,
      last_error: outcome.lastError ?? null,
    });
}
