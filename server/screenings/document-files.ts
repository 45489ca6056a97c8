import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { JobQueue } from '../lib/job-queue';
import { errorForLog, type Logger } from '../lib/logger';
import type { FileStorage } from '../lib/storage';

/**
 * The bytes of screening documents (issue 16): stored files of the `document` area, named by
 * `document_contents.storage_key`. Rows written before migration 011 hold their bytes in
 * `content` until the hourly job below moves them; reads take either.
 */

/** A document's PDF, or undefined when it has no bytes (or no row). */
export async function readDocumentBytes(db: Db, storage: FileStorage, documentId: string): Promise<Buffer | undefined> {
  const row: { content: Buffer | null; storage_key: string | null } | undefined = await db('document_contents')
    .where('document_id', documentId)
    .first('content', 'storage_key');
  if (!row) return undefined;
  if (row.content) return row.content;
  return Buffer.concat(await (await storage.openRead(row.storage_key!)).toArray());
}

/** Writes a document's bytes under a fresh key, before the transaction that names it. */
export async function storeDocumentBytes(storage: FileStorage, bytes: Buffer): Promise<string> {
  const key = storage.newKey('document', '.pdf');
  await storage.writeFile(key, bytes);
  return key;
}

/** Rows read at once by the move. */
const MOVED_PER_BATCH = 200;
/** One run of the job moves batches for this long at most; the next run goes on. */
const MOVE_BUDGET_MS = 5 * 60 * 1000;

/**
 * Moves documents whose bytes are still in the database into the store: each is written under a
 * fresh key, then its row names the key and drops the bytes, unless it changed meanwhile (then the
 * written file goes again). A crash in between leaves a file no row names, for the sweep below.
 * Answers how many moved.
 */
export async function moveDocumentsIntoStore(db: Db, storage: FileStorage, limit = MOVED_PER_BATCH): Promise<number> {
  const ids: string[] = await db('document_contents').whereNotNull('content').limit(limit).pluck('document_id');
  let moved = 0;
  for (const id of ids) {
    const row = await db('document_contents').where('document_id', id).whereNotNull('content').first('content');
    if (!row) continue;
    const key = await storeDocumentBytes(storage, row.content);
    const updated = await db('document_contents')
      .where('document_id', id)
      .whereNotNull('content')
      .update({ storage_key: key, content: null });
    if (updated === 0) await storage.remove(key);
    else moved++;
  }
  return moved;
}

/** Which of these keys a document row names (the sweep of unnamed files). */
async function namedDocumentKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  return new Set(await db('document_contents').whereIn('storage_key', keys).pluck('storage_key'));
}

/** Deletes document files no row names once an hour old (a crash mid-write, a document replaced or deleted): answers how many. */
export function removeOrphanDocumentFiles(db: Db, storage: FileStorage, now: number): Promise<number> {
  return storage.removeUnnamed('document', (keys) => namedDocumentKeys(db, keys), now);
}

const SWEEP_SECONDS = 60 * 60;

/** The move and the sweep as an hourly job on the shared queue, the first run at start. */
export function startDocumentFileJobs(deps: { queue: JobQueue; db: Db; storage: FileStorage; clock: Clock; logger: Logger }): void {
  deps.queue.every('document-files', SWEEP_SECONDS, async () => {
    const until = Date.now() + MOVE_BUDGET_MS;
    let moved = 0;
    let batch: number;
    do {
      batch = await moveDocumentsIntoStore(deps.db, deps.storage);
      moved += batch;
    } while (batch > 0 && Date.now() < until);
    if (moved > 0) deps.logger.info({ moved }, 'documents moved into the file store');
    const removed = await removeOrphanDocumentFiles(deps.db, deps.storage, deps.clock()).catch((error: unknown) => {
      deps.logger.warn({ err: errorForLog(error) }, 'document file sweep failed');
      return 0;
    });
    if (removed > 0) deps.logger.warn({ removed }, 'document files no row named removed');
  });
}
