import type { Server } from 'node:http';
import { errorForLog, type Logger } from '../lib/logger';

/** What a portal process stops, in order. */
export type ShutdownParts = {
  server: Server;
  /** The app: `beginDrain` closes each connection after its answer; `close` stops the background work. */
  app: { beginDrain(): void; close(): Promise<void> };
  /** How long requests in flight may run on before their connections are cut. */
  graceMs: number;
  logger: Logger;
  /** Last: the database pool, the embedded database, a test schema. */
  release(): Promise<void>;
};

/**
 * A rolling upgrade or a scale-in sends SIGTERM; the process then:
 * 1. stops accepting connections (idle keep-alive ones close too), so the load balancer moves on;
 * 2. lets the requests in flight finish (an upload batch, an ISO download), for `graceMs` at
 *    most, closing each keep-alive connection after its answer; then cuts what is left (a client
 *    that stalled): a cut upload resumes on another process, a cut download is asked again;
 * 3. stops the job queue: a job still running after pg-boss's own grace is failed back to the
 *    queue (its retry runs on another process) instead of waiting for its expiry;
 * 4. releases the database and exits 0.
 * A second signal exits at once.
 */
export function stopGracefullyOnSignals(parts: ShutdownParts): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    void shutDown(parts, signal).then(
      () => process.exit(0),
      (error: unknown) => {
        parts.logger.error({ err: errorForLog(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

export async function shutDown({ server, app, graceMs, logger, release }: ShutdownParts, signal: NodeJS.Signals): Promise<void> {
  const startedAt = Date.now();
  logger.info({ signal, graceMs }, 'shutting down: draining requests in flight');
  app.beginDrain();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let cut = false;
  const force = setTimeout(() => {
    cut = true;
    server.closeAllConnections();
  }, graceMs);
  await closed;
  clearTimeout(force);
  if (cut) logger.warn({ graceMs }, 'shutdown: requests still running after the grace period were cut');
  await app.close();
  await release();
  logger.info({ durationMs: Date.now() - startedAt }, 'stopped');
}
