import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { eventually, insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../tests/support/orders';
import { auditEntries } from '../../tests/support/ownership';

let app: TestApp;
let seed: MinimalSeed;
let places: Awaited<ReturnType<typeof insertPlaces>>;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  await insertCatalog(app.db);
  places = await insertPlaces(app.db);
});
afterAll(() => app?.close());

/** The sandbox's hosted page, as the patient's browser uses it: a form post, then the redirect. */
async function decideInSandbox(redirectUri: string, action: 'pay' | 'cancel' | 'pending'): Promise<URL> {
  const response = await fetch(redirectUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action }).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}

describe('POST /api/screening/order-copy/{id}: the copy-order form', () => {
  it('answers every broken rule at once, in the form field by field', async () => {
    const { patient } = seededSignIns(app, seed);
    const client = await patient();
    const empty = await client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, {
      docReceiver: 1,
      address: { postalCode: '02495' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'requestTypes', message: 'orderCopy.validation.requestTypes.required' },
        { path: 'email', message: 'orderCopy.validation.email.required' },
        { path: 'address.province', message: 'orderCopy.validation.province.required' },
        { path: 'address.city', message: 'orderCopy.validation.city.required' },
        { path: 'address.postalCode', message: 'orderCopy.validation.postalCode.invalid' },
        { path: 'address.street', message: 'orderCopy.validation.street.required' },
        { path: 'address.houseNumber', message: 'orderCopy.validation.houseNumber.required' },
        { path: 'statement1', message: 'orderCopy.validation.statement1.required' },
        { path: 'statement2', message: 'orderCopy.validation.statement2.required' },
      ]),
    );
    const privileged = await client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, {
      ...postalCopyForm(places),
      docReceiver: 2,
      privilegedPerson: { name: 'Jan Kowalski', id: 'ABA400000' },
    });
    expect(privileged.body.issues).toEqual([{ path: 'privilegedPerson.id', message: 'orderCopy.validation.privilegedPerson.id.invalid' }]);
    const wrongCity = await client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, {
      ...postalCopyForm(places),
      address: { ...postalCopyForm(places).address, city: places.otherProvinceCityId },
    });
    expect(wrongCity.body.issues).toEqual([{ path: 'address.city', message: 'orderCopy.validation.city.required' }]);
    expect(Number((await app.db('orders').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('pre-fills the form with the provider, her e-mail and the prices', async () => {
    const { patient } = seededSignIns(app, seed);
    const form = await (await patient()).get(`/api/screening/order-copy/${seed.patient.olderScreeningId}`);
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({
      screeningId: seed.patient.olderScreeningId,
      healthCareInstitution: app.config.provider.legalName,
      email: seed.patient.login,
      canOrder: true,
      openOrderId: null,
      products: {
        withImages: { code: 'copy-of-images', price: { amountGrosze: 2100, currency: 'PLN' } },
        withoutImages: { price: { amountGrosze: 0 } },
      },
    });
  });

  it('is not for a result-portal session, nor for another patient’s screening', async () => {
    const { guest } = seededSignIns(app, seed);
    const guestClient = await guest();
    const asGuest = await guestClient.post(`/api/screening/order-copy/${seed.guest.screeningId}`, postalCopyForm(places));
    expect(asGuest.status).toBe(404);
    const other = await signedInPatient(app, 'Obca');
    const ip = '203.0.113.77';
    const foreign = await other.client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, postalCopyForm(places), {
      headers: { 'X-Forwarded-For': ip },
    });
    expect(foreign.status).toBe(404);
    expect(await app.db('orders').where({ screening_id: seed.patient.latestScreeningId }).first()).toBeUndefined();
  });
});

