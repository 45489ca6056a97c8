import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, with its text and HTML parts decoded. */
export type CapturedMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
};

export type TestSmtp = {
  port: number;
  /** For SMTP_URL: plain SMTP on localhost, any credentials accepted. */
  url: string;
  messages: CapturedMail[];
  /** The first message (already received or arriving within `timeoutMs`) sent to `recipient`. */
  waitForMail(recipient: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
};

/**
 * A real SMTP server on a free port that keeps every message in memory, so a test sees exactly
 * what a patient's mailbox would. No TLS (a local test needs no certificate), any login accepted.
 */
export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          ...parseMail(raw),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((address) => address.address),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const actualPort = (server.server.address() as AddressInfo).port;

  const findFor = (recipient: string) => messages.find((mail) => mail.envelopeTo.includes(recipient));

  return {
    port: actualPort,
    url: `smtp://test:test@127.0.0.1:${actualPort}`,
    messages,
    waitForMail(recipient, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = findFor(recipient);
          if (!mail) return;
          cleanup();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no mail to ${recipient} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Just enough MIME for what nodemailer writes: headers with RFC 2047 words, a body that is
 * either one part or multipart/alternative, parts in quoted-printable, base64 or 7bit.
 */
export function parseMail(raw: string): Pick<CapturedMail, 'from' | 'subject' | 'text' | 'html' | 'raw'> {
  const { headers, body } = splitHeaders(raw);
  const parts = partsOf(headers, body);
  return {
    from: decodeWords(headers.get('from') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: parts.find((part) => part.type === 'text/plain')?.content ?? '',
    html: parts.find((part) => part.type === 'text/html')?.content ?? '',
    raw,
  };
}

type Part = { type: string; content: string };

function partsOf(headers: Map<string, string>, body: string): Part[] {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!contentType.toLowerCase().startsWith('multipart/') || !boundary) {
    return [{ type: contentType.split(';')[0]!.trim().toLowerCase(), content: decodeBody(body, headers.get('content-transfer-encoding')) }];
  }
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const part = splitHeaders(chunk.replace(/^\r?\n/, ''));
      return partsOf(part.headers, part.body.replace(/\r?\n$/, ''));
    });
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const separator = /\r?\n\r?\n/.exec(raw);
  const head = separator ? raw.slice(0, separator.index) : raw;
  const body = separator ? raw.slice(separator.index + separator[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding = '7bit'): string {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

export function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/\r\n/g, '\n')
    .split(/(=[0-9A-Fa-f]{2})/)
    .flatMap((piece) => (/^=[0-9A-Fa-f]{2}$/.test(piece) ? [Buffer.from([parseInt(piece.slice(1), 16)])] : [Buffer.from(piece, 'utf8')]));
  return Buffer.concat(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), adjacent ones joined. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_word, _charset: string, encoding: string, encoded: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(encoded, 'base64').toString('utf8') : decodeQuotedPrintable(encoded.replace(/_/g, ' ')),
    );
}
