import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { createSessionMiddleware } from './auth/session-store';
import { defaultThrottlePolicy, type ThrottlePolicy } from './auth/throttle-policy';
import type { Config } from './config';
import { schemaOf, type Db } from './db';
import { createInfrastructure } from './deps';
import { patientApi } from './entry/patient-api';
import { providerApi } from './entry/provider-api';
import { PROVIDER_API_PREFIX } from './provider/openapi';
import { paymentNotificationsRouter } from './orders/routes';
import { SANDBOX_PATH, sandboxCheckoutRouter } from './payments';
import { systemClock, type Clock } from './lib/clock';
import { connectionDrain } from './lifecycle/connection-drain';
import { healthRouter } from './health/routes';
import { metricsRouter } from './metrics/routes';
import { errorHandler } from './lib/error-handler';
import { requestLogger, type Logger } from './lib/logger';
import { securityHeaders } from './lib/security-headers';
import { clientRouter, readBuiltClient } from './lib/static-client';
import { loadResultPageDrawing } from './result-page/drawing';
import { drawnResultPageRouter } from './result-page/routes';
import { startWorkers } from './workers';

const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

export type AppDeps = {
  config: Config;
  db: Db;
  logger: Logger;
  /** Seams for tests and the bench: time, throttling numbers, where the built client lives. */
  clock?: Clock;
  throttlePolicy?: ThrottlePolicy;
  clientDir?: string;
};

/**
 * The Express app plus what must be released with it (the session store's prune timer, background
 * work), and the switch a shutdown throws first (server/lifecycle/graceful-shutdown.ts).
 */
export type PortalApp = Express & { beginDrain(): void; close(): Promise<void> };

/**
 * The portal process's HTTP side: the entry chains under their prefixes, the built client, one
 * error handler. It also starts the background workers (server/workers.ts), so a test app is a
 * whole portal; `close()` stops them.
 */
export function createApp({
  config,
  db,
  logger,
  clock = systemClock,
  throttlePolicy = defaultThrottlePolicy,
  clientDir = DEFAULT_CLIENT_DIR,
}: AppDeps): PortalApp {
  const app = express();
  app.set('trust proxy', parseTrustProxy(config.trustProxy));
  const client = readBuiltClient(clientDir);
  const sessions = createSessionMiddleware(config, db, schemaOf(db), logger);
  const infrastructure = createInfrastructure({ config, db, logger, clock, throttlePolicy });
  const deps = { ...infrastructure, ...startWorkers(infrastructure) };

  const drain = connectionDrain();
  app.use(deps.metrics.observeRequests);
  app.use(requestLogger(logger));
  app.use(drain.middleware);
  app.use(securityHeaders({ isProduction: config.isProduction, indexHtml: client?.indexHtml }));
  // The payment provider's calls: signed, with no session or CSRF token, so ahead of the patient chain.
  app.use('/api/payments/notify', paymentNotificationsRouter({ ...deps, payments: deps.payments.provider }));
  // The provider's systems: API keys, no session; ahead of the patient chain, which would take /api/provider for its own.
  app.use(PROVIDER_API_PREFIX, providerApi(deps));
  app.use('/api', patientApi(deps, sessions.middleware));
  // The operator's probes (/healthz, /readyz) and figures (/metrics, its own token): no session, and
  // outside /api, so no entry chain reaches them; after the API, whose calls need not pass them.
  app.use(healthRouter(deps));
  app.use(metricsRouter(deps));
  const { sandboxNotifier } = deps.payments;
  if (sandboxNotifier) app.use(SANDBOX_PATH, sandboxCheckoutRouter({ db, clock, notifier: sandboxNotifier }));

  // A signed-in result-portal patient's result page is drawn with her result; every other page is the built client's.
  const drawnResultPage = client && loadResultPageDrawing(client.dir, logger);
  if (drawnResultPage) app.use(drawnResultPageRouter(deps, sessions.middleware, drawnResultPage));
  if (client) app.use(clientRouter(client));
  app.use((_req, res) => {
    res.status(404).type('text').send('Not found');
  });
  app.use(errorHandler);

  return Object.assign(app, {
    beginDrain: drain.begin,
    close: async () => {
      await deps.queue.stop();
      await deps.background.settle();
      await sessions.close();
    },
  });
}

/** TRUST_PROXY: true/false, a hop count, or addresses and names Express knows (loopback ...). */
function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
