import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { insertDocument } from '../../tests/support/screening-documents';
import { createFileStorage, UNNAMED_AFTER_MS, type FileStorage, type LocalFileStorage } from '../lib/storage';
import { moveDocumentsIntoStore, readDocumentBytes, removeOrphanDocumentFiles } from './document-files';

/** Documents whose bytes were written into the database before migration 011 move into the file store. */
let app: TestApp;
let seed: MinimalSeed;
let storage: LocalFileStorage;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  storage = createFileStorage(app.config.dataDir);
  // The app's own hourly job makes its first run at start and moves the seed's documents: once it
  // has, it stays out of the way of these tests for an hour.
  const deadline = Date.now() + 30_000;
  while ((await app.db('document_contents').whereNotNull('content').first('document_id')) !== undefined) {
    if (Date.now() > deadline) throw new Error('the document job did not run at start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(() => app?.close());

const contentsOf = (id: string) => app.db('document_contents').where('document_id', id).first('content', 'storage_key');

describe('documents in the file store', () => {
  it('moves a document from the database into the store, readable the same before and after', async () => {
    const id = await insertDocument(app.db, seed.patient.latestScreeningId, {
      kind: 'referral',
      language: null,
      name: 'Skierowanie.pdf',
      text: 'old referral',
    });
    const before = await readDocumentBytes(app.db, storage, id);
    expect(before!.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await contentsOf(id)).storage_key).toBeNull();

    expect(await moveDocumentsIntoStore(app.db, storage)).toBeGreaterThanOrEqual(1);
    const row = await contentsOf(id);
    expect(row.content).toBeNull();
    expect(row.storage_key).toMatch(/^document\//);
    expect((await readDocumentBytes(app.db, storage, id))!.equals(before!)).toBe(true);
    expect(await moveDocumentsIntoStore(app.db, storage)).toBe(0);
  });

  it('leaves a document replaced during its move as replaced, and keeps no file of the move', async () => {
    const id = await insertDocument(app.db, seed.patient.olderScreeningId, {
      kind: 'referral',
      language: null,
      name: 'Skierowanie.pdf',
      text: 'to be replaced',
    });
    const replacement = storage.newKey('document', '.pdf');
    await storage.writeFile(replacement, Buffer.from('%PDF- the provider sent a new version'));
    const written: string[] = [];
    // The provider replaces the document just as the move has written its copy.
    const racing: FileStorage = {
      ...storage,
      writeFile: async (key, content) => {
        await storage.writeFile(key, content);
        written.push(key);
        await app.db('document_contents').where('document_id', id).update({ content: null, storage_key: replacement });
      },
    };
    await moveDocumentsIntoStore(app.db, racing);
    expect(await contentsOf(id)).toEqual({ content: null, storage_key: replacement });
    expect(written).toHaveLength(1);
    expect(await storage.sizeOf(written[0]!)).toBeUndefined();
  });

  it('sweeps a document file no row names once an hour old, keeping the named ones', async () => {
    const orphan = storage.newKey('document', '.pdf');
    await storage.writeFile(orphan, Buffer.from('%PDF- written by a process that died before its row'));
    const named: string[] = await app.db('document_contents').whereNotNull('storage_key').pluck('storage_key');
    expect(await removeOrphanDocumentFiles(app.db, storage, Date.now())).toBe(0);
    expect(await removeOrphanDocumentFiles(app.db, storage, Date.now() + UNNAMED_AFTER_MS + 60_000)).toBe(1);
    expect(await storage.sizeOf(orphan)).toBeUndefined();
    for (const key of named) expect(await storage.sizeOf(key)).toBeDefined();
  });

  it('refuses a row with its bytes in both places or in neither', async () => {
    const id = await insertDocument(app.db, seed.patient.latestScreeningId, {
      kind: 'description',
      language: 'de',
      name: 'Befund.pdf',
      text: 'x',
    });
    await expect(app.db('document_contents').where('document_id', id).update({ storage_key: 'document/x.pdf' })).rejects.toThrow(
      /document_contents_one_place/,
    );
    await expect(app.db('document_contents').where('document_id', id).update({ content: null })).rejects.toThrow(
      /document_contents_one_place/,
    );
  });
});
