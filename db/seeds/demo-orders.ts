import type { Knex } from 'knex';
import type { Config } from '../../server/config';
import { hashAccessCode } from '../../server/lib/access-code';
import { ANNA } from './demo-people';

type PaymentStatus = 'NEW' | 'PENDING' | 'COMPLETED' | 'CANCELED';

type DemoOrder = {
  /** The screening, by its demo access code (the only stable handle before ids exist). */
  accessCode: string;
  productCode: string;
  status: PaymentStatus;
  done: boolean;
  shipmentStatus: 'not_applicable' | 'awaiting' | 'prepared' | 'sent' | 'delivered' | 'collected';
  orderedAt: string;
  /** Copies only: send to her home address (1) or pick up in person (0). */
  docReceiver?: 0 | 1;
  /** A translation's source: her Polish description. */
  translates?: boolean;
  /** Unpaid orders wait this many days from the seeding, then expire like any other (DECISIONS.md 17). */
  unpaidDays?: number;
  /** The checkout at the sandbox provider; none for a free order. */
  payment?: { status: PaymentStatus; updatedAt: string };
};

/**
 * Anna's purchases, so the screenings list and the order pages show each state: a copy of the
 * 2024 images paid and sent; a copy of the 2025 images whose payment is pending; a German
 * translation of 2022-04 ordered but not paid yet; an English translation of 2022-03 that expired
 * unpaid; a free copy of the 2020 result collected in person (no payment). The two unpaid ones
 * expire a few days after the seeding, so none blocks her for ever; until then she may pay or
 * cancel them.
 */
export const ANNA_ORDERS: readonly DemoOrder[] = [
  {
    accessCode: 'Gy2hK8rw',
    productCode: 'copy-of-images',
    status: 'COMPLETED',
    done: true,
    shipmentStatus: 'sent',
    orderedAt: '2024-05-06T19:42:00+02:00',
    docReceiver: 1,
    payment: { status: 'COMPLETED', updatedAt: '2024-05-06T19:44:00+02:00' },
  },
  {
    accessCode: 'Zc7pF3tn',
    productCode: 'copy-of-images',
    status: 'PENDING',
    done: false,
    shipmentStatus: 'not_applicable',
    orderedAt: '2025-06-16T08:05:00+02:00',
    docReceiver: 0,
    unpaidDays: 3,
    payment: { status: 'PENDING', updatedAt: '2025-06-16T08:06:00+02:00' },
  },
  {
    accessCode: 'Vb6sN4jq',
    productCode: 'translation-de',
    status: 'NEW',
    done: false,
    shipmentStatus: 'not_applicable',
    orderedAt: '2022-04-20T18:12:00+02:00',
    translates: true,
    unpaidDays: 3,
    payment: { status: 'NEW', updatedAt: '2022-04-20T18:12:00+02:00' },
  },
  {
    accessCode: 'Lm9dT2fc',
    productCode: 'translation-en',
    status: 'CANCELED',
    done: true,
    shipmentStatus: 'not_applicable',
    orderedAt: '2022-03-16T07:30:00+01:00',
    translates: true,
    payment: { status: 'CANCELED', updatedAt: '2022-03-16T08:30:00+01:00' },
  },
  {
    accessCode: 'Hp3kW7xn',
    productCode: 'copy-of-records',
    status: 'COMPLETED',
    done: true,
    shipmentStatus: 'collected',
    orderedAt: '2020-05-20T12:00:00+02:00',
    docReceiver: 0,
  },
];

/** A fictional Warsaw address for the order sent by post. */
const ANNA_ADDRESS = {
  province: 'mazowieckie',
  city: 'Warszawa',
  postal_code: '02-495',
  street: 'Przykładowa',
  house_number: '12',
  apartment_number: '4',
};

const DAY_MS = 24 * 60 * 60_000;

