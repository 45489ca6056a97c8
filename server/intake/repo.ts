import type { Knex } from 'knex';
import type { Db } from '../db';
import type { DocumentKind, DocumentLanguage } from './schemas';

/** A unique index a statement broke, by its constraint name; undefined for any other error. */
export function uniqueViolation(error: unknown): string | undefined {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && typeof constraint === 'string' ? constraint : undefined;
}

export type PatientRow = {
  id: number;
  external_id: string;
  first_name: string;
  last_name: string;
  birth_at: string;
  pesel: string | null;
  email: string | null;
  phone_number: string | null;
};

const PATIENT_COLUMNS = ['id', 'external_id', 'first_name', 'last_name', 'birth_at', 'pesel', 'email', 'phone_number'];

export type PatientFields = Omit<PatientRow, 'id' | 'external_id'>;

/**
 * One statement creates or replaces the patient by the provider's id, so two retries racing each
 * other cannot make two rows. `xmax = 0` is PostgreSQL's mark of a row this statement inserted.
 */
export async function upsertPatient(db: Db, externalId: string, fields: PatientFields): Promise<{ row: PatientRow; created: boolean }> {
  const [row] = await db('personal_data')
    .insert({ external_id: externalId, ...fields })
    .onConflict('external_id')
    .merge(Object.keys(fields))
    .returning([...PATIENT_COLUMNS, db.raw('(xmax = 0) AS created')]);
  const { created, ...patient } = row as PatientRow & { created: boolean };
  return { row: patient, created };
}

export async function findPatient(db: Db | Knex.Transaction, externalId: string): Promise<PatientRow | undefined> {
  return db('personal_data').where('external_id', externalId).first<PatientRow | undefined>(PATIENT_COLUMNS);
}

type ScreeningRow = { id: number; descriptions_status: 'desc_in_progress' | 'desc_all_completed' };

/** The screening of the provider's id, locked until the transaction ends: calls about one screening take turns. */
export async function lockScreening(trx: Knex.Transaction, externalId: string): Promise<ScreeningRow | undefined> {
  return trx('screenings').where('external_id', externalId).forUpdate().first<ScreeningRow | undefined>('id', 'descriptions_status');
}

export type ScreeningFields = {
  personal_data_id: number;
  examined_at: string;
  absorbed_dose_mgy: number | null;
  facility: string | null;
  accession_number: string | null;
};

/** Inserts unless the provider's id is already there (a retry that raced this one); the new id, or undefined. */
export async function insertScreening(
  trx: Knex.Transaction,
  externalId: string,
  fields: ScreeningFields & { access_code_hash: Buffer },
): Promise<number | undefined> {
  const [row] = await trx('screenings')
    .insert({ external_id: externalId, ...fields })
    .onConflict('external_id')
    .ignore()
    .returning('id');
  return row?.id as number | undefined;
}

export async function updateScreening(
  trx: Knex.Transaction,
  id: number,
  fields: ScreeningFields & { access_code_hash?: Buffer; descriptions_status?: ScreeningRow['descriptions_status'] },
): Promise<void> {
  await trx('screenings').where('id', id).update(fields);
}

export async function setDescriptionsStatus(trx: Knex.Transaction, id: number, status: ScreeningRow['descriptions_status']): Promise<void> {
  await trx('screenings').where('id', id).update({ descriptions_status: status });
}

export async function accessCodeHashTaken(trx: Knex.Transaction, hash: Buffer): Promise<boolean> {
  return (await trx('screenings').where('access_code_hash', hash).first('id')) !== undefined;
}

/** The description row that holds the screening's result: its first (spec: the Polish one, written first). */
export async function firstDescriptionId(trx: Knex.Transaction, screeningId: number): Promise<number | undefined> {
  const row = await trx('screening_descriptions').where('screening_id', screeningId).orderBy('id').first('id');
  return row?.id as number | undefined;
}

export async function insertDescription(
  trx: Knex.Transaction,
  row: { screening_id: number; language: DocumentLanguage; document_id?: string | null; birads?: number | null; signed_at?: string | null },
): Promise<number> {
  const [inserted] = await trx('screening_descriptions').insert(row).returning('id');
  return inserted.id as number;
}

export async function updateDescriptionResult(
  trx: Knex.Transaction,
  id: number,
  result: { birads: number | null; signed_at: string | null },
) {
  await trx('screening_descriptions').where('id', id).update(result);
}

/** The first description row of a language, with the document it holds. */
export async function descriptionOfLanguage(
  trx: Knex.Transaction,
  screeningId: number,
  language: DocumentLanguage,
): Promise<{ id: number; document_id: string | null } | undefined> {
  return trx('screening_descriptions')
    .where({ screening_id: screeningId, language })
    .orderBy('id')
    .first<{ id: number; document_id: string | null } | undefined>('id', 'document_id');
}

