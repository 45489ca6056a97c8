import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { eventually, insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../tests/support/orders';
import { createTestApiKey } from '../../tests/support/provider';
import { runCliOn } from './cli-test-support';

/**
 * The staff's commands that work through the provider API: against the running test app, with a
 * key in PORTAL_API_KEY, as the staff would run them beside a portal on its embedded database.
 */
let app: TestApp;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  app = await startTestApp();
  await insertCatalog(app.db);
  const { key } = await createTestApiKey(app, ['orders:read', 'orders:write', 'catalog:write']);
  env = { PORTAL_API_KEY: key };
});
afterAll(() => app?.close());

const cli = (...argv: string[]) => runCliOn(app, [...argv, '--url', app.baseUrl], env);

async function paidPostalCopy(): Promise<number> {
  const places = await insertPlaces(app.db);
  const buyer = await signedInPatient(app, 'Cli');
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
  expect(created.status).toBe(201);
  await fetch(created.body.redirectUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'action=pay',
    redirect: 'manual',
  });
  const orderId = created.body.orderId as number;
  await eventually('the payment', async () => (await app.db('orders').where({ id: orderId }).first('status')).status === 'COMPLETED');
  return orderId;
}

describe('slots', () => {
  it('publishes slots once however often it runs, and lists them', async () => {
    const at = ['2031-03-03T09:00:00+01:00', '2031-03-03T09:20:00+01:00'];
    const first = await cli('slots', 'publish', '--radiologist', 'lek. Anna Testowa', '--at', at[0]!, '--at', at[1]!);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.match(/^published: slot \d+ at 2031-03-03T0[89]:\d0:00\.000Z$/gm)).toHaveLength(2);
    const again = await cli('slots', 'publish', '--radiologist', 'lek. Anna Testowa', '--at', at[0]!);
    expect(again.stdout).toMatch(/^already there: slot \d+/m);
    expect(await app.db('consultation_slots').where({ radiologist_name: 'lek. Anna Testowa' }).count({ n: '*' })).toEqual([{ n: 2 }]);

    const listed = await cli('slots', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+STARTS \(UTC\)\s+MINUTES\s+RADIOLOGIST/m);
    expect(listed.stdout).toContain('2031-03-03T08:00:00.000Z  20       lek. Anna Testowa');
  });

  it("refuses a start without its offset with the portal's own message", async () => {
    const result = await cli('slots', 'publish', '--radiologist', 'lek. Anna Testowa', '--at', '2031-03-03 09:00');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: PUT \/consultation-slots answered 400: VALIDATION \(startsAt: /);
  });
});

describe('orders and refunds', () => {
  it('lists a paid copy to send, ships it with a tracking number and refunds it', async () => {
    const orderId = await paidPostalCopy();
    const listed = await cli('orders', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${orderId}\\s+MP-\\d+\\s+copy\\s+COMPLETED\\s+awaiting\\s+no\\s+\\d{2}-\\d{3} `, 'm'));

    const shipped = await cli('orders', 'ship', String(orderId), '--status', 'sent', '--tracking', 'PX123456789PL');
    expect(shipped).toMatchObject({ code: 0, stderr: '' });
    expect(shipped.stdout).toMatch(/^Order MP-\d+: sent \(PX123456789PL\)$/m);
    expect(await app.db('orders').where({ id: orderId }).first('shipment_status', 'tracking_number')).toEqual({
      shipment_status: 'sent',
      tracking_number: 'PX123456789PL',
    });

    const refunded = await cli('refund', String(orderId), '--reason', 'Copy lost by the carrier');
    expect(refunded).toMatchObject({ code: 0, stderr: '' });
    expect(refunded.stdout).toMatch(/^Order MP-\d+: refund \S+ (PENDING|FINALIZED) \(the whole payment; the order is done\)$/m);
  });

  it('tells what is wrong: no key, an unknown order, a bad status, a bad id', async () => {
    const withoutKey = await runCliOn(app, ['orders', 'list', '--url', app.baseUrl], {});
    expect(withoutKey.code).toBe(2);
    expect(withoutKey.stderr).toContain('set PORTAL_API_KEY');

    const unknown = await cli('orders', 'ship', '999999', '--status', 'sent');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('answered 404: NOT_FOUND');

    const badStatus = await cli('orders', 'ship', '1', '--status', 'lost');
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toMatch(/answered 400: VALIDATION \(shipmentStatus: /);

    const badId = await cli('refund', 'abc', '--reason', 'x');
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('<order> must be a positive whole number');
  });

  it('says so when the portal cannot be reached', async () => {
    const result = await runCliOn(app, ['orders', 'list', '--url', 'http://127.0.0.1:9'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot reach the portal at http://127.0.0.1:9');
  }, 60_000);
});