/** Inserts Anna's orders, each with its copy-order form or translated description, and its checkout at the sandbox provider. */
export async function insertDemoOrders(trx: Knex.Transaction, config: Config, now: Date): Promise<void> {
  const user = await trx('users').where('email', ANNA.account!.email).first('id');
  for (const order of ANNA_ORDERS) {
    const screening = await trx('screenings')
      .where('access_code_hash', hashAccessCode(config.accessCodeSecret, order.accessCode))
      .first('id');
    const product = await trx('products').where('code', order.productCode).first('id', 'price_grosze', 'currency', 'name_pl');
    const document = order.translates
      ? await trx('screening_documents').where({ screening_id: screening.id, kind: 'description', language: 'pl' }).first('id')
      : undefined;
    const [row] = await trx('orders')
      .insert({
        user_id: user.id,
        screening_id: screening.id,
        product_id: product.id,
        document_id: document?.id ?? null,
        price_grosze: product.price_grosze,
        currency: product.currency,
        status: order.status,
        done: order.done,
        shipment_status: order.shipmentStatus,
        created_at: order.orderedAt,
        updated_at: order.payment?.updatedAt ?? order.orderedAt,
        expires_at: order.unpaidDays ? new Date(now.getTime() + order.unpaidDays * DAY_MS) : null,
      })
      .returning('id');
    if (order.docReceiver !== undefined) await insertCopyForm(trx, config, row.id, order.docReceiver);
    if (order.payment) await insertSandboxPayment(trx, config, row.id, screening.id, product, order);
  }
}

async function insertCopyForm(trx: Knex.Transaction, config: Config, orderId: number, docReceiver: 0 | 1): Promise<void> {
  await trx('copy_order_details').insert({
    order_id: orderId,
    request_types: docReceiver === 1 ? ['result', 'digital_images'] : ['result'],
    request_digital_image: docReceiver === 1,
    health_care_institution: config.provider.legalName,
    doc_receiver: docReceiver,
    ...(docReceiver === 1 ? await postalAddress(trx) : {}),
    statement1: true,
    statement2: true,
  });
}

/** The payment and, on the sandbox's side, its checkout, so an open one can still be paid. */
async function insertSandboxPayment(
  trx: Knex.Transaction,
  config: Config,
  orderId: number,
  screeningId: number,
  product: { price_grosze: number; currency: string; name_pl: string },
  order: DemoOrder,
): Promise<void> {
  const [payment] = await trx('payments')
    .insert({
      order_id: orderId,
      provider: 'sandbox',
      status: order.payment!.status,
      amount_grosze: product.price_grosze,
      currency: product.currency,
      created_at: order.orderedAt,
      updated_at: order.payment!.updatedAt,
    })
    .returning('id');
  const extOrderId = `demo-${orderId}-${payment.id}`;
  const continueUrl = order.translates
    ? `${config.publicUrl}/order/${orderId}/status`
    : `${config.publicUrl}/payment?paymentId=${payment.id}&screeningId=${screeningId}`;
  const [checkout] = await trx('sandbox_checkouts')
    .insert({
      ext_order_id: extOrderId,
      status: order.payment!.status,
      amount_grosze: product.price_grosze,
      currency: product.currency,
      description: `${product.name_pl}, MP-${String(orderId).padStart(6, '0')}`,
      language: 'pl',
      customer_ip: '127.0.0.1',
      notify_url: `${config.publicUrl}/api/payments/notify/sandbox`,
      continue_url: continueUrl,
      created_at: order.orderedAt,
      updated_at: order.payment!.updatedAt,
    })
    .returning('id');
  await trx('payments')
    .where({ id: payment.id })
    .update({
      ext_order_id: extOrderId,
      provider_order_id: checkout.id,
      redirect_uri: `${config.publicUrl}/payment-sandbox/${checkout.id}?lang=pl`,
    });
}

async function postalAddress(trx: Knex.Transaction) {
  const { province, city, ...street } = ANNA_ADDRESS;
  const found = await trx('cities as c')
    .join('provinces as p', 'p.id', 'c.province_id')
    .where({ 'p.name': province, 'c.name': city })
    .orderBy('c.id')
    .first({ provinceId: 'p.id', cityId: 'c.id' });
  return { email: ANNA.account!.email, province_id: found.provinceId, city_id: found.cityId, ...street };
}