describe('a copy paid in the sandbox', () => {
  it('goes from the form to the checkout, is paid, and the list shows it paid', async () => {
    const { patient } = seededSignIns(app, seed);
    const client = await patient();
    const created = await client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, postalCopyForm(places));
    expect(created.status).toBe(201);
    expect(created.body.redirectUri).toMatch(new RegExp(`^${app.baseUrl}/payment-sandbox/[0-9a-f-]{36}\\?lang=en$`));

    const again = await client.post(`/api/screening/order-copy/${seed.patient.latestScreeningId}`, postalCopyForm(places));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ORDER_ALREADY_EXISTS');

    const page = await fetch(created.body.redirectUri);
    expect(await page.text()).toMatch(/PLN\s21\.00/);

    const back = await decideInSandbox(created.body.redirectUri, 'pay');
    expect(back.pathname).toBe('/payment');
    expect(back.searchParams.get('screeningId')).toBe(String(seed.patient.latestScreeningId));
    const paymentId = back.searchParams.get('paymentId');
    expect(paymentId).toBe(String(created.body.paymentId));

    // The browser's return says nothing; the notification (a job of the sandbox) does.
    await eventually('the payment notification', async () => {
      const confirmed = await client.post(
        `/api/screening/order-copy/payment-confirm/${seed.patient.latestScreeningId}?paymentId=${paymentId}&success=true`,
      );
      return confirmed.body.status === 'COMPLETED';
    });
    const list = await client.get('/api/screenings');
    const item = list.body.items.find((entry: { screening: { id: number } }) => entry.screening.id === seed.patient.latestScreeningId);
    expect(item.orders).toEqual([
      {
        id: created.body.orderId,
        done: false,
        payment: { id: created.body.paymentId, status: 'COMPLETED' },
        shipmentStatus: 'awaiting',
        productCode: 'copy-of-images',
      },
    ]);
    // The page's confirmation asks the sandbox itself, so the notification may find it settled already.
    const kept = await eventually('the notification', async () => {
      const rows = await app.db('payment_notifications').where({ payment_id: created.body.paymentId });
      return rows.length > 0 && rows;
    });
    expect(kept.map((row) => [row.signature_valid, row.outcome])).toEqual([[true, expect.stringMatching(/^(applied|replay)$/)]]);

    const mails = await eventually('the mails', async () => {
      const rows = await app.db('outbox_messages').where({ recipient: seed.patient.login }).orderBy('id').select('subject', 'body_text');
      return rows.length >= 2 && rows;
    });
    expect(mails.map((mail) => mail.subject)).toEqual([
      `We have received your order MP-${String(created.body.orderId).padStart(6, '0')}`,
      `We have received your payment MP-${String(created.body.orderId).padStart(6, '0')}`,
    ]);
    expect(mails[1].body_text).toMatch(/PLN\s21\.00/);
    const audit = await app
      .db('audit_entries')
      .where({ user_id: seed.patient.userId })
      .whereIn('type', ['ORDER', 'PAYMENT', 'PAYMENT_COMPLETED'])
      .orderBy('id')
      .pluck('type');
    expect(audit).toEqual(['ORDER', 'PAYMENT', 'PAYMENT_COMPLETED']);
  });

  it('a cancelled payment closes the order, and a new one can be placed', async () => {
    const buyer = await signedInPatient(app, 'Anulujaca');
    const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
    const back = await decideInSandbox(created.body.redirectUri, 'cancel');
    expect(back.searchParams.get('error')).toBe('501');
    await eventually('the cancellation', async () => {
      const status = await buyer.client.get(`/api/order/${created.body.orderId}/status`);
      return status.body.status === 'CANCELED';
    });
    const form = await buyer.client.get(`/api/screening/order-copy/${buyer.screeningId}`);
    expect(form.body.canOrder).toBe(true);
    const second = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
    expect(second.status).toBe(201);
  });

  it('a payment left pending stays pending, and she may cancel her unpaid order', async () => {
    const buyer = await signedInPatient(app, 'Czekajaca');
    const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
    await decideInSandbox(created.body.redirectUri, 'pending');
    const pending = await eventually('the pending notification', async () => {
      const status = await buyer.client.get(`/api/order/${created.body.orderId}/status`);
      return status.body.status === 'PENDING' && status.body;
    });
    expect(pending.order).toMatchObject({ canPay: true, canCancel: true, number: `MP-${String(created.body.orderId).padStart(6, '0')}` });
    const paidAgain = await buyer.client.post('/api/payment', { orderId: created.body.orderId });
    expect(paidAgain.body.redirectUri).toBe(created.body.redirectUri);
    const cancelled = await buyer.client.post(`/api/order/${created.body.orderId}/cancel`);
    expect(cancelled.body.status).toBe('CANCELED');
    expect(await auditEntries(app.db, 'ORDER_CANCEL', '127.0.0.1')).toHaveLength(1);
  });

  it('a copy without the images costs nothing and needs no payment', async () => {
    const buyer = await signedInPatient(app, 'Bezplatna');
    const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, {
      ...postalCopyForm(places),
      requestTypes: ['result', 'survey'],
      docReceiver: 0,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ redirectUri: `/order/${created.body.orderId}/status`, orderId: created.body.orderId, paymentId: null });
    const status = await buyer.client.get(`/api/order/${created.body.orderId}/status`);
    expect(status.body).toMatchObject({
      status: 'COMPLETED',
      order: { price: { amountGrosze: 0 }, canPay: false, shipmentStatus: 'awaiting' },
    });
    expect(await app.db('payments').where({ order_id: created.body.orderId }).first()).toBeUndefined();
  });
});
