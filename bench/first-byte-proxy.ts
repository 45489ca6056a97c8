import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A TCP proxy in front of the portal that passes every byte through unchanged and notes when the
 * first byte of the body of a tus request (a POST creating an upload with its first bytes, or a
 * PATCH) reaches it: the moment the server could start storing the patient's file. It reads the
 * browser's HTTP/1.1 requests only to find where each body starts and ends.
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

/** Follows one connection's requests; calls `onTusBody` when bytes of a tus request's body arrive. */
function requestReader(onTusBody: () => void): (chunk: Buffer) => void {
  let head = Buffer.alloc(0);
  let bodyLeft = 0;
  let tusBody = false;
  let lost = false; // a framing this reader does not follow (chunked, oversized): it stops reading
  return (chunk) => {
    let rest = chunk;
    while (!lost && rest.length > 0) {
      if (bodyLeft > 0) {
        if (tusBody) onTusBody();
        const taken = Math.min(bodyLeft, rest.length);
        bodyLeft -= taken;
        rest = rest.subarray(taken);
        continue;
      }
      head = Buffer.concat([head, rest]);
      const end = head.indexOf(HEADERS_END);
      if (end < 0) {
        lost = head.length > MAX_HEAD_BYTES;
        return;
      }
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
      if (header('transfer-encoding')) {
        // The browser sends a file with its length; a chunked body is followed no further.
        if (tusBody && rest.length > 0) onTusBody();
        lost = true;
        return;
      }
      bodyLeft = Number(header('content-length') ?? 0);
    }
  };
}

export async function startFirstByteProxy(targetPort: number): Promise<FirstByteProxy> {
  // When the body of each tus request began to arrive, in order.
  const bodyStarts: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const read = requestReader(() => bodyStarts.push(performance.timeOrigin + performance.now()));
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
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
