import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { insertCatalog, signedInPatient } from '../../tests/support/orders';
import { providerClient, type ProviderClient } from '../../tests/support/provider';

/** The provider's calls about what it sells: consultation slots, products and banners. */
let app: TestApp;
let products: Record<string, number>;
let catalog: ProviderClient;
let ordersOnly: ProviderClient;

beforeAll(async () => {
  app = await startTestApp();
  products = await insertCatalog(app.db);
  catalog = await providerClient(app, ['catalog:write']);
  ordersOnly = await providerClient(app, ['orders:read', 'orders:write']);
});
afterAll(() => app?.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

describe('provider API: consultation slots', () => {
  it('needs catalog:write', async () => {
    for (const answer of [
      await ordersOnly.get('/consultation-slots'),
      await ordersOnly.put('/consultation-slots', { radiologistName: 'lek. A', startsAt: inDays(2).toISOString() }),
      await ordersOnly.delete('/consultation-slots/1'),
      await ordersOnly.get('/products'),
      await ordersOnly.patch('/products/copy-of-images', { priceGrosze: 1 }),
      await ordersOnly.get('/banners'),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'API_KEY_SCOPE', requiredScope: 'catalog:write' });
    }
  });

  it('upserts a slot by radiologist and start, lists it, deletes a free one', async () => {
    const startsAt = inDays(5);
    startsAt.setUTCMilliseconds(0);
    const created = await catalog.put('/consultation-slots', { radiologistName: 'lek. Anna Nowa', startsAt: startsAt.toISOString() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      radiologistName: 'lek. Anna Nowa',
      startsAt: startsAt.toISOString(),
      durationMinutes: 20,
      heldByOrderId: null,
    });
    // The same start written another way is the same slot.
    const updated = await catalog.put('/consultation-slots', {
      radiologistName: 'lek. Anna Nowa',
      startsAt: startsAt.toISOString().replace('Z', '+00:00'),
      durationMinutes: 30,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, durationMinutes: 30 });

    const listed = await catalog.get(`/consultation-slots?from=${encodeURIComponent(inDays(4).toISOString())}`);
    expect(listed.status).toBe(200);
    expect(listed.body.slots.map((slot: { id: number }) => slot.id)).toContain(created.body.id);
    expect((await catalog.get('/consultation-slots?from=yesterday')).status).toBe(400);
    expect((await catalog.put('/consultation-slots', { radiologistName: '', startsAt: 'soon' })).status).toBe(400);

    expect((await catalog.delete(`/consultation-slots/${created.body.id}`)).status).toBe(204);
    expect((await catalog.delete(`/consultation-slots/${created.body.id}`)).status).toBe(404);
    expect(await app.db('consultation_slots').where({ id: created.body.id }).first()).toBeUndefined();
  });

  it('refuses to delete a slot an order holds', async () => {
    const slot = await catalog.put('/consultation-slots', { radiologistName: 'lek. Ewa Zajęta', startsAt: inDays(6).toISOString() });
    const buyer = await signedInPatient(app, 'Konsultowana');
    const ordered = await buyer.client.post('/api/order-consultation', {
      screeningId: buyer.screeningId,
      productId: products['radiologist-consultation'],
      consultationRegistrationId: slot.body.id,
      userId: buyer.userId,
      language: 'pl',
    });
    expect(ordered.status).toBe(201);
    const listed = await catalog.get('/consultation-slots');
    expect(listed.body.slots.find((candidate: { id: number }) => candidate.id === slot.body.id)).toMatchObject({
      heldByOrderId: ordered.body.orderId,
    });
    const refused = await catalog.delete(`/consultation-slots/${slot.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', reason: 'slot_has_orders' });
    expect(await app.db('consultation_slots').where({ id: slot.body.id }).first()).toBeDefined();
  });
});

describe('provider API: products', () => {
  it('lists products and changes a price for new orders only', async () => {
    const listed = await catalog.get('/products');
    expect(listed.status).toBe(200);
    const translation = listed.body.products.find((product: { kind: string }) => product.kind === 'translation_en');
    expect(translation).toMatchObject({ active: true, price: { currency: 'PLN' } });
    const oldPrice = translation.price.amountGrosze;

    const buyer = await signedInPatient(app, 'Cenowa');
    const before = await app
      .db('orders')
      .insert({
        user_id: buyer.userId,
        screening_id: buyer.screeningId,
        product_id: translation.id,
        price_grosze: oldPrice,
        status: 'NEW',
      })
      .returning('id');

    const changed = await catalog.patch(`/products/${translation.code}`, {
      priceGrosze: oldPrice + 1000,
      name: { en: 'Translation into English (new)' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      code: translation.code,
      price: { amountGrosze: oldPrice + 1000 },
      name: { pl: translation.name.pl, en: 'Translation into English (new)' },
      active: true,
    });
    expect((await app.db('orders').where({ id: before[0].id }).first('price_grosze')).price_grosze).toBe(oldPrice);
    const reader = await providerClient(app, ['orders:read']);
    expect((await reader.get(`/orders/${before[0].id}`)).body.price.amountGrosze).toBe(oldPrice);

    const offSale = await catalog.patch(`/products/${translation.code}`, { active: false });
    expect(offSale.body.active).toBe(false);
    const onSale = await buyer.client.get('/api/products');
    expect(onSale.body.map((product: { code: string }) => product.code)).not.toContain(translation.code);

    expect((await catalog.patch('/products/no-such-product', { active: true })).status).toBe(404);
    expect((await catalog.patch(`/products/${translation.code}`, { priceGrosze: -1 })).status).toBe(400);
    expect((await catalog.patch(`/products/${translation.code}`, { colour: 'pink' })).status).toBe(400);
  });
});

describe('provider API: banners', () => {
  it('creates, changes and deactivates a banner', async () => {
    const created = await catalog.post('/banners', {
      position: 'top-placement',
      imageUrl: 'https://sponsor.example/banner.png',
      altPl: 'Sponsor',
      altEn: 'Sponsor',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      position: 'top-placement',
      imageUrl: 'https://sponsor.example/banner.png',
      linkUrl: null,
      altPl: 'Sponsor',
      altEn: 'Sponsor',
      sortOrder: 0,
      active: true,
    });
    const id = created.body.id;
    const changed = await catalog.patch(`/banners/${id}`, {
      linkUrl: 'https://sponsor.example/',
      sortOrder: 5,
      position: 'bottom-placement',
    });
    expect(changed.body).toMatchObject({ id, linkUrl: 'https://sponsor.example/', sortOrder: 5, position: 'bottom-placement' });

    const listed = await catalog.get('/banners');
    expect(listed.body.banners.find((banner: { id: number }) => banner.id === id)).toEqual(changed.body);

    const off = await catalog.delete(`/banners/${id}`);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id, active: false });
    expect((await catalog.delete(`/banners/${id}`)).body).toEqual(off.body);
    expect(await app.db('banners').where({ id }).first()).toMatchObject({ active: false });

    expect((await catalog.post('/banners', { position: 'side', imageUrl: 'javascript:alert(1)', altPl: '', altEn: 'x' })).status).toBe(400);
    expect((await catalog.patch('/banners/999999', { active: true })).status).toBe(404);
    expect((await catalog.delete('/banners/abc')).status).toBe(404);
    const audit = await app.db('staff_audit').where({ action: 'createBanner' }).first();
    expect(audit).toMatchObject({ object_type: 'banner', object_id: String(id), status: 201 });
  });
});
