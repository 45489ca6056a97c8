import type { ThrottlePolicy } from './auth/throttle-policy';
import { createThrottle, type Throttle } from './auth/throttle';
import type { Config } from './config';
import type { Db } from './db';
import type { IsoJobs } from './iso/jobs';
import { createBackgroundTasks, type BackgroundTasks } from './lib/background';
import type { Clock } from './lib/clock';
import { startJobQueue, type JobQueue } from './lib/job-queue';
import type { Logger } from './lib/logger';
import { createMetrics, type Metrics } from './metrics/metrics';
import type { PaymentProviders } from './payments';
import { createMailer, type Mailer } from './lib/mail';
import { createSmsSender, type SmsSender } from './lib/sms';
import type { FileStorage } from './lib/storage';
import { storageFromConfig } from './lib/storage-from-config';

/**
 * Everything an area may be given, built once per app. Each area's router takes the one object
 * and names the part it uses as its own `XDeps` type (a structural subset), so a test can build
 * an area with only what it needs.
 */
export type ServerDeps = {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  throttle: Throttle;
  mailer: Mailer;
  sms: SmsSender;
  background: BackgroundTasks;
  storage: FileStorage;
  queue: JobQueue;
  metrics: Metrics;
  /** Handed in by the workers (server/workers.ts): builds are queued by requests, run by workers. */
  isoJobs: IsoJobs;
  /** The payment provider (and the sandbox's notifier), started with the workers. */
  payments: PaymentProviders;
};

/** The infrastructure of ServerDeps; the workers add the rest. */
export type Infrastructure = Omit<ServerDeps, 'isoJobs' | 'payments'>;

export function createInfrastructure(options: {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  throttlePolicy: ThrottlePolicy;
}): Infrastructure {
  const { config, db, logger, clock, throttlePolicy } = options;
  return {
    config,
    db,
    logger,
    clock,
    throttle: createThrottle(db, throttlePolicy, clock, config.sessionSecret),
    mailer: createMailer({ config, db, logger, clock }),
    sms: createSmsSender({ config, db, logger, clock }),
    background: createBackgroundTasks(logger),
    storage: storageFromConfig(config),
    queue: startJobQueue({ db, logger }),
    metrics: createMetrics({ db }),
  };
}
