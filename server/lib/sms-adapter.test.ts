import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsApiAdapter, SmsProviderError } from './sms';

type Received = { method?: string; path?: string; authorization?: string; contentType?: string; form: URLSearchParams };

let server: Server;
let endpoint: string;
let received: Received[];
let reply: { status: number; body: unknown };

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// A stand-in for api.smsapi.pl on localhost: the real host is never contacted by tests.
beforeAll(async () => {
  server = createServer(async (request, response) => {
    received.push({
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      form: new URLSearchParams(await readBody(request)),
    });
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms.do`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  reply = { status: 200, body: { count: 1, list: [{ id: '1', points: 0.16, number: '48600100200', status: 'QUEUE' }] } };
});

describe('SMSAPI adapter', () => {
  it('posts the text as a form with the bearer token, sender and JSON format', async () => {
    const adapter = createSmsApiAdapter({ token: 'secret-token', sender: 'Mammografia', endpoint });

    await adapter.deliver({ to: '600100200', text: 'Zmień hasło: http://localhost/change-password/x' });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: '/sms.do', authorization: 'Bearer secret-token' });
    expect(request!.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request!.form)).toEqual({
      to: '48600100200',
      message: 'Zmień hasło: http://localhost/change-password/x',
      from: 'Mammografia',
      format: 'json',
      encoding: 'utf-8',
    });
  });

  it('sends international numbers without the plus and leaves out an unset sender', async () => {
    const adapter = createSmsApiAdapter({ token: 't', endpoint });

    await adapter.deliver({ to: '+44 7700 900123', text: 'x' });

    expect(received[0]!.form.get('to')).toBe('447700900123');
    expect(received[0]!.form.has('from')).toBe(false);
  });

  it('fails with the provider code when SMSAPI answers an error body with HTTP 200', async () => {
    reply = { status: 200, body: { error: 13, message: 'No correct phone numbers' } };
    const adapter = createSmsApiAdapter({ token: 't', endpoint });

    const failure = adapter.deliver({ to: '600100200', text: 'x' });

    await expect(failure).rejects.toBeInstanceOf(SmsProviderError);
    await expect(failure).rejects.toMatchObject({ providerCode: 13 });
  });

  it('fails when the token is refused', async () => {
    reply = { status: 401, body: { error: 101, message: 'Authorization failed' } };
    const adapter = createSmsApiAdapter({ token: 'wrong', endpoint });

    await expect(adapter.deliver({ to: '600100200', text: 'x' })).rejects.toMatchObject({ providerCode: 101 });
  });
});
