import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { cookiesSetBy } from '../cookies';
import { signedInCookie, startPortal, stopPortal } from '../http-budget';
import { median } from '../median';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
/** Issue 16: the portal's profile call answers at least this share of the bare app's rate. */
export const API_PEER_TARGET = 0.8;

/** `peer`: the bare app without a session write per read, like the portal; `touchingPeer`: with connect-pg-simple's default touch. */
export type ApiPeerResult = { portal: number[]; peer: number[]; touchingPeer: number[] };

async function rate(url: string, cookie: string, durationS = DURATION_S): Promise<number> {
  const result = await autocannon({ url, headers: { cookie }, connections: CONNECTIONS, duration: durationS });
  const answered = result['2xx'];
  if (answered === 0 || result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

async function startPeer(databaseUrl: string, port: number, touch = false): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/peers/minimal-profile-app.ts'], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, PEER_PORT: String(port), PEER_TOUCH: touch ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().includes('ready')) throw new Error('the peer app did not start');
  return child;
}

/**
 * The portal's `GET /api/user/profile` (a signed-in patient) against the bare Express app of
 * minimal-profile-app.ts on the same PostgreSQL, each in its own process, at 50 connections.
 * Rounds alternate between the two, so a slower minute of the machine touches both.
 */
export async function measureApiPeer(databaseUrl: string): Promise<ApiPeerResult> {
  const portalPort = 3470;
  const peerPort = 3471;
  const portal = await startPortal(portalPort, { DATABASE_URL: databaseUrl, THROTTLE: 'off' });
  const peer = await startPeer(databaseUrl, peerPort);
  const touchingPeer = await startPeer(databaseUrl, peerPort + 1, true);
  try {
    const portalUrl = `http://127.0.0.1:${portalPort}/api/user/profile`;
    const portalCookie = await signedInCookie(`http://127.0.0.1:${portalPort}`);
    const peerUrl = `http://127.0.0.1:${peerPort}/profile`;
    const peerCookie = cookiesSetBy(await fetch(`http://127.0.0.1:${peerPort}/login`));
    const touchingUrl = `http://127.0.0.1:${peerPort + 1}/profile`;
    const touchingCookie = cookiesSetBy(await fetch(`http://127.0.0.1:${peerPort + 1}/login`));
    // Warm them up (JIT, pools) before anything counts.
    await rate(portalUrl, portalCookie, 2);
    await rate(peerUrl, peerCookie, 2);
    await rate(touchingUrl, touchingCookie, 2);
    const result: ApiPeerResult = { portal: [], peer: [], touchingPeer: [] };
    for (let round = 0; round < ROUNDS; round++) {
      result.portal.push(await rate(portalUrl, portalCookie));
      result.peer.push(await rate(peerUrl, peerCookie));
      result.touchingPeer.push(await rate(touchingUrl, touchingCookie));
    }
    return result;
  } finally {
    await stopPortal(portal);
    await stopPortal(peer);
    await stopPortal(touchingPeer);
  }
}

export function printApiPeer({ portal, peer, touchingPeer }: ApiPeerResult): boolean {
  const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
  const ratio = median(portal) / median(peer);
  console.log(`\n## API against a bare Express 5 + express-session + connect-pg-simple app, PostgreSQL, ${CONNECTIONS} connections`);
  console.log(`  portal GET /api/user/profile   ${median(portal).toFixed(0).padStart(6)} req/s (${spread(portal)})`);
  console.log(`  bare app GET /profile          ${median(peer).toFixed(0).padStart(6)} req/s (${spread(peer)})`);
  console.log(
    `  bare app, store's default touch ${median(touchingPeer).toFixed(0).padStart(5)} req/s (${spread(touchingPeer)}): ` +
      `ratio ${(median(portal) / median(touchingPeer)).toFixed(2)}, for information`,
  );
  const rounds = portal.map((value, index) => (value / peer[index]!).toFixed(2)).join(', ');
  const ok = ratio >= API_PEER_TARGET;
  console.log(`  ratio ${ratio.toFixed(2)} (rounds: ${rounds}); target >= ${API_PEER_TARGET}: ${ok ? 'met' : 'NOT MET'}`);
  return ok;
}
