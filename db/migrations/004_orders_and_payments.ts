import type { Knex } from 'knex';

/**
 * What orders and payments need beyond the initial schema (issue 12):
 * - an unpaid order expires (DECISIONS.md 17): `expires_at`; mails go in the order's `language`;
 * - a consultation slot is taken only by an order that is not cancelled, so a cancelled or expired
 *   order frees it; the partial unique index is what makes two patients unable to buy one slot;
 * - one open checkout per order (`payments_one_open_per_order`), so parallel clicks on "pay" make
 *   one provider order; `ext_order_id` is ours, unique per checkout (PayU's extOrderId);
 *   `flag` marks what staff must look at (an amount that differs, money after a cancel);
 * - every notification is kept with its provider, the order it named and what came of it;
 * - the built-in sandbox provider's own state (its checkouts and refunds), as a real hosted
 *   checkout keeps it on its side;
 * - audit types of orders and payments, shown in the patient's own log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE orders ADD COLUMN expires_at timestamptz;
    ALTER TABLE orders ADD COLUMN language char(2) NOT NULL DEFAULT 'pl' CHECK (language IN ('pl', 'en'));
    ALTER TABLE orders DROP CONSTRAINT orders_consultation_slot_id_key;
    CREATE UNIQUE INDEX orders_slot_taken ON orders (consultation_slot_id)
      WHERE consultation_slot_id IS NOT NULL AND status <> 'CANCELED';
    CREATE INDEX orders_unpaid_expiry_idx ON orders (expires_at) WHERE status IN ('NEW', 'PENDING');

    ALTER TABLE payments ADD COLUMN ext_order_id text UNIQUE;
    ALTER TABLE payments ADD COLUMN flag text CHECK (flag IN ('amount_mismatch', 'paid_after_cancel'));
    CREATE UNIQUE INDEX payments_one_open_per_order ON payments (order_id) WHERE status IN ('NEW', 'PENDING');

    ALTER TABLE payment_notifications ADD COLUMN provider text;
    ALTER TABLE payment_notifications ADD COLUMN provider_order_id text;
    ALTER TABLE payment_notifications ADD COLUMN outcome text;

    CREATE TABLE sandbox_checkouts (
      id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      ext_order_id   text NOT NULL UNIQUE,
      status         payment_status NOT NULL DEFAULT 'NEW',
      amount_grosze  integer NOT NULL CHECK (amount_grosze > 0),
      currency       char(3) NOT NULL,
      description    text NOT NULL,
      language       char(2) NOT NULL,
      customer_ip    text NOT NULL,
      notify_url     text NOT NULL,
      continue_url   text NOT NULL,
      created_at     timestamptz NOT NULL DEFAULT now(),
      updated_at     timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE sandbox_refunds (
      id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      checkout_id    uuid NOT NULL REFERENCES sandbox_checkouts (id),
      amount_grosze  integer NOT NULL CHECK (amount_grosze > 0),
      description    text NOT NULL,
      ext_refund_id  text UNIQUE,
      status         text NOT NULL DEFAULT 'FINALIZED',
      created_at     timestamptz NOT NULL DEFAULT now()
    );

    INSERT INTO audit_types (code) VALUES
      ('ORDER'), ('ORDER_UNAUTHORIZED'), ('ORDER_CANCEL'), ('PAYMENT'), ('PAYMENT_COMPLETED'), ('PAYMENT_CANCELED');
  `);
}

export async function down(): Promise<void> {
  throw new Error('Not reversible; restore from a backup instead.');
}
