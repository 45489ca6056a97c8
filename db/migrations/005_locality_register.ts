import type { Knex } from 'knex';

/**
 * The locality register (issue 12): the whole of Poland's towns and villages, loaded from
 * db/data by server/geography/register-loader.ts at start (not here: every test schema migrates,
 * and most never search a place).
 * - The search itself runs in the portal's memory (server/geography/locality-index.ts), so the
 *   old index on `lower(name)` serves nothing and goes.
 * - `kind` (town or village) tells apart the few places of one name in one gmina.
 * - `locality_register` remembers which data file was loaded, so a start loads it only once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE cities ADD COLUMN kind text CHECK (kind IN ('city', 'village'));
    DROP INDEX cities_search_idx;
    -- A town and a village of one name can share powiat and gmina (Lipno): the kind tells them apart.
    CREATE UNIQUE INDEX cities_register_key ON cities (province_id, name, pow_name, community_name, kind);

    CREATE TABLE locality_register (
      id         integer PRIMARY KEY CHECK (id = 1),
      checksum   text NOT NULL,
      localities integer NOT NULL,
      loaded_at  timestamptz NOT NULL
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE locality_register;
    DROP INDEX cities_register_key;
    ALTER TABLE cities DROP COLUMN kind;
    CREATE INDEX cities_search_idx ON cities (province_id, lower(name) text_pattern_ops);
  `);
}
