import type { Knex } from 'knex';

/**
 * Resumable DICOM uploads (issue 15, tus at /api/dicom/uploads). The state of an upload lives in
 * the database, not beside its bytes, so any portal process sharing the database and DATA_DIR can
 * serve any request of it:
 * - `resumable_uploads`: one row per upload, created before its first byte is accepted: whose it
 *   is, its declared length (which counts against her quota while unfinished), the tus metadata
 *   (the relative path she picked, only ever shown back), when it expires, and once complete its
 *   outcome. The bytes received so far are the file `storage/incoming/resumable/<id>`; its size
 *   is the offset. `batch` groups the files of one pick (the client's id, else the upload's own):
 *   a completed upload is `audited_at` null until its batch's one DICOM_UPLOAD entry is written
 *   (server/upload/resumable/batch-audit.ts), with the IP it completed from.
 * - `resumable_upload_locks`: leases that serialise the requests of one upload across processes
 *   (server/upload/resumable/locker.ts). No foreign key: a lease may outlive its upload's row for
 *   the moment a termination takes, and expired leases are simply taken over.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE resumable_uploads (
      id                text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
      user_id           integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      personal_data_id  integer NOT NULL REFERENCES personal_data (id) ON DELETE CASCADE,
      length            bigint NOT NULL CHECK (length >= 0),
      metadata          jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at        timestamptz NOT NULL,
      expires_at        timestamptz NOT NULL,
      completed_at      timestamptz,
      outcome           text CHECK (outcome IN ('stored', 'duplicate', 'refused')),
      refusal_reason    text CHECK (length(refusal_reason) <= 32),
      batch             text NOT NULL CHECK (batch ~ '^[0-9a-f-]{32,36}$'),
      completed_ip      text CHECK (length(completed_ip) <= 64),
      audited_at        timestamptz,
      CHECK (audited_at IS NULL OR completed_at IS NOT NULL),
      CHECK ((outcome IS NULL) = (completed_at IS NULL)),
      -- A reason exactly when refused.
      CHECK ((outcome IS NOT DISTINCT FROM 'refused') = (refusal_reason IS NOT NULL))
    );
    CREATE INDEX resumable_uploads_unfinished_by_patient ON resumable_uploads (personal_data_id) WHERE outcome IS NULL;
    CREATE INDEX resumable_uploads_by_expiry ON resumable_uploads (expires_at);
    CREATE INDEX resumable_uploads_unaudited ON resumable_uploads (user_id, batch) WHERE completed_at IS NOT NULL AND audited_at IS NULL;

    CREATE TABLE resumable_upload_locks (
      upload_id          text PRIMARY KEY,
      holder             text NOT NULL,
      expires_at         timestamptz NOT NULL,
      release_requested  boolean NOT NULL DEFAULT false
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE resumable_upload_locks;
    DROP TABLE resumable_uploads;
  `);
}
