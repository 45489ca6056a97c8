import type { Knex } from 'knex';

/**
 * The provider's side (issue 13): API keys, the staff audit, idempotent retries, the provider's
 * own ids on what it sends, and the patient's notices.
 * - `api_keys`: only the SHA-256 of a key is stored (a key is 32 random bytes, so a plain hash is
 *   as strong as a slow one and costs nothing per call). The fixed-window counter lets one
 *   UPDATE authenticate, count and stamp a call.
 * - `staff_audit`: every provider call, append-only like `audit_entries`, and apart from it: the
 *   patient's audit page never shows the staff's work and the staff's log holds no patient data.
 * - `idempotency_keys`: the first answer of a creating call, replayed for its `Idempotency-Key`.
 * - `external_id`s: the provider's own ids, unique, so a retried upsert finds its row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE api_keys (
      id                     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name                   text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      -- The key's public start ("mpk_" and 8 characters), shown in lists; never enough to call with.
      prefix                 text NOT NULL UNIQUE,
      secret_hash            bytea NOT NULL UNIQUE CHECK (octet_length(secret_hash) = 32),
      scopes                 text[] NOT NULL,
      rate_limit_per_minute  integer NOT NULL CHECK (rate_limit_per_minute > 0),
      rate_window_started_at timestamptz,
      rate_window_calls      integer NOT NULL DEFAULT 0,
      created_by             text NOT NULL,
      created_at             timestamptz NOT NULL DEFAULT now(),
      expires_at             timestamptz,
      revoked_at             timestamptz,
      last_used_at           timestamptz
    );

    CREATE TABLE staff_audit (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      created_at   timestamptz NOT NULL DEFAULT now(),
      -- A call by API key, or the command line on the server (actor 'cli:<user>') with no key.
      api_key_id   integer REFERENCES api_keys (id),
      actor        text NOT NULL,
      action       text NOT NULL,
      object_type  text,
      object_id    text,
      ip           inet,
      status       smallint NOT NULL
    );
    CREATE INDEX staff_audit_key_idx ON staff_audit (api_key_id, created_at DESC);
    CREATE FUNCTION staff_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'staff_audit is append-only';
    END $$;
    CREATE TRIGGER staff_audit_no_update BEFORE UPDATE OR DELETE ON staff_audit
      FOR EACH ROW EXECUTE FUNCTION staff_audit_append_only();
    CREATE TRIGGER staff_audit_no_truncate BEFORE TRUNCATE ON staff_audit
      FOR EACH STATEMENT EXECUTE FUNCTION staff_audit_append_only();

    CREATE TABLE idempotency_keys (
      api_key_id    integer NOT NULL REFERENCES api_keys (id),
      key           text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      -- SHA-256 of method, path and body: the same key with another request is refused.
      request_hash  bytea NOT NULL CHECK (octet_length(request_hash) = 32),
      status        smallint,
      response      jsonb,
      created_at    timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (api_key_id, key)
    );
    CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

    ALTER TABLE personal_data ADD COLUMN external_id text UNIQUE CHECK (length(external_id) BETWEEN 1 AND 64);
    ALTER TABLE screenings ADD COLUMN external_id text UNIQUE CHECK (length(external_id) BETWEEN 1 AND 64);
    -- The RIS's accession number: how DICOMweb STOW-RS finds the screening an image belongs to.
    ALTER TABLE screenings ADD COLUMN accession_number text UNIQUE CHECK (length(accession_number) BETWEEN 1 AND 16);
    ALTER TABLE screenings ADD COLUMN facility text CHECK (length(facility) BETWEEN 1 AND 200);
    -- Set once the "result ready" notice is queued: whatever the RIS retries, it is sent once.
    ALTER TABLE screenings ADD COLUMN result_notice_sent_at timestamptz;
    ALTER TABLE screening_documents ADD COLUMN external_id text UNIQUE CHECK (length(external_id) BETWEEN 1 AND 64);
    ALTER TABLE dicom_instances ADD COLUMN stored_by_api_key_id integer REFERENCES api_keys (id);

    ALTER TABLE users ADD COLUMN result_notices boolean NOT NULL DEFAULT true;
    ALTER TABLE orders ADD COLUMN tracking_number text CHECK (length(tracking_number) BETWEEN 1 AND 64);
    -- Refunds asked of the payment provider, one row per refund there (ext_refund_id is the
    -- portal's id of it, derived from the request, so a retry finds its row); what is left of a
    -- payment to refund is its amount less the refunds not cancelled.
    CREATE TABLE order_refunds (
      id                  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id            integer NOT NULL REFERENCES orders (id),
      payment_id          integer NOT NULL REFERENCES payments (id),
      ext_refund_id       text NOT NULL UNIQUE,
      provider_refund_id  text,
      amount_grosze       integer NOT NULL CHECK (amount_grosze > 0),
      currency            char(3) NOT NULL,
      reason              text NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
      status              text NOT NULL CHECK (status IN ('PENDING', 'FINALIZED', 'CANCELED')),
      requested_by        text NOT NULL,
      created_at          timestamptz NOT NULL DEFAULT now(),
      updated_at          timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX order_refunds_payment_idx ON order_refunds (payment_id);
    CREATE INDEX order_refunds_provider_idx ON order_refunds (provider_refund_id) WHERE provider_refund_id IS NOT NULL;

    -- An invitation's link sets the first password; it lives longer than a reset link.
    ALTER TABLE password_reset_tokens ADD COLUMN purpose text NOT NULL DEFAULT 'reset' CHECK (purpose IN ('reset', 'invitation'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE password_reset_tokens DROP COLUMN purpose;
    DROP TABLE order_refunds;
    ALTER TABLE orders DROP COLUMN tracking_number;
    ALTER TABLE users DROP COLUMN result_notices;
    ALTER TABLE dicom_instances DROP COLUMN stored_by_api_key_id;
    ALTER TABLE screening_documents DROP COLUMN external_id;
    ALTER TABLE screenings DROP COLUMN result_notice_sent_at;
    ALTER TABLE screenings DROP COLUMN facility;
    ALTER TABLE screenings DROP COLUMN accession_number;
    ALTER TABLE screenings DROP COLUMN external_id;
    ALTER TABLE personal_data DROP COLUMN external_id;
    DROP TABLE idempotency_keys;
    DROP TABLE staff_audit;
    DROP FUNCTION staff_audit_append_only();
    DROP TABLE api_keys;
  `);
}