export async function linkDescription(trx: Knex.Transaction, descriptionId: number, documentId: string): Promise<void> {
  await trx('screening_descriptions').where('id', descriptionId).update({ document_id: documentId });
}

export async function unlinkDescriptions(trx: Knex.Transaction, documentId: string): Promise<void> {
  await trx('screening_descriptions').where('document_id', documentId).update({ document_id: null });
}

export type DocumentRow = {
  id: string;
  screening_id: number;
  external_id: string | null;
  kind: DocumentKind;
  language: DocumentLanguage | null;
  name: string;
  size_bytes: number;
  sha256: Buffer;
};

const DOCUMENT_COLUMNS = ['id', 'screening_id', 'external_id', 'kind', 'language', 'name', 'size_bytes', 'sha256'];

export async function findDocument(trx: Knex.Transaction, externalId: string): Promise<DocumentRow | undefined> {
  return trx('screening_documents').where('external_id', externalId).forUpdate().first<DocumentRow | undefined>(DOCUMENT_COLUMNS);
}

/** Another document of the screening of this kind and language (one of each per screening). */
export async function otherDocumentOfKind(
  trx: Knex.Transaction,
  screeningId: number,
  kind: DocumentKind,
  language: DocumentLanguage,
  exceptId: string | null,
): Promise<{ external_id: string | null } | undefined> {
  const query = trx('screening_documents').where({ screening_id: screeningId, kind });
  if (kind === 'description') query.where('language', language);
  if (exceptId) query.whereNot('id', exceptId);
  return query.first<{ external_id: string | null } | undefined>('external_id');
}

export type DocumentFields = { kind: DocumentKind; language: DocumentLanguage; name: string; size_bytes: number; sha256: Buffer };

/** A new document whose bytes are the stored file `storageKey`. */
export async function insertDocument(
  trx: Knex.Transaction,
  screeningId: number,
  externalId: string,
  fields: DocumentFields,
  storageKey: string,
): Promise<DocumentRow> {
  const [row] = await trx('screening_documents')
    .insert({ screening_id: screeningId, external_id: externalId, ...fields })
    .returning<DocumentRow[]>(DOCUMENT_COLUMNS);
  await trx('document_contents').insert({ document_id: row!.id, storage_key: storageKey });
  return row!;
}

/** New bytes (the stored file `storageKey`) for a document; answers the key of the file it had, for the caller to remove once committed. */
export async function replaceDocument(
  trx: Knex.Transaction,
  id: string,
  fields: DocumentFields,
  storageKey: string,
): Promise<{ row: DocumentRow; previousKey: string | null }> {
  const [row] = await trx('screening_documents').where('id', id).update(fields).returning<DocumentRow[]>(DOCUMENT_COLUMNS);
  const before = await trx('document_contents').where('document_id', id).forUpdate().first('storage_key');
  await trx('document_contents')
    .insert({ document_id: id, storage_key: storageKey, content: null })
    .onConflict('document_id')
    .merge(['storage_key', 'content']);
  return { row: row!, previousKey: before?.storage_key ?? null };
}

export type ScreeningView = {
  id: number;
  external_id: string;
  patient_external_id: string | null;
  examined_at: Date;
  absorbed_dose_mgy: number | null;
  facility: string | null;
  accession_number: string | null;
  descriptions_status: ScreeningRow['descriptions_status'];
  birads: number | null;
  signed_at: Date | null;
};

/** A screening as the provider reads it back: never its access code (only a hash is stored anyway). */
export async function screeningView(
  db: Db | Knex.Transaction,
  externalId: string,
): Promise<{ screening: ScreeningView; documents: DocumentRow[] } | undefined> {
  const screening = await db('screenings as s')
    .join('personal_data as p', 'p.id', 's.personal_data_id')
    .where('s.external_id', externalId)
    .first<ScreeningView | undefined>(
      's.id',
      's.external_id',
      'p.external_id as patient_external_id',
      's.examined_at',
      's.absorbed_dose_mgy',
      's.facility',
      's.accession_number',
      's.descriptions_status',
      db.raw('(SELECT d.birads FROM screening_descriptions d WHERE d.screening_id = s.id ORDER BY d.id LIMIT 1) AS birads'),
      db.raw('(SELECT d.signed_at FROM screening_descriptions d WHERE d.screening_id = s.id ORDER BY d.id LIMIT 1) AS signed_at'),
    );
  if (!screening) return undefined;
  const documents = await db('screening_documents')
    .where('screening_id', screening.id)
    .orderBy([{ column: 'kind' }, { column: 'created_at' }, { column: 'id' }])
    .select<DocumentRow[]>(DOCUMENT_COLUMNS);
  return { screening, documents };
}
