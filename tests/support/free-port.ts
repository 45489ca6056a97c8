import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port nobody listens on right now, for a server a test or bench starts of its own. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}
