import type { Knex } from 'knex';
import type { Config } from '../../server/config';
import { hashAccessCode } from '../../server/lib/access-code';
import { ANNA } from './demo-people';

type DemoOrder = {
  /** The screening, by its demo access code (the only stable handle before ids exist). */
  accessCode: string;
  productCode: string;
  done: boolean;
  shipmentStatus: 'not_applicable' | 'awaiting' | 'prepared' | 'sent' | 'delivered' | 'collected';
  orderedAt: string;
  /** Send to her home address (1) or pick up in person (0). */
  docReceiver: 0 | 1;
  payment: { status: 'NEW' | 'PENDING' | 'COMPLETED' | 'CANCELED'; updatedAt: string };
};

/**
 * Anna's purchases, so the screenings list shows each state of its order columns: a copy of the
 * 2024 images paid and sent; a copy of the 2025 images still waiting for its payment (which
 * disables ordering again there); her other screenings without orders ("no payment found").
 */
export const ANNA_ORDERS: readonly DemoOrder[] = [
  {
    accessCode: 'Gy2hK8rw',
    productCode: 'copy-of-images',
    done: true,
    shipmentStatus: 'sent',
    orderedAt: '2024-05-06T19:42:00+02:00',
    docReceiver: 1,
    payment: { status: 'COMPLETED', updatedAt: '2024-05-06T19:44:00+02:00' },
  },
  {
    accessCode: 'Zc7pF3tn',
    productCode: 'copy-of-images',
    done: false,
    shipmentStatus: 'awaiting',
    orderedAt: '2025-06-16T08:05:00+02:00',
    docReceiver: 0,
    payment: { status: 'PENDING', updatedAt: '2025-06-16T08:06:00+02:00' },
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

/** Inserts Anna's orders, each with its copy-order form and one checkout at the sandbox provider. */
export async function insertDemoOrders(trx: Knex.Transaction, config: Config): Promise<void> {
  const user = await trx('users').where('email', ANNA.account!.email).first('id');
  for (const order of ANNA_ORDERS) {
    const screening = await trx('screenings')
      .where('access_code_hash', hashAccessCode(config.accessCodeSecret, order.accessCode))
      .first('id');
    const product = await trx('products').where('code', order.productCode).first('id', 'price_grosze', 'currency');
    const [row] = await trx('orders')
      .insert({
        user_id: user.id,
        screening_id: screening.id,
        product_id: product.id,
        price_grosze: product.price_grosze,
        currency: product.currency,
        status: order.payment.status,
        done: order.done,
        shipment_status: order.shipmentStatus,
        created_at: order.orderedAt,
        updated_at: order.payment.updatedAt,
      })
      .returning('id');
    await trx('copy_order_details').insert({
      order_id: row.id,
      request_types: ['result', 'digital_images'],
      request_digital_image: true,
      health_care_institution: config.provider.legalName,
      doc_receiver: order.docReceiver,
      ...(order.docReceiver === 1 ? await postalAddress(trx) : {}),
      statement1: true,
      statement2: true,
    });
    await trx('payments').insert({
      order_id: row.id,
      provider: 'sandbox',
      provider_order_id: `demo-order-${row.id}`,
      status: order.payment.status,
      amount_grosze: product.price_grosze,
      currency: product.currency,
      created_at: order.orderedAt,
      updated_at: order.payment.updatedAt,
    });
  }
}

async function postalAddress(trx: Knex.Transaction) {
  const { province, city, ...street } = ANNA_ADDRESS;
  const found = await trx('cities as c')
    .join('provinces as p', 'p.id', 'c.province_id')
    .where({ 'p.name': province, 'c.name': city })
    .first({ provinceId: 'p.id', cityId: 'c.id' });
  return { email: ANNA.account!.email, province_id: found.provinceId, city_id: found.cityId, ...street };
}
