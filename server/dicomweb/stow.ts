import type { Logger } from 'pino';
import type { Db } from '../db';
import { invalidatePatientIsoImages } from '../iso';
import { errorForLog } from '../lib/logger';
import { mapInParallel } from '../lib/parallel';
import type { FileStorage } from '../lib/storage';
import { inspectParsed, type DicomHeader } from '../upload/dicom-header';
import { sequence, TAGS, text, number, type DicomJsonDataset } from './dicom-json';
import { parseMediaType } from '../lib/multipart/parser';
import type { ReceivedPart } from './receive';
import { insertStowedInstances, screeningByAccession, type AccessionScreening, type StowedInstance } from './repo';
import { pixelDataMatchesTransferSyntax, stowHeaderOf } from './stow-header';

/**
 * Failure Reason (0008,1197) codes of a refused instance (PS3.18 10.5.3.1, PS3.4 B.2.3):
 * - 0xA700 Refused, out of resources: a part over the size limit or past the number of parts.
 * - 0xA900 Data set does not match SOP class: a DICOM object that is not an image (no pixel
 *   data, a DICOMDIR); the portal stores images only.
 * - 0xC000 Cannot understand: not DICOM (no DICM marker), truncated or unreadable, a transfer
 *   syntax claim the data contradicts, a part that is not application/dicom, and an instance
 *   without an accession number or with one no screening has: the portal cannot tell whose it is.
 * - 0x0110 Processing failure: the portal failed to store a valid instance (disk, database).
 */
const FAILURE = {
  outOfResources: 0xa700,
  notMatchingSopClass: 0xa900,
  cannotUnderstand: 0xc000,
  processingFailure: 0x0110,
} as const;

export type StowDeps = { db: Db; storage: FileStorage; logger: Logger };
export type Stower = { apiKeyId: number | null };

type Referenced = { sopClassUid: string; sopInstanceUid: string; studyInstanceUid: string; seriesInstanceUid: string };
type Failed = { sopClassUid: string | undefined; sopInstanceUid: string | undefined; reason: number };
type PartOutcome = { kind: 'stored'; instance: Referenced; screening: AccessionScreening; fresh: boolean } | ({ kind: 'failed' } & Failed);
/** A part that passed every check, ready to be stored. */
type Ready = { kind: 'ready'; part: ReceivedPart; header: DicomHeader; screening: AccessionScreening };

export type StowOutcome = { status: 200 | 202 | 409; body: DicomJsonDataset; studies: string[] };

/**
 * Stores each instance of a STOW-RS request on its own terms: a bad part fails alone with its
 * reason, the good ones of the same request are stored. An instance the patient already has (a
 * retry) is a success and stores nothing new. The good parts are recorded in one transaction (one
 * commit per request, not per instance); should that fail, each alone, so a part the database
 * refuses fails alone too. Then the built disc images of the patients who got new images
 * are dropped, so the next one includes them.
 */
export async function storeInstances(
  deps: StowDeps,
  stower: Stower,
  parts: ReceivedPart[],
  retrieveUrl: (path: string) => string,
): Promise<StowOutcome> {
  const screeningOf = memoized((accessionNumber: string) => screeningByAccession(deps.db, accessionNumber));
  const outcomes: Array<PartOutcome | Ready> = [];
  for (const part of parts) {
    outcomes.push(await checkPart(part, screeningOf).catch((error: unknown) => processingFailure(deps, error)));
  }
  const ready = outcomes.filter((outcome): outcome is Ready => outcome.kind === 'ready');
  const stored = await storeTogether(deps, stower, ready);
  const settled = outcomes.map((outcome) => (outcome.kind === 'ready' ? stored.get(outcome)! : outcome));
  const patients = new Set(
    settled.flatMap((outcome) => (outcome.kind === 'stored' && outcome.fresh ? [outcome.screening.personalDataId] : [])),
  );
  for (const personalDataId of patients) {
    // The images are stored; a disc image left stale is logged rather than failing the request.
    await invalidatePatientIsoImages(deps.db, deps.storage, personalDataId).catch((error: unknown) =>
      deps.logger.error({ err: errorForLog(error) }, 'disc images not refreshed after STOW-RS'),
    );
  }
  return answer(settled, retrieveUrl);
}

/** The checks of one part, before anything is stored: a failure with its reason, or ready. */
async function checkPart(
  part: ReceivedPart,
  screeningOf: (accessionNumber: string) => Promise<AccessionScreening | undefined>,
): Promise<PartOutcome | Ready> {
  const failed = (reason: number, header?: { sopClassUid?: string; sopInstanceUid?: string }): PartOutcome => ({
    kind: 'failed',
    reason,
    sopClassUid: header?.sopClassUid,
    sopInstanceUid: header?.sopInstanceUid,
  });
  if (part.refused) return failed(FAILURE.outOfResources);
  const partType = part.contentType === undefined ? undefined : parseMediaType(part.contentType);
  if (part.contentType !== undefined && partType?.type !== 'application/dicom') return failed(FAILURE.cannotUnderstand);

  const { inspection, dataSet } = await inspectParsed(part.path, part.size, `part-${part.index}.dcm`, part.head);
  const stowHeader = dataSet && stowHeaderOf(dataSet);
  if (inspection.kind === 'refused') {
    const reason =
      inspection.reason === 'not_image' || inspection.reason === 'dicomdir' ? FAILURE.notMatchingSopClass : FAILURE.cannotUnderstand;
    return failed(reason, stowHeader);
  }
  const { header } = inspection;
  const claimedSyntax = partType?.parameters.get('transfer-syntax');
  if (!stowHeader || !pixelDataMatchesTransferSyntax(stowHeader) || (claimedSyntax && claimedSyntax !== stowHeader.transferSyntaxUid)) {
    return failed(FAILURE.cannotUnderstand, header);
  }
  const screening = stowHeader.accessionNumber ? await screeningOf(stowHeader.accessionNumber) : undefined;
  if (!screening) return failed(FAILURE.cannotUnderstand, header);
  return { kind: 'ready', part, header, screening };
}

