import { stat } from 'node:fs/promises';
import { AppError, notFound } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { writeAudit } from '../lib/audit';
import { formatDate } from '../lib/pdf/dates';
import type { FileStorage } from '../lib/storage';
import { auditOwnerOf, ownedScreeningId, type RequestContext } from '../result/ownership';
import type { IsoJobs } from './jobs';
import { countPending, findIsoImage, hasImages, markRemoved, requestIsoImage, withdrawRequest, type IsoImageStatus } from './repo';

/** What the result page shows of the ISO image (spec section 4). */
export type IsoApiStatus = 'no_request' | 'new' | 'in_progress' | 'done' | 'removed' | 'empty';

export type IsoService = {
  status(context: RequestContext, requestedId: number | undefined): Promise<IsoApiStatus>;
  generate(context: RequestContext, requestedId: number | undefined): Promise<IsoApiStatus>;
  download(context: RequestContext, requestedId: number | undefined): Promise<{ path: string; fileName: string; sizeBytes: number }>;
};

/** A failed build offers the generate button again, as if nothing had been requested. */
export function isoApiStatus(status: IsoImageStatus | null, screeningHasImages: boolean): IsoApiStatus {
  if (!screeningHasImages) return 'empty';
  if (status === null || status === 'failed') return 'no_request';
  return status;
}

const busy = () => new AppError(500, 'ISO_GENERATOR_BUSY', { detail: 'iso_generator_full_status' });
const noConnection = () => new AppError(503, 'NO_CONNECTION', { detail: 'no_connection' });

export function createIsoService(deps: { storage: FileStorage; jobs: IsoJobs; queueLimit: number; clock: Clock }): IsoService {
  const { storage, jobs, queueLimit, clock } = deps;

  async function currentStatus(context: RequestContext, screeningId: number): Promise<IsoApiStatus> {
    const [image, images] = await Promise.all([findIsoImage(context.db, screeningId), hasImages(context.db, screeningId)]);
    return isoApiStatus(image?.status ?? null, images);
  }

  return {
    async status(context, requestedId) {
      const screeningId = await ownedScreeningId(context, requestedId, 'ISO_UNAUTHORIZED');
      return currentStatus(context, screeningId);
    },

    /**
     * Queues a build unless one is waiting, running or done (then the current status answers);
     * a full queue is "generator busy" (DECISIONS.md 14).
     */
    async generate(context, requestedId) {
      const screeningId = await ownedScreeningId(context, requestedId, 'ISO_GENERATE_UNAUTHORIZED');
      const status = await currentStatus(context, screeningId);
      if (status === 'empty') throw notFound();
      if (status !== 'no_request' && status !== 'removed') return status;
      if ((await countPending(context.db)) >= queueLimit) throw busy();
      if (!(await requestIsoImage(context.db, screeningId, new Date(clock())))) return currentStatus(context, screeningId);
      if (!(await jobs.enqueue(screeningId))) {
        await withdrawRequest(context.db, screeningId);
        throw noConnection();
      }
      await writeAudit(context.db, { type: 'ISO_GENERATE', ip: context.ip, description: `screening ${screeningId}`, ...auditOwnerOf(context.caller) });
      return 'new';
    },

    async download(context, requestedId) {
      const screeningId = await ownedScreeningId(context, requestedId, 'ISO_UNAUTHORIZED');
      const image = await findIsoImage(context.db, screeningId);
      if (image?.status !== 'done' || !image.storageKey) throw notFound();
      const path = storage.pathOf(image.storageKey);
      try {
        await stat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw noConnection();
        // The file was cleaned up: the page offers a new image.
        await markRemoved(context.db, screeningId);
        throw notFound();
      }
      return { path, fileName: `mammografia-${formatDate(image.examinedAt, 'en')}.iso`, sizeBytes: image.sizeBytes ?? 0 };
    },
  };
}
