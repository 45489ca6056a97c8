import type { Knex } from 'knex';

/**
 * The whole data model of the spec, designed at once (issue 2). Later issues only add migrations.
 * Plain SQL so constraints, enums and triggers read as PostgreSQL, not as a builder's dialect.
 * Everything is created unqualified, in the first schema of the connection's search_path, so
 * tests can give each file a fresh schema.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TYPE descriptions_status AS ENUM ('desc_in_progress', 'desc_all_completed');
    CREATE TYPE document_kind AS ENUM ('description', 'referral', 'facilities_list');
    CREATE TYPE iso_status AS ENUM ('new', 'in_progress', 'done', 'removed', 'failed');
    CREATE TYPE banner_position AS ENUM ('top-placement', 'bottom-placement');
    CREATE TYPE product_kind AS ENUM ('copy', 'translation_en', 'translation_de', 'consultation');
    CREATE TYPE payment_status AS ENUM ('NEW', 'PENDING', 'COMPLETED', 'CANCELED');
    CREATE TYPE shipment_status AS ENUM ('not_applicable', 'awaiting', 'prepared', 'sent', 'delivered', 'collected');
    CREATE TYPE outbox_channel AS ENUM ('email', 'sms');

    CREATE TABLE personal_data (
      id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      first_name    text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
      last_name     text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
      birth_at      date NOT NULL,
      pesel         char(11) UNIQUE CHECK (pesel ~ '^[0-9]{11}$'),
      email         text CHECK (email LIKE '%_@_%'),
      -- {0,1} rather than a question mark: knex.raw reads every question mark as a bind placeholder.
      phone_number  text CHECK (phone_number ~ '^\\+{0,1}[0-9]{7,15}$'),
      created_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX personal_data_phone_idx ON personal_data (phone_number) WHERE phone_number IS NOT NULL;

    CREATE TABLE users (
      id                       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      personal_data_id         integer NOT NULL UNIQUE REFERENCES personal_data (id),
      email                    text NOT NULL CHECK (email LIKE '%_@_%'),
      password_hash            text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
      require_password_change  boolean NOT NULL DEFAULT false,
      disabled_at              timestamptz,
      password_changed_at      timestamptz,
      last_login_at            timestamptz,
      created_at               timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

    CREATE TABLE screenings (
      id                   integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      personal_data_id     integer NOT NULL REFERENCES personal_data (id),
      -- HMAC-SHA256 of the access code with a server secret (DECISIONS.md 6); never the code.
      access_code_hash     bytea NOT NULL UNIQUE CHECK (octet_length(access_code_hash) = 32),
      examined_at          timestamptz NOT NULL,
      absorbed_dose_mgy    numeric(6, 3) CHECK (absorbed_dose_mgy >= 0),
      descriptions_status  descriptions_status NOT NULL DEFAULT 'desc_in_progress',
      -- Set when the anonymous survey was sent; the answers themselves carry no link (DECISIONS.md 10).
      survey_submitted_at  timestamptz,
      created_at           timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX screenings_patient_examined_idx ON screenings (personal_data_id, examined_at DESC);

    CREATE TABLE screening_documents (
      id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      screening_id integer NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
      kind         document_kind NOT NULL,
      language     char(2) CHECK (language IN ('pl', 'en', 'de')),
      name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      media_type   text NOT NULL DEFAULT 'application/pdf',
      size_bytes   integer NOT NULL CHECK (size_bytes > 0),
      sha256       bytea NOT NULL CHECK (octet_length(sha256) = 32),
      created_at   timestamptz NOT NULL DEFAULT now(),
      CHECK (kind = 'description' OR language IS NULL OR language = 'pl')
    );
    CREATE INDEX screening_documents_screening_idx ON screening_documents (screening_id, kind);
    CREATE UNIQUE INDEX screening_documents_one_referral ON screening_documents (screening_id) WHERE kind = 'referral';
    CREATE UNIQUE INDEX screening_documents_one_facilities_list ON screening_documents (screening_id) WHERE kind = 'facilities_list';

    -- Bytes apart from the metadata, so lists never drag file contents along.
    CREATE TABLE document_contents (
      document_id uuid PRIMARY KEY REFERENCES screening_documents (id) ON DELETE CASCADE,
      content     bytea NOT NULL
    );

    CREATE TABLE screening_descriptions (
      id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      screening_id  integer NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
      document_id   uuid UNIQUE REFERENCES screening_documents (id) ON DELETE SET NULL,
      language      char(2) NOT NULL CHECK (language IN ('pl', 'en', 'de')),
      -- BI-RADS category ("wynik"); -1 = additional imaging needed; NULL = no result shown.
      birads        smallint CHECK (birads IN (-1, 1, 2, 3, 4, 5)),
      signed_at     timestamptz,
      created_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX screening_descriptions_screening_idx ON screening_descriptions (screening_id, id);

    CREATE TABLE iso_images (
      screening_id   integer PRIMARY KEY REFERENCES screenings (id) ON DELETE CASCADE,
      status         iso_status NOT NULL DEFAULT 'new',
      storage_key    text UNIQUE,
      size_bytes     bigint CHECK (size_bytes > 0),
      attempts       integer NOT NULL DEFAULT 0,
      failure        text,
      requested_at   timestamptz NOT NULL DEFAULT now(),
      started_at     timestamptz,
      finished_at    timestamptz,
      CHECK (status <> 'done' OR (storage_key IS NOT NULL AND size_bytes IS NOT NULL))
    );
    CREATE INDEX iso_images_pending_idx ON iso_images (status) WHERE status IN ('new', 'in_progress');

    CREATE TABLE instructions (
      type       text NOT NULL CHECK (type IN ('iso', 'referral-information')),
      language   char(2) NOT NULL CHECK (language IN ('pl', 'en')),
      name       text NOT NULL,
      content    bytea NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (type, language)
    );

    CREATE TABLE banners (
      id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      position    banner_position NOT NULL,
      image_url   text NOT NULL,
      link_url    text,
      alt_pl      text NOT NULL,
      alt_en      text NOT NULL,
      sort_order  integer NOT NULL DEFAULT 0,
      active      boolean NOT NULL DEFAULT true
    );
    CREATE INDEX banners_active_idx ON banners (position, sort_order) WHERE active;

    CREATE TABLE survey_responses (
      id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      screening_access    smallint NOT NULL CHECK (screening_access BETWEEN 1 AND 5),
      quality_of_service  smallint NOT NULL CHECK (quality_of_service BETWEEN 1 AND 5),
      information_access  smallint NOT NULL CHECK (information_access BETWEEN 1 AND 5),
      patient_comfort     smallint NOT NULL CHECK (patient_comfort BETWEEN 1 AND 5),
      staff_behaviour     smallint NOT NULL CHECK (staff_behaviour BETWEEN 1 AND 5),
      -- Pain during the examination (question 6).
      pain_measure        smallint NOT NULL CHECK (pain_measure BETWEEN 1 AND 5),
      -- Question 7, the gate, and question 8: how strong the lasting pain is, asked only after a yes.
      long_term_pain        boolean NOT NULL,
      long_term_pain_level  smallint CHECK (long_term_pain_level BETWEEN 1 AND 5),
      -- A day, not a timestamp: a time would let answers be matched to screenings again.
      submitted_on        date NOT NULL DEFAULT current_date,
      CHECK (long_term_pain = (long_term_pain_level IS NOT NULL))
    );

    CREATE TABLE audit_types (code text PRIMARY KEY);
    INSERT INTO audit_types (code) VALUES
      ('RESULT'), ('RESULT_UNAUTHORIZED'), ('LOGIN_RESULT'), ('LOGIN_PORTAL'), ('LOGIN_PORTAL_UNAUTHORIZED'),
      ('ISO_GENERATE'), ('ISO_UNAUTHORIZED'), ('ISO_GENERATE_UNAUTHORIZED'), ('SCREENING'), ('SCREENING_UNAUTHORIZED'),
      ('REFFERENCE'), ('REFFERENCE_UNAUTHORIZED'), ('USER_PASSWORD_CHANGE'), ('USER_PASSWORD_CHANGE_UNAUTHORIZED'),
      ('DICOM_UPLOAD');

    CREATE TABLE audit_entries (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      created_at    timestamptz NOT NULL DEFAULT now(),
      type          text NOT NULL REFERENCES audit_types (code),
      ip            inet,
      description   text,
      -- Whose log the entry belongs to: a patient account, or the screening of a result-portal session.
      user_id       integer REFERENCES users (id),
      screening_id  integer REFERENCES screenings (id),
      CHECK (user_id IS NOT NULL OR screening_id IS NOT NULL OR type LIKE 'LOGIN_%')
    );
    CREATE INDEX audit_entries_user_idx ON audit_entries (user_id, created_at DESC) WHERE user_id IS NOT NULL;
    CREATE INDEX audit_entries_screening_idx ON audit_entries (screening_id, created_at DESC) WHERE user_id IS NULL;

    -- Append-only (DECISIONS.md 11): the database itself refuses to rewrite history.
    CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_entries is append-only';
    END $$;
    CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OR DELETE ON audit_entries
      FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
    CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
      FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();

    CREATE TABLE browser_details (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id          integer REFERENCES users (id),
      screening_id     integer REFERENCES screenings (id),
      browser_name     text NOT NULL,
      browser_version  text NOT NULL,
      os               text NOT NULL,
      resolution_x     integer NOT NULL CHECK (resolution_x BETWEEN 0 AND 100000),
      resolution_y     integer NOT NULL CHECK (resolution_y BETWEEN 0 AND 100000),
      created_at       timestamptz NOT NULL DEFAULT now(),
      CHECK (user_id IS NOT NULL OR screening_id IS NOT NULL)
    );

    CREATE TABLE contact_messages (
      id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      first_name    text NOT NULL,
      last_name     text NOT NULL,
      email         text,
      phone_number  text NOT NULL,
      content       text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 300),
      consent       boolean NOT NULL CHECK (consent),
      language      char(2) NOT NULL DEFAULT 'pl',
      created_at    timestamptz NOT NULL DEFAULT now(),
      forwarded_at  timestamptz
    );

    -- Mail and SMS waiting to go out, or kept here when no provider is configured (DECISIONS.md 13).
    CREATE TABLE outbox_messages (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      channel     outbox_channel NOT NULL,
      recipient   text NOT NULL,
      subject     text,
      body_text   text NOT NULL,
      body_html   text,
      created_at  timestamptz NOT NULL DEFAULT now(),
      sent_at     timestamptz,
      attempts    integer NOT NULL DEFAULT 0,
      last_error  text
    );
    CREATE INDEX outbox_messages_unsent_idx ON outbox_messages (created_at) WHERE sent_at IS NULL;

    CREATE TABLE password_reset_tokens (
      id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
      channel     outbox_channel NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      CHECK (expires_at > created_at)
    );
    CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);

    -- Failed-attempt counters of login throttling (DECISIONS.md 6), shared by every app process.
    CREATE TABLE login_throttle (
      bucket             text PRIMARY KEY,
      failures           integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
      window_started_at  timestamptz NOT NULL DEFAULT now(),
      blocked_until      timestamptz,
      updated_at         timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX login_throttle_updated_idx ON login_throttle (updated_at);

    -- connect-pg-simple's table; user_id in the JSON is indexed to end a user's other sessions.
    CREATE TABLE session (
      sid     varchar PRIMARY KEY,
      sess    json NOT NULL,
      expire  timestamp(6) NOT NULL
    );
    CREATE INDEX session_expire_idx ON session (expire);
    CREATE INDEX session_user_idx ON session ((sess ->> 'userId')) WHERE sess ->> 'userId' IS NOT NULL;

    CREATE TABLE products (
      id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code            text NOT NULL UNIQUE,
      kind            product_kind NOT NULL,
      name_pl         text NOT NULL,
      name_en         text NOT NULL,
      description_pl  text NOT NULL,
      description_en  text NOT NULL,
      price_grosze    integer NOT NULL CHECK (price_grosze >= 0),
      currency        char(3) NOT NULL DEFAULT 'PLN',
      active          boolean NOT NULL DEFAULT true
    );

    CREATE TABLE consultation_slots (
      id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      radiologist_name  text NOT NULL,
      starts_at         timestamptz NOT NULL,
      duration_minutes  integer NOT NULL DEFAULT 20 CHECK (duration_minutes > 0),
      UNIQUE (radiologist_name, starts_at)
    );
    CREATE INDEX consultation_slots_starts_idx ON consultation_slots (starts_at);

    CREATE TABLE provinces (
      id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name  text NOT NULL UNIQUE,
      t_id  text NOT NULL UNIQUE
    );

    CREATE TABLE cities (
      id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      province_id     integer NOT NULL REFERENCES provinces (id),
      name            text NOT NULL,
      pow_name        text NOT NULL,
      community_name  text NOT NULL
    );
    CREATE INDEX cities_search_idx ON cities (province_id, lower(name) text_pattern_ops);

    CREATE TABLE orders (
      id                    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id               integer NOT NULL REFERENCES users (id),
      screening_id          integer NOT NULL REFERENCES screenings (id),
      product_id            integer NOT NULL REFERENCES products (id),
      document_id           uuid REFERENCES screening_documents (id),
      consultation_slot_id  integer UNIQUE REFERENCES consultation_slots (id),
      -- Price when ordered: a later price change never alters an order.
      price_grosze          integer NOT NULL CHECK (price_grosze >= 0),
      currency              char(3) NOT NULL DEFAULT 'PLN',
      status                payment_status NOT NULL DEFAULT 'NEW',
      done                  boolean NOT NULL DEFAULT false,
      shipment_status       shipment_status NOT NULL DEFAULT 'not_applicable',
      created_at            timestamptz NOT NULL DEFAULT now(),
      updated_at            timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX orders_screening_idx ON orders (screening_id, id);
    CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
    -- At most one open order per screening and product ("Such order already exist").
    CREATE UNIQUE INDEX orders_one_open_per_product ON orders (screening_id, product_id) WHERE NOT done;

    CREATE TABLE copy_order_details (
      order_id                 integer PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
      request_types            text[] NOT NULL CHECK (request_types <@ ARRAY['result', 'survey', 'digital_images', 'inspection']::text[] AND cardinality(request_types) > 0),
      request_digital_image    boolean NOT NULL DEFAULT false,
      health_care_institution  text NOT NULL,
      doc_receiver             smallint NOT NULL CHECK (doc_receiver IN (0, 1, 2)),
      email                    text,
      province_id              integer REFERENCES provinces (id),
      city_id                  integer REFERENCES cities (id),
      postal_code              text CHECK (postal_code ~ '^[0-9]{2}-[0-9]{3}$'),
      street                   text,
      house_number             text,
      apartment_number         text,
      privileged_person_name   text,
      privileged_person_id     text,
      statement1               boolean NOT NULL CHECK (statement1),
      statement2               boolean NOT NULL CHECK (statement2),
      CHECK (doc_receiver <> 1 OR (email IS NOT NULL AND province_id IS NOT NULL AND city_id IS NOT NULL
                                   AND postal_code IS NOT NULL AND street IS NOT NULL AND house_number IS NOT NULL)),
      CHECK (doc_receiver <> 2 OR (privileged_person_name IS NOT NULL AND privileged_person_id IS NOT NULL))
    );

    CREATE TABLE payments (
      id                 integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id           integer NOT NULL REFERENCES orders (id),
      provider           text NOT NULL,
      provider_order_id  text,
      status             payment_status NOT NULL DEFAULT 'NEW',
      amount_grosze      integer NOT NULL CHECK (amount_grosze >= 0),
      currency           char(3) NOT NULL DEFAULT 'PLN',
      redirect_uri       text,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, provider_order_id)
    );
    CREATE INDEX payments_order_idx ON payments (order_id, id);

    -- Every server-to-server notification as received: status changes only from verified ones.
    CREATE TABLE payment_notifications (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      payment_id      integer REFERENCES payments (id),
      received_at     timestamptz NOT NULL DEFAULT now(),
      signature_valid boolean NOT NULL,
      body            jsonb NOT NULL
    );

    CREATE TABLE dicom_instances (
      id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      personal_data_id      integer NOT NULL REFERENCES personal_data (id),
      -- Set for images taken at a screening; NULL for studies the patient uploaded.
      screening_id          integer REFERENCES screenings (id),
      uploaded_by_user_id   integer REFERENCES users (id),
      sop_instance_uid      text NOT NULL CHECK (sop_instance_uid ~ '^[0-9.]{1,64}$'),
      sop_class_uid         text NOT NULL,
      study_instance_uid    text NOT NULL,
      series_instance_uid   text NOT NULL,
      modality              text,
      study_date            date,
      storage_key           text NOT NULL UNIQUE,
      size_bytes            bigint NOT NULL CHECK (size_bytes > 132),
      created_at            timestamptz NOT NULL DEFAULT now(),
      UNIQUE (personal_data_id, sop_instance_uid)
    );
    CREATE INDEX dicom_instances_screening_idx ON dicom_instances (screening_id) WHERE screening_id IS NOT NULL;
    CREATE INDEX dicom_instances_study_idx ON dicom_instances (personal_data_id, study_instance_uid);
  `);
}

export async function down(): Promise<void> {
  throw new Error('The initial schema is not reversible; restore from a backup instead.');
}
