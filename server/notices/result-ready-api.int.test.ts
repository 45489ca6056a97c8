import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { providerClient, type ProviderClient } from '../../tests/support/provider';

/**
 * The "result ready" notice as the RIS triggers it through the provider API: the screening's
 * descriptions become completed, and whatever the RIS retries or flips, the patient gets one mail.
 */
let app: TestApp;
let ris: ProviderClient;
beforeAll(async () => {
  app = await startTestApp();
  ris = await providerClient(app, ['patients:write', 'screenings:write']);
});
afterAll(() => app?.close());

it('sends one "result ready" mail when the RIS completes a screening, however often it says so', async () => {
  const patient = { firstName: 'Helena', lastName: 'Wyniki', birthAt: '1969-07-01', email: 'helena.wyniki@example.com' };
  expect((await ris.put('/patients/RIS-P-77', patient)).status).toBe(201);
  expect((await ris.put('/screenings/RIS-S-77', { patientExternalId: 'RIS-P-77', examinedAt: '2026-11-02T10:00:00+01:00' })).status).toBe(
    201,
  );
  const mails = () => app.db('outbox_messages').where({ channel: 'email', recipient: patient.email });

  expect((await ris.put('/screenings/RIS-S-77/result', { descriptionsStatus: 'in_progress' })).status).toBe(200);
  expect(await mails()).toHaveLength(0);

  const completed = { descriptionsStatus: 'completed', birads: 2, signedAt: '2026-11-03T12:00:00+01:00' };
  expect((await ris.put('/screenings/RIS-S-77/result', completed)).status).toBe(200);
  expect((await ris.put('/screenings/RIS-S-77/result', completed)).status).toBe(200);
  expect((await ris.put('/screenings/RIS-S-77/result', { descriptionsStatus: 'in_progress' })).status).toBe(200);
  expect((await ris.put('/screenings/RIS-S-77/result', completed)).status).toBe(200);

  await expect.poll(async () => (await mails()).length).toBe(1);
  const [mail] = await mails();
  expect(mail.body_text).toContain(app.config.publicUrl);
  expect(`${mail.subject}\n${mail.body_text}`).not.toMatch(/BI-?RADS|łagodn|benign/i);
});
