import type { Config } from '../config';
import type { Db } from '../db';
import { writeAudit, type AuditType } from '../lib/audit';
import type { BackgroundTasks } from '../lib/background';
import type { Mailer } from '../lib/mail';
import { orderMail, type OrderMailKind } from './order-mails';
import { findBuyer, type OrderRow } from './orders-repo';

export type OrderEventDeps = { db: Db; config: Config; mailer: Mailer; background: BackgroundTasks };

/** What the patient quotes to the provider: the order's id, zero-padded. */
export function orderNumber(id: number): string {
  return `MP-${String(id).padStart(6, '0')}`;
}

/**
 * What follows a change of an order: the entry in her own audit log and the mail in her
 * language. The audit entry is written at once; the mail is sent in the background (it is kept
 * in the outbox first, so a slow SMTP server never holds up a payment notification).
 */
export function createOrderEvents({ db, config, mailer, background }: OrderEventDeps) {
  return {
    async record(
      order: OrderRow,
      audit: { type: AuditType; ip: string | undefined; description?: string },
      mail?: OrderMailKind,
    ): Promise<void> {
      await writeAudit(db, {
        type: audit.type,
        ip: audit.ip,
        description: audit.description ?? `${orderNumber(order.id)}, ${order.productCode}`,
        userId: order.userId,
      });
      if (mail) background.run('order mail', () => sendMail(order, mail));
    },
  };

  async function sendMail(order: OrderRow, kind: OrderMailKind): Promise<void> {
    const buyer = await findBuyer(db, order.userId);
    const message = orderMail(kind, order.language, {
      number: orderNumber(order.id),
      product: order.productName,
      price: { amountGrosze: order.priceGrosze, currency: order.currency },
      statusUrl: `${config.publicUrl}/order/${order.id}/status`,
    });
    await mailer.send({ to: buyer.email, ...message });
  }
}
