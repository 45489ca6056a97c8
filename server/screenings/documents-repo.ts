import type { Knex } from 'knex';
import type { ScreeningDocument } from '../../common/types/screenings';
import type { Db } from '../db';

export type DocumentKind = 'description' | 'referral' | 'facilities_list';

const viewableDocumentColumns = {
  id: 'doc.id',
  name: 'doc.name',
  type: 'doc.kind',
  language: 'doc.language',
  sizeBytes: 'doc.size_bytes',
} as const;

/** Metadata only: the bytes are a stored file (document-files.ts), read one file at a time. */
function viewableDocuments(db: Db, screeningIds: readonly number[]): Knex.QueryBuilder {
  return (
    db('screening_documents as doc')
      .leftJoin('screening_descriptions as d', 'd.document_id', 'doc.id')
      .whereIn('doc.screening_id', screeningIds)
      .whereIn('doc.kind', ['description', 'referral'])
      // Descriptions first, in the order they were written (the Polish original first), then the referral.
      .orderBy([{ column: 'doc.kind' }, { column: 'd.id', nulls: 'last' }, { column: 'doc.created_at' }, { column: 'doc.id' }])
  );
}

export async function listViewableDocuments(db: Db, screeningId: number): Promise<ScreeningDocument[]> {
  return viewableDocuments(db, [screeningId]).select(viewableDocumentColumns);
}

/** The viewable documents of several screenings in one query, each screening's in the order above. */
export async function listViewableDocumentsOf(db: Db, screeningIds: readonly number[]): Promise<Map<number, ScreeningDocument[]>> {
  const byScreening = new Map<number, ScreeningDocument[]>(screeningIds.map((id) => [id, []]));
  if (screeningIds.length === 0) return byScreening;
  const rows: (ScreeningDocument & { screeningId: number })[] = await viewableDocuments(db, screeningIds).select({
    ...viewableDocumentColumns,
    screeningId: 'doc.screening_id',
  });
  for (const { screeningId, ...document } of rows) byScreening.get(screeningId)?.push(document);
  return byScreening;
}

export async function hasDocumentOfKind(db: Db, screeningId: number, kind: DocumentKind): Promise<boolean> {
  const row = await db('screening_documents').where({ screening_id: screeningId, kind }).first('id');
  return row !== undefined;
}

/** Which of these screenings have a document of this kind. */
export async function screeningsWithDocumentOfKind(db: Db, screeningIds: readonly number[], kind: DocumentKind): Promise<Set<number>> {
  if (screeningIds.length === 0) return new Set();
  const ids: number[] = await db('screening_documents')
    .whereIn('screening_id', screeningIds)
    .where('kind', kind)
    .distinct()
    .pluck('screening_id');
  return new Set(ids);
}

export type StoredDocument = { id: string; screeningId: number; kind: DocumentKind; language: string | null; examinedAt: Date };

export async function findDocument(db: Db, documentId: string): Promise<StoredDocument | undefined> {
  return db('screening_documents as doc')
    .join('screenings as s', 's.id', 'doc.screening_id')
    .where('doc.id', documentId)
    .first({ id: 'doc.id', screeningId: 'doc.screening_id', kind: 'doc.kind', language: 'doc.language', examinedAt: 's.examined_at' });
}

export async function findDocumentOfKind(db: Db, screeningId: number, kind: DocumentKind): Promise<StoredDocument | undefined> {
  return db('screening_documents as doc')
    .join('screenings as s', 's.id', 'doc.screening_id')
    .where({ 'doc.screening_id': screeningId, 'doc.kind': kind })
    .first({ id: 'doc.id', screeningId: 'doc.screening_id', kind: 'doc.kind', language: 'doc.language', examinedAt: 's.examined_at' });
}
