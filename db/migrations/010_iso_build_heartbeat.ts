import type { Knex } from 'knex';

/**
 * A disc image build says it is alive (issue 16): the job that builds it writes `heartbeat_at`
 * every few seconds and `job_id` names it. A build whose heartbeat stopped belongs to a process
 * that died: the patient may ask again at once instead of waiting for the queue to expire the job.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE iso_images
      ADD COLUMN heartbeat_at timestamptz,
      ADD COLUMN job_id text CHECK (length(job_id) <= 64);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE iso_images
      DROP COLUMN job_id,
      DROP COLUMN heartbeat_at;
  `);
}
