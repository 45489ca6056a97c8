import type { Knex } from 'knex';

/**
 * The bytes of screening documents move into the file store (issue 16): a document's PDF is a
 * stored file named by `storage_key`, like an image, so the database holds metadata only. A row
 * written before keeps its `content` until the hourly job moves it (server/screenings/document-files.ts);
 * a row has exactly one of the two.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE document_contents
      ALTER COLUMN content DROP NOT NULL,
      ADD COLUMN storage_key text UNIQUE CHECK (storage_key ~ '^document/[A-Za-z0-9._-]+$'),
      ADD CONSTRAINT document_contents_one_place CHECK ((content IS NULL) <> (storage_key IS NULL));
    CREATE INDEX document_contents_in_database_idx ON document_contents (document_id) WHERE content IS NOT NULL;
  `);
}

/** Back to bytes in the database: only possible while no document lives in the store alone. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX document_contents_in_database_idx;
    ALTER TABLE document_contents
      DROP CONSTRAINT document_contents_one_place,
      DROP COLUMN storage_key,
      ALTER COLUMN content SET NOT NULL;
  `);
}
