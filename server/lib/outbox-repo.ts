import type { Db } from '../db';

export type OutboxChannel = 'email' | 'sms';

export type OutboxEntry = {
  channel: OutboxChannel;
  recipient: string;
  subject?: string;
  bodyText: string;
  bodyHtml?: string;
  /** Where a reply goes (a contact message: the patient); kept so a retry sends it too. */
  replyTo?: string;
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
      reply_to: entry.replyTo ?? null,
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

export type KeptMessage = {
  id: number;
  channel: OutboxChannel;
  recipient: string;
  subject: string | null;
  bodyText: string;
  bodyHtml: string | null;
  replyTo: string | null;
  /** Attempts including the one this claim starts. */
  attempts: number;
};

/**
 * Claims up to `limit` unsent messages of `channels` whose delivery failed before and whose next
 * attempt is due: `retryAfterMinutes[n - 1]` after creation once n attempts were made, none after
 * the last. The claim counts the attempt at once, so a run that overlaps a slow one does not pick
 * the same message again. Messages never tried are left alone (DECISIONS.md 13).
 */
export async function claimDueRetries(
  db: Db,
  options: { channels: OutboxChannel[]; now: Date; retryAfterMinutes: readonly number[]; limit: number },
): Promise<KeptMessage[]> {
  if (options.channels.length === 0) return [];
  // Integers written into the SQL: knex would spread an array binding into a list.
  const waits = `ARRAY[${options.retryAfterMinutes.map((minutes) => Math.trunc(minutes)).join(',')}]::int[]`;
  const due = db('outbox_messages')
    .whereNull('sent_at')
    .whereIn('channel', options.channels)
    .whereBetween('attempts', [1, options.retryAfterMinutes.length])
    .whereRaw(`created_at + make_interval(mins => (${waits})[attempts]) <= ?`, [options.now])
    .orderBy('id')
    .limit(options.limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  const rows = await db('outbox_messages')
    .whereIn('id', due)
    .update({ attempts: db.raw('attempts + 1') })
    .returning(['id', 'channel', 'recipient', 'subject', 'body_text', 'body_html', 'reply_to', 'attempts']);
  return rows
    .map((row) => ({
      id: Number(row.id),
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      bodyText: row.body_text,
      bodyHtml: row.body_html,
      replyTo: row.reply_to,
      attempts: row.attempts,
    }))
    .sort((a, b) => a.id - b.id);
}

/** The outcome of a claimed retry (its attempt was counted by the claim). */
export async function recordRetryOutcome(db: Db, id: number, outcome: { sentAt: Date } | { lastError: string }): Promise<void> {
  await db('outbox_messages')
    .where({ id })
    .update('sentAt' in outcome ? { sent_at: outcome.sentAt, last_error: null } : { last_error: outcome.lastError });
}
