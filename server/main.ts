import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { seedDemoData } from '../db/seeds/demo';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';
import { createApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createDb, migrate } from './db';
import { loadLocalityRegister } from './geography/register-loader';
import { stopGracefullyOnSignals } from './lifecycle/graceful-shutdown';
import { createLogger } from './lib/logger';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // No pino logger exists before the config is valid; the operator reads this one line.
      // eslint-disable-next-line no-console
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** A PostgreSQL URL fit for a log line: never the password or query options. */
function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
  return `PostgreSQL at ${user}${parsed.host}${parsed.pathname}`;
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config);

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  let databaseDescription: string;
  if (databaseUrl) {
    databaseDescription = describeDatabaseUrl(databaseUrl);
  } else {
    const pgliteDir = path.join(config.dataDir, 'pglite');
    embedded = await startEmbeddedDatabase({ dataDir: pgliteDir });
    databaseUrl = embedded.url;
    databaseDescription = `embedded PGlite at ${pgliteDir}`;
  }

  const db = createDb({ url: databaseUrl, poolMax: embedded?.poolMax });
  await migrate(db);
  // Poland's places for the copy-order form: loaded on the first start, then only when the shipped file changes.
  const localities = await loadLocalityRegister(db);
  if (config.loadDemoData) await seedDemoData(db, config);

  const app = createApp({ config, db, logger });
  const server = app.listen(config.port, config.host);
  await once(server, 'listening');

  logger.info(`database: ${databaseDescription}`);
  logger.info(`locality register: ${localities} places`);
  const { port } = server.address() as AddressInfo;
  logger.info(`portal listening on http://localhost:${port}`);
  logger.info(`health checks: http://localhost:${port}/healthz (live), http://localhost:${port}/readyz (ready)`);
  if (config.loadDemoData) logger.info('demo data loaded; demo credentials: see README.md (section Demo data)');

  stopGracefullyOnSignals({
    server,
    app,
    graceMs: config.shutdownGraceMs,
    logger,
    release: async () => {
      await db.destroy();
      await embedded?.stop();
    },
  });
}

main().catch((error: unknown) => {
  // The logger lives inside main() and may not exist yet (it failed while starting).
  // eslint-disable-next-line no-console
  console.error('The portal could not start:', error);
  process.exit(1);
});
