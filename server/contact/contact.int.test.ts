import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../../tests/support/app';
import { startTestSmtp, type TestSmtp } from '../../tests/support/test-smtp';

const PROVIDER_INBOX = 'rejestracja@provider.example';

let app: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await startTestApp({
    config: {
      mail: { smtpUrl: smtp.url, from: 'portal@provider.example' },
      provider: {
        legalName: 'Centrum Testowe sp. z o.o.',
        address: 'ul. Testowa 1, 00-001 Warszawa',
        phone: '+48 22 000 00 00',
        email: PROVIDER_INBOX,
        bankAccount: 'PL00 0000 0000 0000 0000 0000 0000',
      },
    },
  });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const valid = {
  firstName: 'Maria',
  lastName: 'Kowalska',
  email: 'maria.kowalska@example.com',
  phoneNumber: '600 100 200',
  content: 'Proszę o kontakt w sprawie terminu badania.',
  consent: true,
  language: 'pl',
};

let nextIp = 1;
/** Each test sends from its own address, so the spam throttle of one never meets another. */
function freshSender(): { client: TestClient; headers: Record<string, string> } {
  return { client: app.client(), headers: { 'x-forwarded-for': `198.51.100.${nextIp++}` } };
}

async function send(body: unknown, sender = freshSender()) {
  if (!sender.client.csrfToken) await sender.client.fetchCsrf();
  return sender.client.post('/api/contact/create', body, { headers: sender.headers });
}

async function storedMessages() {
  return app.db('contact_messages').orderBy('id');
}

describe('POST /api/contact/create validation', () => {
  it.each([
    ['firstName', '', 'contact.validation.firstName.required'],
    ['firstName', 'M'.repeat(101), 'contact.validation.firstName.tooLong'],
    ['lastName', '  ', 'contact.validation.lastName.required'],
    ['lastName', 'K'.repeat(101), 'contact.validation.lastName.tooLong'],
    ['email', 'maria.example.com', 'contact.validation.email.invalid'],
    ['email', `${'m'.repeat(250)}@example.com`, 'contact.validation.email.invalid'],
    ['phoneNumber', '', 'contact.validation.phone.required'],
    ['phoneNumber', '123 456', 'contact.validation.phone.invalid'],
    ['phoneNumber', '+48 600 10', 'contact.validation.phone.invalid'],
    ['phoneNumber', '600-100-200', 'contact.validation.phone.invalid'],
    ['content', '', 'contact.validation.content.required'],
    ['content', 'x'.repeat(301), 'contact.validation.content.tooLong'],
    ['consent', false, 'contact.validation.consent.required'],
    ['language', 'de', 'errors.generic'],
  ])('refuses %s = %j with %s and stores nothing', async (field, value, message) => {
    const before = (await storedMessages()).length;
    const response = await send({ ...valid, [field]: value });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path: field, message }] });
    expect(await storedMessages()).toHaveLength(before);
  });

  it('answers every missing field of an empty form, one issue each', async () => {
    const response = await send({});
    expect(response.status).toBe(400);
    expect(response.body.issues).toEqual([
      { path: 'firstName', message: 'contact.validation.firstName.required' },
      { path: 'lastName', message: 'contact.validation.lastName.required' },
      { path: 'phoneNumber', message: 'contact.validation.phone.required' },
      { path: 'content', message: 'contact.validation.content.required' },
      { path: 'consent', message: 'contact.validation.consent.required' },
      { path: 'language', message: 'errors.generic' },
    ]);
  });

  it('needs the CSRF token like every state-changing call', async () => {
    const { client, headers } = freshSender();
    await client.fetchCsrf();
    const response = await client.post('/api/contact/create', valid, { headers, withoutCsrf: true });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
  });
});

