import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/app';
import { insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../../tests/support/orders';
import { PaymentProviderError, type PaymentProvider } from '../provider';
import { createSandboxProvider } from './adapter';
import type { SandboxNotifier } from './notifier';

/**
 * Refunds of the built-in sandbox provider: what PayU allows (partial and full, never more than
 * was paid, one refund per extRefundId), kept in `sandbox_refunds`. The sandbox here is a second
 * instance on the app's database; its notifier only records what it is asked to send (a second
 * pg-boss on the app's pool would compete with the app's own; the delivery itself is the
 * notifier's, tested with the checkout in copy-order.int.test.ts).
 */
let app: TestApp;
const notified: Parameters<SandboxNotifier['notify']>[0][] = [];
let sandbox: PaymentProvider;
let places: Awaited<ReturnType<typeof insertPlaces>>;

beforeAll(async () => {
  app = await startTestApp();
  await insertCatalog(app.db);
  places = await insertPlaces(app.db);
  const notifier: SandboxNotifier = { notify: async (job) => void notified.push(job) };
  sandbox = createSandboxProvider({
    db: app.db,
    publicUrl: app.config.publicUrl,
    secondKey: app.config.payments.sandboxSecondKey,
    notifier,
  });
});
afterAll(() => app?.close());

/** A copy paid on the sandbox's page; its checkout id. */
async function paidCheckout(name: string): Promise<string> {
  const buyer = await signedInPatient(app, name);
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
  const decided = await fetch(created.body.redirectUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'action=pay',
    redirect: 'manual',
  });
  expect(decided.status).toBe(303);
  return (await app.db('payments').where({ id: created.body.paymentId }).first()).provider_order_id;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return (error as PaymentProviderError).message;
}

const refundsOf = (checkoutId: string) =>
  app
    .db('sandbox_refunds')
    .where({ checkout_id: checkoutId })
    .orderBy('created_at')
    .select('amount_grosze', 'description', 'ext_refund_id');

describe('sandbox refunds', () => {
  it('refunds part of a paid order, then the rest, and never more than was paid', async () => {
    const checkoutId = await paidCheckout('Zwrotna');
    const partial = await sandbox.refund(checkoutId, { description: 'Zwrot części', amountGrosze: 500, extRefundId: 'zwrot-1' });
    expect(partial).toEqual({ refundId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'PENDING' });
    // The same extRefundId asked again (a retried request) is the same refund.
    expect(await sandbox.refund(checkoutId, { description: 'Zwrot części', amountGrosze: 500, extRefundId: 'zwrot-1' })).toEqual(partial);
    expect(await refusal(sandbox.refund(checkoutId, { description: 'Inna kwota', amountGrosze: 700, extRefundId: 'zwrot-1' }))).toBe(
      'sandbox: REFUND_IDEMPOTENCY_MISMATCH',
    );
    expect(await refusal(sandbox.refund(checkoutId, { description: 'Za dużo', amountGrosze: 1601 }))).toBe(
      'sandbox: AMOUNT_TO_BIG, the refund exceeds what is left',
    );
    await sandbox.refund(checkoutId, { description: 'Reszta' });
    expect(await refusal(sandbox.refund(checkoutId, { description: 'Jeszcze', amountGrosze: 1 }))).toBe(
      'sandbox: NO_BALANCE, nothing left to refund',
    );
    expect(await refundsOf(checkoutId)).toEqual([
      { amount_grosze: 500, description: 'Zwrot części', ext_refund_id: 'zwrot-1' },
      { amount_grosze: 1600, description: 'Reszta', ext_refund_id: null },
    ]);
    // Each new refund is to be notified once; a repeated request is not a new refund.
    const refundIds = await app.db('sandbox_refunds').where({ checkout_id: checkoutId }).orderBy('created_at').pluck('id');
    expect(notified.filter((job) => job.checkoutId === checkoutId)).toEqual(refundIds.map((refundId) => ({ checkoutId, refundId })));
  });

  it('refunds a whole order at once', async () => {
    const checkoutId = await paidCheckout('Calosc');
    await sandbox.refund(checkoutId, { description: 'Zwrot całości' });
    expect(await refundsOf(checkoutId)).toEqual([{ amount_grosze: 2100, description: 'Zwrot całości', ext_refund_id: null }]);
  });

  it('lets only one of two refunds at once take what is left', async () => {
    const checkoutId = await paidCheckout('Rownoczesna');
    const results = await Promise.allSettled([
      sandbox.refund(checkoutId, { description: 'Pierwszy', amountGrosze: 2000 }),
      sandbox.refund(checkoutId, { description: 'Drugi', amountGrosze: 2000 }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await refundsOf(checkoutId)).toHaveLength(1);
  });

  it('refuses an order that is not paid, an unknown one, and an extRefundId used for another order', async () => {
    const buyer = await signedInPatient(app, 'Nieoplacona');
    const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
    const unpaid = (await app.db('payments').where({ id: created.body.paymentId }).first()).provider_order_id;
    expect(await refusal(sandbox.refund(unpaid, { description: 'Zwrot' }))).toBe('sandbox: TRANS_NOT_ENDED, nothing to refund');
    expect(await refusal(sandbox.refund('00000000-0000-4000-8000-000000000000', { description: 'Zwrot' }))).toBe(
      'sandbox: ORDER_NOT_FOUND',
    );
    expect(await refusal(sandbox.refund('not-a-checkout', { description: 'Zwrot' }))).toBe('sandbox: ORDER_NOT_FOUND');
    const first = await paidCheckout('Pierwsza');
    const second = await paidCheckout('Druga');
    await sandbox.refund(first, { description: 'Zwrot', amountGrosze: 100, extRefundId: 'wspolny' });
    expect(await refusal(sandbox.refund(second, { description: 'Zwrot', amountGrosze: 100, extRefundId: 'wspolny' }))).toBe(
      'sandbox: REFUND_OUTER_ID_NOT_UNIQUE',
    );
  });
});
