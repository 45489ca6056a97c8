import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded';
import { seedDemoData } from '../../db/seeds/demo';
import { createApp } from '../../server/app';
import { defaultThrottlePolicy, type ThrottlePolicy } from '../../server/auth/throttle-policy';
import { loadConfig } from '../../server/config';
import { createDb, migrate } from '../../server/db';
import { stopGracefullyOnSignals } from '../../server/lifecycle/graceful-shutdown';
import { createLogger } from '../../server/lib/logger';
import { createApiKeyService } from '../../server/provider/keys/api-key-service';
import { PROVIDER_SCOPES } from '../../server/provider/scopes';

/**
 * The portal as Playwright and the bench drive it: the built client, the real app, demo data, on
 * a database made for this run alone (an in-memory PGlite, or a fresh schema of DATABASE_URL),
 * dropped on exit. THROTTLE=off lets the bench measure a rejected login's full cost; CLIENT_DIR
 * serves a client built elsewhere (`vite build --outDir`), so parallel runs never share one build.
 * SMTP_URL hands the portal's mail to a test's SMTP server; without it mail stays in the outbox.
 * CONSULTATION_HOLD_MINUTES, ORDER_EXPIRY_SWEEP_SECONDS, PAYMENT_SANDBOX_SECOND_KEY, STORAGE and
 * S3_*, SHUTDOWN_GRACE_SECONDS and LOG_LEVEL pass through to the portal's settings.
 * REQUEST_TIMES_FILE makes it time every request on the server (from its parsed headers to the
 * response handed to the socket) and write the times there on exit, for the bench's server-side figures.
 * DEMO_SCHEMA (with DATABASE_URL) and DEMO_DATA_DIR let several of them serve one portal's data, as
 * processes behind a load balancer do (server/lifecycle/cluster.int.test.ts).
 * PROVIDER_KEY_FILE makes it create a provider API key with every scope, as `npm run portal -- keys
 * create` would, and write the key there: the journeys and the bench call the provider API with it.
 */
const port = Number(process.env.DEMO_PORT ?? 3210);
const config = loadConfig({
  NODE_ENV: 'test',
  SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123',
  ACCESS_CODE_SECRET: 'e2e-access-code-secret-0123456789abcdef',
  DATA_DIR: process.env.DEMO_DATA_DIR ?? `./data/demo-${port}`,
  // Links in mail and SMS point at this very server.
  PORT: String(port),
  SMTP_URL: process.env.SMTP_URL,
  // A journey may shorten how long an unpaid consultation holds its slot, to see it run out.
  CONSULTATION_HOLD_MINUTES: process.env.CONSULTATION_HOLD_MINUTES,
  ORDER_EXPIRY_SWEEP_SECONDS: process.env.ORDER_EXPIRY_SWEEP_SECONDS,
  // A test that signs the payment provider's notifications itself names the key.
  PAYMENT_SANDBOX_SECOND_KEY: process.env.PAYMENT_SANDBOX_SECOND_KEY,
  // Stored files in a bucket (the cluster test's s3rver); the SDK finds the credentials itself.
  STORAGE: process.env.STORAGE,
  S3_BUCKET: process.env.S3_BUCKET,
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  S3_FORCE_PATH_STYLE: process.env.S3_FORCE_PATH_STYLE,
  // A stopped journey's portal need not wait long for a request left hanging; a test of the drain sets it.
  SHUTDOWN_GRACE_SECONDS: process.env.SHUTDOWN_GRACE_SECONDS ?? '2',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});

let embedded: EmbeddedDatabase | undefined;
let url = process.env.DATABASE_URL;
if (!url) {
  embedded = await startEmbeddedDatabase();
  url = embedded.url;
}
// DEMO_SCHEMA: a schema several portals share (the cluster test), made by whichever starts first
// and dropped by none of them; otherwise one of this run's own, dropped on exit.
const sharedSchema = process.env.DATABASE_URL ? process.env.DEMO_SCHEMA : undefined;
const schema = process.env.DATABASE_URL ? (sharedSchema ?? `e2e_${randomBytes(6).toString('hex')}`) : undefined;
const db = createDb({ url, schema, poolMax: embedded?.poolMax });
await migrate(db, schema);
await seedDemoData(db, config);
if (process.env.PROVIDER_KEY_FILE) {
  const keys = createApiKeyService({ db, clock: Date.now, config });
  const { key } = await keys.create({ name: 'journeys and bench', scopes: [...PROVIDER_SCOPES], createdBy: 'serve-demo' });
  writeFileSync(process.env.PROVIDER_KEY_FILE, key, { mode: 0o600 });
}

const noThrottle = { freeFailures: Number.MAX_SAFE_INTEGER, firstDelayMs: 0, maxDelayMs: 0, windowMs: 1 };
const throttlePolicy: ThrottlePolicy =
  process.env.THROTTLE === 'off'
    ? (Object.fromEntries(Object.keys(defaultThrottlePolicy).map((bucket) => [bucket, noThrottle])) as ThrottlePolicy)
    : defaultThrottlePolicy;

const logger = createLogger(config);
const app = createApp({ config, db, logger, throttlePolicy, clientDir: process.env.CLIENT_DIR });
const server = app.listen(port, '127.0.0.1', () => {
  console.log(`demo portal on http://localhost:${port} (${embedded ? 'PGlite in memory' : `schema ${schema}`})`);
});
const requestTimes: { path: string; ms: number }[] = [];
if (process.env.REQUEST_TIMES_FILE) {
  // Before Express's own listener, so the time starts when the server first sees the request.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // Read now: Express rewrites req.url for the routers it passes the request through.
    const path = req.url!.split('?')[0]!;
    res.once('finish', () => requestTimes.push({ path, ms: performance.now() - started }));
  });
}

// The portal's own shutdown (server/main.ts), with this run's database dropped at the end.
stopGracefullyOnSignals({
  server,
  app,
  graceMs: config.shutdownGraceMs,
  logger,
  release: async () => {
    if (process.env.REQUEST_TIMES_FILE) writeFileSync(process.env.REQUEST_TIMES_FILE, JSON.stringify(requestTimes));
    if (schema && !sharedSchema) await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db.destroy();
    await embedded?.stop();
  },
});
