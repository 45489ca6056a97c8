import type { Knex } from 'knex';

/**
 * The tags the image viewer hangs a mammogram by (issue 15), kept with each stored instance:
 * laterality (ImageLaterality, else Laterality), view position, transfer syntax, matrix size and
 * instance number. Every ingest path (patient upload, STOW-RS, provider intake, demo seed) writes
 * rows without them; the images listing reads each file's header once and fills them in
 * (server/images/view-tags.ts), so the columns are nullable and `view_tags_read_at` marks the rows
 * already read: a file that cannot be parsed keeps its nulls and is not read again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE dicom_instances
      ADD COLUMN image_laterality text CHECK (image_laterality IN ('R', 'L')),
      ADD COLUMN view_position text CHECK (length(view_position) <= 16),
      ADD COLUMN transfer_syntax_uid text CHECK (transfer_syntax_uid ~ '^[0-9.]{1,64}$'),
      ADD COLUMN image_rows integer CHECK (image_rows > 0),
      ADD COLUMN image_columns integer CHECK (image_columns > 0),
      ADD COLUMN instance_number integer,
      ADD COLUMN view_tags_read_at timestamptz;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE dicom_instances
      DROP COLUMN view_tags_read_at,
      DROP COLUMN instance_number,
      DROP COLUMN image_columns,
      DROP COLUMN image_rows,
      DROP COLUMN transfer_syntax_uid,
      DROP COLUMN view_position,
      DROP COLUMN image_laterality;
  `);
}
