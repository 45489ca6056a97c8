import type { Knex } from 'knex';

/**
 * Survey answers are kept with the screening they are about, so view mode can show them to the
 * patient who gave them (DECISIONS.md 16, which replaces 10). Rows stored before stay anonymous:
 * nothing could link them back, and nothing tries.
 * - One survey per screening, hence UNIQUE (several NULLs, the anonymous rows, are allowed).
 * - A deleted screening leaves its answers unlinked, as the anonymous ones always were: the
 *   provider's totals keep them, and no one can read them as hers any more.
 * - The provider's reports count answers by day (`submitted_on`), hence its index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE survey_responses
      ADD COLUMN screening_id integer UNIQUE REFERENCES screenings (id) ON DELETE SET NULL;
    CREATE INDEX survey_responses_submitted_on_idx ON survey_responses (submitted_on);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX survey_responses_submitted_on_idx;
    ALTER TABLE survey_responses DROP COLUMN screening_id;
  `);
}
