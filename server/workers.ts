import type { Infrastructure } from './deps';
import { startIsoJobs, type IsoJobs } from './iso/jobs';
import { outboxDeliveryFrom, startOutboxRetry } from './lib/outbox-retry';
import { startOrderExpiry } from './orders/expiry';
import { startPaymentProvider, type PaymentProviders } from './payments';
import { startDocumentFileJobs } from './screenings/document-files';
import { startIncomingSweep } from './upload/multipart';
import { startOrphanImageSweep } from './upload/orphan-files';
import { startBatchAudit } from './upload/resumable/batch-audit';
import { startResumableUploadSweep } from './upload/resumable/expiry';

export type Workers = { isoJobs: IsoJobs; payments: PaymentProviders };

/**
 * Every piece of background work of a portal process, started in one place: ISO builds and the
 * clean-up of expired images, outbox retries, the removal of uploads a dead process left
 * half-received (every 15 minutes), image files a crash left without their row, documents moved
 * from the database into the file store (and their files no row names), resumable uploads past their time, the payment sandbox's notifications and the expiry of unpaid orders. They run on the shared job queue (pg-boss on PostgreSQL), so several processes
 * share the work. `createApp` calls this once; `app.close()` stops the queue and with it them.
 */
export function startWorkers(deps: Infrastructure): Workers {
  const { queue, db, config, logger, clock, storage } = deps;
  const isoJobs = startIsoJobs({ queue, db, config, logger, clock, storage });
  startOutboxRetry({ queue, db, logger, clock, delivery: outboxDeliveryFrom(config) });
  startIncomingSweep({ queue, incomingDir: storage.incomingDir, clock });
  startOrphanImageSweep({ queue, db, storage, clock, logger });
  startDocumentFileJobs({ queue, db, storage, clock, logger });
  startResumableUploadSweep({ queue, db, storage, logger, clock });
  startBatchAudit({ queue, db, clock, logger });
  const payments = startPaymentProvider({ config, db, queue, logger });
  startOrderExpiry({ ...deps, payments: payments.provider });
  return { isoJobs, payments };
}