/**
 * Files moved into the store at once: renames on a folder, uploads to a bucket. One after another,
 * each waited for the disk (or the network) in turn, and a request of many small instances mostly
 * waited. An upload holds up to 20 MB of its file in memory (storage-s3.ts), so large files go
 * fewer at a time: about as many bytes at once as one large file alone.
 */
const MOST_FILES_PLACED_AT_ONCE = 16;
const BYTES_PLACED_AT_ONCE = 20 * 1024 * 1024;

function filesPlacedAtOnce(ready: Ready[]): number {
  const largest = Math.max(0, ...ready.map((instance) => instance.part.size));
  return Math.max(1, Math.min(MOST_FILES_PLACED_AT_ONCE, Math.floor(BYTES_PLACED_AT_ONCE / Math.max(1, largest))));
}

/**
 * Stores instances: their files moved into the store first, outside any transaction (on a bucket
 * the slow part; no connection waits on it), then their rows in one transaction. Files no row
 * names afterwards are removed (a crash in between leaves them to the store's sweep).
 */
async function storeTogether(deps: StowDeps, stower: Stower, ready: Ready[]): Promise<Map<Ready, PartOutcome>> {
  const outcomes = new Map<Ready, PartOutcome>();
  const placeOne = async (instance: Ready) => {
    try {
      const storageKey = deps.storage.newKey('dicom', '.dcm');
      await deps.storage.adopt(instance.part.path, storageKey);
      return [{ instance, storageKey }];
    } catch (error) {
      outcomes.set(instance, processingFailure(deps, error));
      return [];
    }
  };
  const placed = (await mapInParallel(ready, filesPlacedAtOnce(ready), placeOne)).flat();
  const rowOf = ({ instance, storageKey }: (typeof placed)[number]): StowedInstance => ({
    ...instance.header,
    screening: instance.screening,
    apiKeyId: stower.apiKeyId,
    storageKey,
    sizeBytes: instance.part.size,
  });
  const record = (some: typeof placed) => deps.db.transaction((trx) => insertStowedInstances(trx, some.map(rowOf)));
  const fresh = await record(placed).catch(async (error: unknown) => {
    // Each alone, so an instance the database refuses fails alone.
    deps.logger.warn({ err: errorForLog(error) }, 'STOW-RS instances not recorded together; recording each alone');
    const recorded = new Set<string>();
    for (const one of placed) {
      try {
        for (const key of await record([one])) recorded.add(key);
      } catch (failure) {
        outcomes.set(one.instance, processingFailure(deps, failure));
      }
    }
    return recorded;
  });
  for (const { instance, storageKey } of placed) {
    if (!fresh.has(storageKey)) await deps.storage.remove(storageKey);
    if (outcomes.has(instance)) continue;
    outcomes.set(instance, { kind: 'stored', instance: instance.header, screening: instance.screening, fresh: fresh.has(storageKey) });
  }
  return outcomes;
}

/** `lookUp` asked once per distinct key in one request (its parts mostly share an accession number). */
function memoized<T>(lookUp: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (key) => {
    if (!answers.has(key)) answers.set(key, lookUp(key));
    return answers.get(key)!;
  };
}

function processingFailure(deps: StowDeps, error: unknown): PartOutcome {
  deps.logger.error({ err: errorForLog(error) }, 'STOW-RS instance not stored');
  return { kind: 'failed', reason: FAILURE.processingFailure, sopClassUid: undefined, sopInstanceUid: undefined };
}

/** The Store Instances Response Module (PS3.18 10.5.3): 200 all stored, 202 some failed, 409 none stored. */
function answer(outcomes: PartOutcome[], retrieveUrl: (path: string) => string): StowOutcome {
  const stored = outcomes.flatMap((outcome) => (outcome.kind === 'stored' ? [outcome.instance] : []));
  const failed = outcomes.flatMap((outcome) => (outcome.kind === 'failed' ? [outcome] : []));
  const studies = [...new Set(stored.map((instance) => instance.studyInstanceUid))];
  const body: DicomJsonDataset = {};
  if (studies.length === 1) body[TAGS.retrieveUrl] = text('UR', retrieveUrl(`/studies/${studies[0]}`));
  if (failed.length > 0) {
    body[TAGS.failedSopSequence] = sequence(
      failed.map((failure) => ({
        [TAGS.referencedSopClassUid]: text('UI', failure.sopClassUid),
        [TAGS.referencedSopInstanceUid]: text('UI', failure.sopInstanceUid),
        [TAGS.failureReason]: number('US', failure.reason),
      })),
    );
  }
  if (stored.length > 0) {
    body[TAGS.referencedSopSequence] = sequence(
      stored.map((instance) => ({
        [TAGS.referencedSopClassUid]: text('UI', instance.sopClassUid),
        [TAGS.referencedSopInstanceUid]: text('UI', instance.sopInstanceUid),
        [TAGS.retrieveUrl]: text(
          'UR',
          retrieveUrl(`/studies/${instance.studyInstanceUid}/series/${instance.seriesInstanceUid}/instances/${instance.sopInstanceUid}`),
        ),
      })),
    );
  }
  const status = failed.length === 0 ? 200 : stored.length > 0 ? 202 : 409;
  return { status, body, studies };
}
