import { fileURLToPath } from 'node:url';
import express, { Router, type Express, type RequestHandler } from 'express';
import { appInfoRouter } from './app-info/routes';
import { auditRouter } from './audit/routes';
import { createPasswordChangeService } from './auth/password-change';
import { passwordChangeRouter } from './auth/password-change-routes';
import { authRouter } from './auth/routes';
import { csrfProtection } from './auth/csrf';
import { requirePasswordChanged } from './auth/gates';
import { createAuthService } from './auth/service';
import { enforceSessionLifetime } from './auth/session-lifetime';
import { createSessionMiddleware } from './auth/session-store';
import { createThrottle } from './auth/throttle';
import { defaultThrottlePolicy, type ThrottlePolicy } from './auth/throttle-policy';
import type { Config } from './config';
import { contactRouter } from './contact/routes';
import { createContactService } from './contact/service';
import { schemaOf, type Db } from './db';
import { systemClock, type Clock } from './lib/clock';
import { apiNotFound, errorHandler } from './lib/error-handler';
import { requestLogger, type Logger } from './lib/logger';
import { createBackgroundTasks } from './lib/background';
import { createMailer } from './lib/mail';
import { createSmsSender } from './lib/sms';
import { startJobQueue } from './lib/job-queue';
import { outboxDeliveryFrom, startOutboxRetry } from './lib/outbox-retry';
import { createPasswordResetService } from './password-reset/service';
import { passwordResetRouter } from './password-reset/routes';
import { securityHeaders } from './lib/security-headers';
import { clientRouter, readBuiltClient } from './lib/static-client';
import { contentRouter } from './content/routes';
import { startIsoJobs } from './iso/jobs';
import { isoRouter } from './iso/routes';
import { createIsoService } from './iso/service';
import { createFileStorage } from './lib/storage';
import { resultRouter } from './result/routes';
import { screeningRouter } from './screening/routes';
import { screeningsRouter } from './screenings/routes';
import { surveyRouter } from './survey/routes';
import { uploadRouter } from './upload/routes';
import { userRouter } from './user/routes';

const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));
/** Every JSON call of the portal is a small form; uploads go through multer, not this parser. */
const JSON_BODY_LIMIT = '64kb';

export type AppDeps = {
  config: Config;
  db: Db;
  logger: Logger;
  /** Seams for tests and the bench: time, throttling numbers, where the built client lives. */
  clock?: Clock;
  throttlePolicy?: ThrottlePolicy;
  clientDir?: string;
};

/** The Express app plus what must be released with it (the session store's prune timer, background work). */
export type PortalApp = Express & { close(): Promise<void> };

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

  app.use(requestLogger(logger));
  app.use(securityHeaders({ isProduction: config.isProduction, indexHtml: client?.indexHtml }));

  const throttle = createThrottle(db, throttlePolicy, clock, config.sessionSecret);
  const auth = createAuthService({ db, config, throttle, clock });
  const mailer = createMailer({ config, db, logger, clock });
  const sms = createSmsSender({ config, db, logger, clock });
  const background = createBackgroundTasks(logger);
  const storage = createFileStorage(config.dataDir);
  const queue = startJobQueue({ db, logger });
  const isoJobs = startIsoJobs({ queue, db, config, logger, clock, storage });
  startOutboxRetry({ queue, db, logger, clock, delivery: outboxDeliveryFrom(config) });
  const api = Router();
  api.use(noStore);
  api.use(express.json({ limit: JSON_BODY_LIMIT }));
  // Ahead of the session: answering it must not start one.
  api.use(appInfoRouter(config));
  api.use(sessions.middleware);
  api.use(enforceSessionLifetime(config.session, clock));
  api.use(csrfProtection);
  api.use(requirePasswordChanged);
  api.use('/auth', authRouter({ db, auth, clock }));
  api.use('/auth', passwordChangeRouter({ db, clock, passwords: createPasswordChangeService({ db, throttle, clock }) }));
  api.use('/auth', passwordResetRouter(createPasswordResetService({ db, config, throttle, clock, mailer, sms, background })));
  api.use('/user', userRouter(db));
  api.use('/screening', screeningRouter(db));
  api.use('/screening', resultRouter(db));
  api.use('/screening', surveyRouter(db, clock));
  api.use('/screenings', screeningsRouter(db));
  api.use(contentRouter(db));
  api.use('/iso', isoRouter(db, createIsoService({ storage, jobs: isoJobs, queueLimit: config.iso.queueLimit, clock })));
  api.use('/dicom', uploadRouter({ db, storage, limits: config.upload }, clock));
  api.use('/audit', auditRouter(db));
  api.use('/contact', contactRouter(createContactService({ db, config, logger, clock, throttle, mailer })));
  api.use(apiNotFound);
  app.use('/api', api);

  if (client) app.use(clientRouter(client));
  app.use((_req, res) => {
    res.status(404).type('text').send('Not found');
  });
  app.use(errorHandler);

  return Object.assign(app, {
    close: async () => {
      await queue.stop();
      await background.settle();
      await sessions.close();
    },
  });
}

/** Personal data must never sit in a browser or proxy cache, so no API answer is cacheable. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/** TRUST_PROXY: true/false, a hop count, or addresses and names Express knows (loopback ...). */
function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
