import type { ImageRef, ImageSet, ImageSetsResponse } from '../../common/types/images';
import type { Db } from '../db';
import { auditOwnerOf, writeAudit } from '../lib/audit';
import type { Clock } from '../lib/clock';
import { notFound } from '../lib/errors';
import { errorForLog, type Logger } from '../lib/logger';
import type { RequestContext } from '../lib/principal';
import type { StoredFileDownload } from '../lib/stored-file-response';
import type { FileStorage } from '../lib/storage';
import { refuse } from '../screenings/ownership';
import { findImage, ownedImages, saveViewTags, type ImageRow } from './repo';
import { readViewTags, type ViewTags } from './view-tags';

export type ImagesDeps = { db: Db; storage: FileStorage; clock: Clock; logger: Logger };

const DICOM_CONTENT_TYPE = 'application/dicom';

/** Headers are read a few at a time: enough to overlap the disk, few enough to leave the pool and the event loop to others. */
const HEADER_READS_IN_FLIGHT = 4;

/** Radiologists' hanging (issue 15): right then left, cranio-caudal then medio-lateral oblique. */
const HANGING = ['R CC', 'L CC', 'R MLO', 'L MLO'];

/**
 * `GET /api/images`: what the caller may view, newest first. A patient sees her screenings' images
 * and her uploaded studies; a result-portal session sees its one screening's (DECISIONS.md 4).
 * Viewing a screening's images is reading it, so the listing is audited once as SCREENING.
 */
async function listSets(deps: ImagesDeps, context: RequestContext): Promise<ImageSetsResponse> {
  const rows = await withViewTags(deps, await ownedImages(deps.db, context.caller));
  await writeAudit(deps.db, { type: 'SCREENING', ip: context.ip, description: 'images list', ...auditOwnerOf(context.caller) });
  return { sets: setsOf(rows) };
}

/**
 * `GET /api/images/<id>`: one of the caller's images. Someone else's is refused like one that does
 * not exist, with the attempt in the caller's own log (DECISIONS.md 4).
 */
async function imageFile(deps: ImagesDeps, context: RequestContext, id: string): Promise<StoredFileDownload> {
  const [image] = await ownedImages(deps.db, context.caller, id);
  if (!image) {
    if (await findImage(deps.db, id)) await refuse(deps.db, context, 'SCREENING_UNAUTHORIZED', 'image');
    throw notFound();
  }
  const key = image.storageKey;
  // A row whose file is gone (a restore without its files) answers like a missing image.
  const sizeBytes = await deps.storage.sizeOf(key);
  if (sizeBytes === undefined) throw notFound();
  return { key, sizeBytes, contentType: DICOM_CONTENT_TYPE, open: (range) => deps.storage.openRead(key, range) };
}

/**
 * Fills in the view tags of rows no listing has read yet (every ingest path stores rows without
 * them), from each file's header, and keeps them. A file that cannot be opened keeps its nulls
 * for this answer and is tried again next time.
 */
async function withViewTags(deps: ImagesDeps, rows: ImageRow[]): Promise<ImageRow[]> {
  const unread = rows.filter((row) => !row.viewTagsRead);
  if (unread.length === 0) return rows;
  const read = new Map<string, ViewTags>();
  await forEachInFlight(unread, HEADER_READS_IN_FLIGHT, async (row) => {
    try {
      read.set(row.id, await readViewTags((start, length) => deps.storage.readBytes(row.storageKey, start, length)));
    } catch (error) {
      deps.logger.warn({ imageId: row.id, err: errorForLog(error) }, 'image header not read');
    }
  });
  await saveViewTags(
    deps.db,
    [...read].map(([id, tags]) => ({ id, ...tags })),
    new Date(deps.clock()),
  );
  return rows.map((row) => {
    const tags = read.get(row.id);
    return tags ? { ...row, ...tags, viewTagsRead: true } : row;
  });
}

async function forEachInFlight<T>(items: readonly T[], inFlight: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
}

/** A screening's images form one set, an uploaded study another; the newest first. */
function setsOf(rows: ImageRow[]): ImageSet[] {
  const groups = new Map<string, ImageRow[]>();
  for (const row of rows) {
    const key = row.screeningId === null ? `upload ${row.studyInstanceUid}` : `screening ${row.screeningId}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()]
    .map((images) => ({ set: setOf(images), ...sortKeyOf(images) }))
    .sort((a, b) => b.takenAt - a.takenAt || a.kindOrder - b.kindOrder || a.tieBreak.localeCompare(b.tieBreak))
    .map(({ set }) => set);
}

function setOf(rows: ImageRow[]): ImageSet {
  const images = [...rows].sort(compareImages).map(imageRef);
  const first = rows[0]!;
  if (first.screeningId !== null && first.examinedAt !== null) {
    return { kind: 'screening', screeningId: first.screeningId, examinedAt: first.examinedAt.toISOString(), images };
  }
  return { kind: 'upload', studyInstanceUid: first.studyInstanceUid, studyDate: latestStudyDate(rows), images };
}

/**
 * When the images were taken: the screening's examination, an uploaded study's date; a study
 * whose files carry no date sorts by when she uploaded it. Screenings first on the same instant.
 */
function sortKeyOf(rows: ImageRow[]): { takenAt: number; kindOrder: number; tieBreak: string } {
  const first = rows[0]!;
  if (first.screeningId !== null && first.examinedAt !== null) {
    return { takenAt: first.examinedAt.getTime(), kindOrder: 0, tieBreak: String(first.screeningId).padStart(10, '0') };
  }
  const studyDate = latestStudyDate(rows);
  const takenAt = studyDate ? Date.parse(`${studyDate}T00:00:00Z`) : Math.max(...rows.map((row) => row.createdAt.getTime()));
  return { takenAt, kindOrder: 1, tieBreak: first.studyInstanceUid };
}

function latestStudyDate(rows: ImageRow[]): string | null {
  const dates = rows.map((row) => row.studyDate).filter((date): date is string => date !== null);
  return dates.length === 0 ? null : dates.sort().at(-1)!;
}

/** The four standard views in hanging order, then the rest by date and instance number. */
function compareImages(a: ImageRow, b: ImageRow): number {
  return (
    hangingRank(a) - hangingRank(b) ||
    compareNullsLast(a.studyDate, b.studyDate) ||
    compareNullsLast(a.instanceNumber, b.instanceNumber) ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    a.id.localeCompare(b.id)
  );
}

function hangingRank(row: ImageRow): number {
  const rank = HANGING.indexOf(`${row.laterality} ${row.viewPosition}`);
  return rank === -1 ? HANGING.length : rank;
}

function compareNullsLast<T extends string | number>(a: T | null, b: T | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function imageRef(row: ImageRow): ImageRef {
  return {
    id: row.id,
    laterality: row.laterality,
    viewPosition: row.viewPosition,
    studyDate: row.studyDate,
    modality: row.modality,
    transferSyntaxUid: row.transferSyntaxUid,
    rows: row.rows,
    columns: row.columns,
    sizeBytes: row.sizeBytes,
  };
}

export function createImagesService(deps: ImagesDeps) {
  return {
    list: (context: RequestContext) => listSets(deps, context),
    file: (context: RequestContext, id: string) => imageFile(deps, context, id),
  };
}
