import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { insertCatalog } from '../../tests/support/orders';
import { insertAccount, insertPerson, insertScreening, type PersonInput } from '../../tests/support/seed-minimal';
import { createLogger } from '../lib/logger';
import { createMailer } from '../lib/mail';
import { createSmsSender } from '../lib/sms';
import { createResultNotices, type ResultNotices } from './result-ready';

let app: TestApp;
let notices: ResultNotices;
let catalog: Record<string, number>;
let people = 0;

beforeAll(async () => {
  app = await startTestApp({ config: { publicUrl: 'https://portal.example.test' } });
  const logger = createLogger(app.config, { write: () => undefined });
  const deps = { db: app.db, config: app.config, logger, clock: app.clock.now };
  notices = createResultNotices({ ...deps, mailer: createMailer(deps), sms: createSmsSender({ ...deps, adapter: null }) });
  catalog = await insertCatalog(app.db);
});
afterAll(() => app?.close());

type Outboxed = { channel: string; recipient: string; subject: string | null; body_text: string; body_html: string | null };

/** A patient with one screening; the e-mail and phone she gave the provider are unique per test. */
async function patientWithScreening(options: { email?: boolean; phone?: boolean; account?: { resultNotices?: boolean } } = {}) {
  const n = ++people;
  const person: PersonInput = {
    firstName: 'Halina',
    lastName: `Powiadomiona${n}`,
    birthAt: '1965-02-03',
    ...(options.email !== false && { email: `halina.${n}@example.com` }),
    ...(options.phone && { phoneNumber: `+4860070${String(n).padStart(4, '0')}` }),
  };
  const personalDataId = await insertPerson(app.db, person);
  let login: string | undefined;
  let userId: number | undefined;
  if (options.account) {
    login = `halina.konto.${n}@example.com`;
    userId = await insertAccount(app.db, personalDataId, { email: login, password: 'Haslo!Halina1' });
    if (options.account.resultNotices === false) await app.db('users').where({ id: userId }).update({ result_notices: false });
  }
  const screeningId = await insertScreening(app.db, app.config, personalDataId, {
    accessCode: `Rn${String(n).padStart(6, '0')}`,
    examinedAt: '2025-01-10T09:00:00Z',
  });
  const recipients = [person.email, person.phoneNumber, login].filter((value): value is string => Boolean(value));
  return { screeningId, userId, personalEmail: person.email, phone: person.phoneNumber, login, recipients };
}

function outboxOf(recipients: string[]): Promise<Outboxed[]> {
  return app
    .db('outbox_messages')
    .whereIn('recipient', recipients)
    .orderBy('id')
    .select('channel', 'recipient', 'subject', 'body_text', 'body_html');
}

async function noticeSentAt(screeningId: number): Promise<Date | null> {
  const row = await app.db('screenings').where({ id: screeningId }).first('result_notice_sent_at');
  return row.result_notice_sent_at;
}

describe('resultReady', () => {
  it('sends a patient without an account one e-mail and one SMS, in Polish, however often it is called', async () => {
    const patient = await patientWithScreening({ phone: true });
    await notices.resultReady(patient.screeningId);
    await notices.resultReady(patient.screeningId);
    await Promise.all([notices.resultReady(patient.screeningId), notices.resultReady(patient.screeningId)]);

    const outbox = await outboxOf(patient.recipients);
    expect(outbox.map((row) => [row.channel, row.recipient])).toEqual([
      ['email', patient.personalEmail],
      ['sms', patient.phone],
    ]);
    const [mail, sms] = outbox;
    expect(mail!.subject).toBe('Wynik badania mammograficznego jest gotowy');
    // No account: the result portal, opened with the access code.
    expect(mail!.body_text).toContain('https://portal.example.test/login\n');
    expect(mail!.body_html).toContain('href="https://portal.example.test/login"');
    expect(sms!.body_text).toMatch(/https:\/\/portal\.example\.test\/login$/);
    expect(await noticeSentAt(patient.screeningId)).toBeInstanceOf(Date);
  });

  it('writes to the login of a patient with an account, pointing at the patient portal, and never carries the result', async () => {
    const patient = await patientWithScreening({ account: {} });
    await notices.resultReady(patient.screeningId);
    await notices.resultReady(patient.screeningId);

    const outbox = await outboxOf(patient.recipients);
    expect(outbox.map((row) => [row.channel, row.recipient])).toEqual([['email', patient.login]]);
    const everything = `${outbox[0]!.subject}\n${outbox[0]!.body_text}\n${outbox[0]!.body_html}`;
    expect(everything).toContain('https://portal.example.test/portal/login');
    expect(everything).not.toMatch(/BI-?RADS|birads|\bnorma\b|zmian|finding|lesion|negative|positive|ujemn|dodatn/i);
    expect(everything).not.toContain('Halina');
  });

  it('writes in English when her latest order was in English', async () => {
    const patient = await patientWithScreening({ account: {} });
    const [firstProduct, secondProduct] = Object.values(catalog);
    await app.db('orders').insert([
      {
        user_id: patient.userId,
        screening_id: patient.screeningId,
        product_id: firstProduct,
        price_grosze: 0,
        language: 'pl',
        created_at: new Date('2024-01-01T00:00:00Z'),
      },
      {
        user_id: patient.userId,
        screening_id: patient.screeningId,
        product_id: secondProduct,
        price_grosze: 0,
        language: 'en',
        created_at: new Date('2024-06-01T00:00:00Z'),
      },
    ]);
    await notices.resultReady(patient.screeningId);
    const [mail] = await outboxOf(patient.recipients);
    expect(mail!.subject).toBe('Your mammography result is ready');
    expect(mail!.body_html).toContain('<html lang="en">');
  });

  it('sends nothing to a patient who switched result notices off, and still marks the screening handled', async () => {
    const patient = await patientWithScreening({ phone: true, account: { resultNotices: false } });
    await notices.resultReady(patient.screeningId);
    expect(await outboxOf(patient.recipients)).toEqual([]);
    expect(await noticeSentAt(patient.screeningId)).toBeInstanceOf(Date);

    // Switching them back on later does not send the old notice.
    await app.db('users').where({ id: patient.userId }).update({ result_notices: true });
    await notices.resultReady(patient.screeningId);
    expect(await outboxOf(patient.recipients)).toEqual([]);
  });

  it('sends only the SMS when no e-mail is known, and nothing without e-mail or phone', async () => {
    const smsOnly = await patientWithScreening({ email: false, phone: true });
    await notices.resultReady(smsOnly.screeningId);
    expect((await outboxOf(smsOnly.recipients)).map((row) => row.channel)).toEqual(['sms']);

    const unreachable = await patientWithScreening({ email: false });
    const before = await app.db('outbox_messages').count<{ count: string }[]>('* as count');
    await notices.resultReady(unreachable.screeningId);
    const after = await app.db('outbox_messages').count<{ count: string }[]>('* as count');
    expect(Number(after[0]!.count)).toBe(Number(before[0]!.count));
    expect(await noticeSentAt(unreachable.screeningId)).toBeInstanceOf(Date);
  });

  it('does nothing for a screening that does not exist', async () => {
    await expect(notices.resultReady(999_999)).resolves.toBeUndefined();
  });
});
