import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Config } from '../config';
import { PROVIDER_API_PREFIX } from '../provider/openapi';
import { CommandError, UsageError, type OptionSpec } from './command';

/** The environment variable the key is read from: never a command-line argument, which `ps` and shell history would keep. */
const API_KEY_VARIABLE = 'PORTAL_API_KEY';
const RETRIES = 5;

/** The `--url` option of every command that works through the provider API. */
export const PORTAL_URL_OPTION: Record<string, OptionSpec> = {
  url: {
    type: 'string',
    value: 'portal address',
    description: `the running portal; default PUBLIC_URL. The key comes from ${API_KEY_VARIABLE}`,
  },
};

export type ProviderAnswer = { status: number; body: unknown; headers: Headers };

type Body =
  | { json: unknown }
  | { bytes: Uint8Array; contentType: string }
  | { files: string[]; sizes: number[]; boundary: string; contentType: string };

/**
 * The command line as a client of the provider API: the same calls, validation, scopes and staff
 * audit as the provider's own systems, against the running portal (so it works beside an
 * embedded database the portal holds, and from another machine). Calls that are safe to repeat
 * (PUT, GET, and POSTs with an Idempotency-Key) are retried on a lost connection, a 5xx and a
 * 429 (after its Retry-After).
 */
export class ProviderHttp {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  static from(options: Record<string, unknown>, context: { config: () => Config; env: NodeJS.ProcessEnv }): ProviderHttp {
    const key = context.env[API_KEY_VARIABLE]?.trim();
    if (!key) throw new UsageError(`set ${API_KEY_VARIABLE} to a provider API key (create one with 'keys create')`);
    const url = typeof options.url === 'string' ? options.url : context.config().publicUrl;
    if (!/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`--url must be an http(s) address, not '${url}'`);
    return new ProviderHttp(url.replace(/\/+$/, ''), key);
  }

  async call(method: string, path: string, body?: Body, headers: Record<string, string> = {}): Promise<ProviderAnswer> {
    const repeatable = method !== 'POST' || headers['Idempotency-Key'] !== undefined;
    for (let attempt = 1; ; attempt++) {
      let answer: ProviderAnswer | undefined;
      let failure: unknown;
      try {
        answer = await this.once(method, path, body, headers);
      } catch (error) {
        failure = error;
      }
      const retryable = answer ? answer.status === 429 || answer.status >= 500 : true;
      if (!retryable || !repeatable || attempt >= RETRIES) {
        if (answer) return answer;
        throw new CommandError(
          `cannot reach the portal at ${this.baseUrl}: ${failure instanceof Error ? failure.message : String(failure)}`,
        );
      }
      const retryAfter = Number(answer?.headers.get('retry-after'));
      await this.sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 500 * 2 ** (attempt - 1));
    }
  }

  /** Like `call`, but an answer outside 2xx becomes a CommandError naming the call and the portal's code and issues. */
  async expect(method: string, path: string, body?: Body, headers: Record<string, string> = {}): Promise<ProviderAnswer> {
    const answer = await this.call(method, path, body, headers);
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw new CommandError(`${method} ${path} answered ${answer.status}: ${describeError(answer.body)}`);
  }

  private async once(method: string, path: string, body: Body | undefined, extra: Record<string, string>): Promise<ProviderAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.key}`, ...extra };
    let payload: string | Buffer | ReadableStream | undefined;
    if (body && 'json' in body) {
      payload = JSON.stringify(body.json);
      headers['content-type'] = 'application/json';
    } else if (body && 'bytes' in body) {
      payload = Buffer.from(body.bytes);
      headers['content-type'] = body.contentType;
    } else if (body) {
      const { stream, length } = multipartRelated(body.files, body.sizes, body.boundary);
      payload = Readable.toWeb(stream) as ReadableStream;
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(length);
    }
    const response = await fetch(`${this.baseUrl}${PROVIDER_API_PREFIX}${path}`, {
      method,
      headers,
      body: payload,
      ...(payload instanceof ReadableStream && { duplex: 'half' }),
    } as RequestInit);
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed, headers: response.headers };
  }
}

/** A multipart/related body of files read from disk as it is sent: one part per file, never all in memory. */
function multipartRelated(files: string[], sizes: number[], boundary: string): { stream: Readable; length: number } {
  const head = Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`);
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.length * (head.length + 2) + sizes.reduce((sum, size) => sum + size, 0) + tail.length;
  async function* parts() {
    for (const file of files) {
      yield head;
      for await (const chunk of createReadStream(file)) yield chunk as Buffer;
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  return { stream: Readable.from(parts()), length };
}

function describeError(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body).slice(0, 300);
  const { code, issues } = body as { code?: string; issues?: { path: string; message: string }[] };
  const details = issues?.map((issue) => `${issue.path || '(body)'}: ${issue.message}`).join('; ');
  return details ? `${code} (${details})` : String(code ?? JSON.stringify(body).slice(0, 300));
}
