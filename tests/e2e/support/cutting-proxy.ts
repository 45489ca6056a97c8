import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy between the browser and the portal that counts every byte the browser sends and,
 * when that count passes each of `cutAt`, destroys every connection open at that moment, as a
 * Wi-Fi that drops would. The browser is pointed at the proxy's port; the portal never knows.
 */
export type CuttingProxy = {
  url: string;
  /** Bytes the browser sent through the proxy so far (request lines, headers and bodies). */
  clientBytes(): number;
  /** Cuts made so far. */
  cuts(): number;
  /** Cuts to make from now on, at these totals of `clientBytes` (ascending). */
  cutAt(byteCounts: number[]): void;
  close(): Promise<void>;
};

export async function startCuttingProxy(target: URL): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  let sent = 0;
  let cutsMade = 0;
  let pending: number[] = [];

  const cutEverything = () => {
    cutsMade++;
    for (const socket of open) socket.destroy();
    open.clear();
  };

  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client);
    open.add(upstream);
    const forget = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget);
    upstream.on('error', forget);
    client.on('close', forget);
    upstream.on('close', forget);
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (pending.length > 0 && sent >= pending[0]!) {
        pending = pending.slice(1);
        cutEverything();
        return;
      }
      // Respect the portal's pace: a proxy buffering without limit would hide the server's speed.
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    clientBytes: () => sent,
    cuts: () => cutsMade,
    cutAt(byteCounts) {
      pending = [...byteCounts].sort((a, b) => a - b);
    },
    async close() {
      for (const socket of open) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
