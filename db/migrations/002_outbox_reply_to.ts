import type { Knex } from 'knex';

/**
 * The Reply-To of a kept mail (a contact message: the patient's address), so a retried delivery
 * (server/lib/outbox-retry.ts) still lets the provider answer her.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE outbox_messages ADD COLUMN reply_to text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE outbox_messages DROP COLUMN reply_to');
}
