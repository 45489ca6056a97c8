import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A TCP proxy in front of the portal that passes every byte through unchanged and notes when the
 * first byte of the body of a tus request (a POST creating an upload with its first bytes, or a
 * PATCH) reaches it: the moment the server could start storing the patient's file. It reads the
 * browser's HTTP/1.1 requests only to find where each body starts and ends. Started with
 * `holdUploads`, it passes on everything but those tus requests, which it holds (startFirstByteProxy).
 */
export type FirstByteProxy = {
  url: string;
  /**
   * The first tus body byte at or after `since` (wall-clock ms, performance.timeOrigin + now, as
   * the page counts); null if none came yet. Bytes of an earlier round's requests, still on their
   * way when it ended, come before `since`.
   */
  firstBodyByteSince: (since: number) => number | null;
  close: () => Promise<void>;
};

/** tus requests that carry file bytes; POST /api/dicom/uploads/known carries JSON, not a file. */
const TUS_BODY = /^(POST \/api\/dicom\/uploads|PATCH \/api\/dicom\/uploads\/[^/? ]+)[? ]/;
const HEADERS_END = Buffer.from('\r\n\r\n');
/** A request head larger than this is no browser's: stop reading the connection (bytes still flow). */
const MAX_HEAD_BYTES = 64 * 1024;

/** What to pass on of a chunk; `hold`: a tus request began after those bytes and is held (holdUploads). */
type ReadChunk = { forward: Buffer[]; hold: boolean };

/**
 * Follows one connection's requests; calls `onTusBody` when bytes of a tus request's body arrive.
 * A request's head is passed on only once it is whole, so one that is held never reaches the portal.
 */
function requestReader(onTusBody: () => void, holdUploads: boolean): (chunk: Buffer) => ReadChunk {
  let head = Buffer.alloc(0);
  let bodyLeft = 0;
  let tusBody = false;
  let lost = false; // a framing this reader does not follow (chunked, oversized): it passes bytes on unread
  return (chunk) => {
    const forward: Buffer[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (lost) {
        forward.push(rest);
        break;
      }
      if (bodyLeft > 0) {
        if (tusBody) onTusBody();
        const taken = Math.min(bodyLeft, rest.length);
        bodyLeft -= taken;
        forward.push(rest.subarray(0, taken));
        rest = rest.subarray(taken);
        continue;
      }
      head = Buffer.concat([head, rest]);
      const end = head.indexOf(HEADERS_END);
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) {
          lost = true;
          forward.push(head);
          head = Buffer.alloc(0);
        }
        break;
      }
      const whole = head.subarray(0, end + HEADERS_END.length);
      const text = head.subarray(0, end).toString('latin1');
      rest = head.subarray(end + HEADERS_END.length);
      head = Buffer.alloc(0);
      const [requestLine = '', ...headerLines] = text.split('\r\n');
      const header = (name: string) =>
        headerLines
          .find((line) => line.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      tusBody = TUS_BODY.test(requestLine);
      if (tusBody && holdUploads) return { forward, hold: true };
      forward.push(whole);
      if (header('transfer-encoding')) {
        // The browser sends a file with its length; a chunked body is followed no further.
        if (tusBody && rest.length > 0) onTusBody();
        lost = true;
        continue;
      }
      bodyLeft = Number(header('content-length') ?? 0);
    }
    return { forward, hold: false };
  };
}

/**
 * `holdUploads`: a tus request carrying file bytes is never passed on and its connection is no
 * longer read, so the browser waits as on a network that takes nothing: its own reading of the
 * file stops at the socket's buffers. (A held request is not answered either.)
 */
export async function startFirstByteProxy(targetPort: number, { holdUploads = false } = {}): Promise<FirstByteProxy> {
  // When the body of each tus request began to arrive, in order.
  const bodyStarts: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const read = requestReader(() => bodyStarts.push(performance.timeOrigin + performance.now()), holdUploads);
    let held = false;
    client.on('data', (chunk: Buffer) => {
      if (held) return;
      const { forward, hold } = read(chunk);
      let full = false;
      for (const bytes of forward) full = !upstream.write(bytes) || full;
      held = hold;
      if (full || held) client.pause();
    });
    upstream.on('drain', () => held || client.resume());
    upstream.pipe(client);
    client.on('end', () => upstream.end());
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    // The host name the portal's journeys use, so its cookies apply.
    url: `http://localhost:${port}`,
    firstBodyByteSince: (since) => bodyStarts.find((at) => at >= since) ?? null,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
