import type { IsoStatus } from '../../common/types/result';
import type { Config } from '../config';
import type { Db } from '../db';
import { AppError, notFound } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { auditOwnerOf, writeAudit } from '../lib/audit';
import { formatDate } from '../lib/dates';
import type { RequestContext } from '../lib/principal';
import type { FileStorage } from '../lib/storage';
import type { StoredFileDownload } from '../lib/stored-file-response';
import { ownedScreeningId } from '../screenings';
import { deadBuildsBefore, type IsoJobs } from './jobs';
import { decodeVirtualImage, readVirtualImage, VIRTUAL_DISC_EXTENSION } from './virtual-image';
import { countPending, findIsoImage, hasImages, markRemoved, requestIsoImage, withdrawRequest, type IsoImageRow } from './repo';

export type IsoService = {
  /** The status of a screening whose ownership the caller has settled (the result page's). */
  statusOf(screeningId: number): Promise<IsoStatus>;
  status(context: RequestContext, requestedId: number | undefined): Promise<IsoStatus>;
  generate(context: RequestContext, requestedId: number | undefined): Promise<IsoStatus>;
  download(context: RequestContext, requestedId: number | undefined): Promise<Omit<StoredFileDownload, 'contentType'>>;
};

/**
 * A failed build, or one whose process died, offers the generate button again, as if nothing had
 * been requested.
 */
function isoApiStatus(image: Pick<IsoImageRow, 'status' | 'dead'> | undefined, screeningHasImages: boolean): IsoStatus {
  if (!screeningHasImages) return 'empty';
  if (!image || image.status === 'failed' || image.dead) return 'no_request';
  return image.status;
}

const busy = () => new AppError(500, 'ISO_GENERATOR_BUSY', { detail: 'iso_generator_full_status' });
const noConnection = () => new AppError(503, 'NO_CONNECTION', { detail: 'no_connection' });

export type IsoDeps = { db: Db; storage: FileStorage; isoJobs: IsoJobs; config: Config; clock: Clock };

export function createIsoService({ db, storage, isoJobs, config, clock }: IsoDeps): IsoService {
  const queueLimit = config.iso.queueLimit;

  async function statusOf(screeningId: number): Promise<IsoStatus> {
    const [image, images] = await Promise.all([findIsoImage(db, screeningId, deadBuildsBefore(clock())), hasImages(db, screeningId)]);
    return isoApiStatus(image, images);
  }

  return {
    statusOf,

    async status(context, requestedId) {
      return statusOf(await ownedScreeningId(db, context, requestedId, 'ISO_UNAUTHORIZED'));
    },

    /**
     * Queues a build unless one is waiting, running or done (then the current status answers);
     * a full queue is "generator busy" (DECISIONS.md 14).
     */
    async generate(context, requestedId) {
      const screeningId = await ownedScreeningId(db, context, requestedId, 'ISO_GENERATE_UNAUTHORIZED');
      const deadBefore = deadBuildsBefore(clock());
      const [image, images] = await Promise.all([findIsoImage(db, screeningId, deadBefore), hasImages(db, screeningId)]);
      const status = isoApiStatus(image, images);
      if (status === 'empty') throw notFound();
      if (status !== 'no_request' && status !== 'removed') return status;
      // A dead build counts in the queue until it is requested again, which replaces it.
      if ((await countPending(db)) - (image?.dead ? 1 : 0) >= queueLimit) throw busy();
      if (!(await requestIsoImage(db, screeningId, new Date(clock()), deadBefore))) return statusOf(screeningId);
      if (image?.dead && image.jobId) await isoJobs.abandon(image.jobId);
      if (!(await isoJobs.enqueue(screeningId))) {
        await withdrawRequest(db, screeningId);
        throw noConnection();
      }
      await writeAudit(db, {
        type: 'ISO_GENERATE',
        ip: context.ip,
        description: `screening ${screeningId}`,
        ...auditOwnerOf(context.caller),
      });
      return 'new';
    },

    async download(context, requestedId) {
      const screeningId = await ownedScreeningId(db, context, requestedId, 'ISO_UNAUTHORIZED');
      const image = await findIsoImage(db, screeningId, deadBuildsBefore(clock()));
      if (image?.status !== 'done' || !image.storageKey) throw notFound();
      const key = image.storageKey;
      const stored = await openDiscImage(storage, key).catch(() => {
        throw noConnection();
      });
      if (!stored) {
        // The file was cleaned up: the page offers a new image.
        await markRemoved(db, screeningId);
        throw notFound();
      }
      return { key, fileName: `mammografia-${formatDate(image.examinedAt, 'en')}.iso`, ...stored };
    },
  };
}

/**
 * A built disc image as a download: a virtual image (its layout read, the images streamed from
 * the store) or, built before them, a whole image file. Undefined when the file is gone.
 */
async function openDiscImage(storage: FileStorage, key: string): Promise<Pick<StoredFileDownload, 'sizeBytes' | 'open'> | undefined> {
  if (!key.endsWith(VIRTUAL_DISC_EXTENSION)) {
    const storedSize = await storage.sizeOf(key);
    return storedSize === undefined ? undefined : { sizeBytes: storedSize, open: (range) => storage.openRead(key, range) };
  }
  // One read of the small layout file per request (a download manager asks for many ranges).
  const encoded = await storage.openRead(key).then(
    async (stream) => Buffer.concat(await stream.toArray()),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (!encoded) return undefined;
  const disc = decodeVirtualImage(encoded);
  return { sizeBytes: disc.size, open: async (range) => readVirtualImage(disc, (stored, part) => storage.openRead(stored, part), range) };
}