describe('a valid message', () => {
  it('is stored, forwarded to the provider with every field, and answered 201 without a session', async () => {
    const response = await send({ ...valid, phoneNumber: '+49 170 1234567', language: 'en' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({});

    const mail = await smtp.waitForMail(PROVIDER_INBOX);
    const [stored] = (await storedMessages()).slice(-1);
    expect(stored).toMatchObject({
      first_name: 'Maria',
      last_name: 'Kowalska',
      email: 'maria.kowalska@example.com',
      phone_number: '+491701234567',
      content: valid.content,
      consent: true,
      language: 'en',
    });
    expect(stored.forwarded_at).toBeInstanceOf(Date);

    expect(mail.subject).toBe(`Formularz kontaktowy: wiadomość nr ${stored.id}`);
    for (const part of [mail.text, mail.html]) {
      for (const value of [
        'Maria',
        'Kowalska',
        'maria.kowalska@example.com',
        '+491701234567 (numer spoza Polski)',
        'angielski',
        valid.content,
      ]) {
        expect(part).toContain(value);
      }
    }
    // The patient's name stays out of the subject, which shows in notifications and mail logs.
    expect(mail.subject).not.toContain('Kowalska');
    // Answering the mail reaches the patient, not the portal's sending address.
    expect(mail.raw).toMatch(/^Reply-To: maria\.kowalska@example\.com\r?$/im);
  });

  it('arrives as text when it holds HTML, never as markup', async () => {
    const content = '<script>alert("x")</script> & <b>bold</b>';
    const firstName = '<img src=x onerror=alert(1)>';
    expect((await send({ ...valid, firstName, content, email: '' })).status).toBe(201);

    const mail = smtp.messages.at(-1)!;
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.text).toContain(content);
    expect(mail.text).toContain('E-mail: (nie podano)');
    const [stored] = (await storedMessages()).slice(-1);
    expect(stored).toMatchObject({ first_name: firstName, content, email: null });
  });

  it('keeps no personal data in the log', async () => {
    const marker = {
      firstName: 'Zofiaunikalna',
      lastName: 'Nazwiskounikalne',
      email: 'log.check@example.com',
      phoneNumber: '+44 20 7946 0958',
      content: 'Treść do sprawdzenia logu',
    };
    expect((await send({ ...valid, ...marker })).status).toBe(201);
    const log = app.logs.join('\n');
    for (const value of [...Object.values(marker), '442079460958']) expect(log).not.toContain(value);
    expect(log).toContain('contact message received');
  });

  it('is stored and answered 201 even when the mail server is down, and stays in the outbox', async () => {
    const port = smtp.port;
    await smtp.close();
    try {
      const response = await send({ ...valid, content: 'Wiadomość przy niedostępnym serwerze poczty.' });
      expect(response.status).toBe(201);
      const [stored] = (await storedMessages()).slice(-1);
      expect(stored).toMatchObject({ content: 'Wiadomość przy niedostępnym serwerze poczty.', forwarded_at: null });
      const outbox = await app.db('outbox_messages').orderBy('id', 'desc').first();
      expect(outbox).toMatchObject({ recipient: PROVIDER_INBOX, sent_at: null, attempts: 1 });
      expect(outbox.body_text).toContain('Wiadomość przy niedostępnym serwerze poczty.');
    } finally {
      smtp = await startTestSmtp(port);
    }
  });
});

describe('spam throttling', () => {
  it('takes five messages per IP, then answers 429 with Retry-After for an hour', async () => {
    const sender = freshSender();
    for (let message = 1; message <= 5; message += 1) {
      expect((await send({ ...valid, content: `Wiadomość ${message}` }, sender)).status).toBe(201);
    }
    const refused = await send({ ...valid, content: 'Wiadomość 6' }, sender);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 3600 });
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(await app.db('contact_messages').where({ content: 'Wiadomość 6' })).toHaveLength(0);

    // Another sender is not held up by this one.
    expect((await send(valid)).status).toBe(201);

    app.clock.advance(60 * 60_000 + 1_000);
    // An hour idle has ended the anonymous session and its token, as it would in a browser.
    await sender.client.fetchCsrf();
    expect((await send({ ...valid, content: 'Wiadomość po godzinie' }, sender)).status).toBe(201);
  });

  it('does not count messages the rules refused', async () => {
    const sender = freshSender();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await send({ ...valid, phoneNumber: '123' }, sender)).status).toBe(400);
    }
    expect((await send(valid, sender)).status).toBe(201);
  });
});
