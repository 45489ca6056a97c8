import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { DOCUMENT_NAMES } from '../../db/seeds/demo-documents';
import type { Config } from '../config';
import type { Db } from '../db';
import type { FileStorage } from '../lib/storage';
import { storeDocumentBytes } from '../screenings/document-files';
import { hashAccessCode } from '../lib/access-code';
import type { Clock } from '../lib/clock';
import { AppError, notFound } from '../lib/errors';
import { errorForLog, type Logger } from '../lib/logger';
import { generateAccessCode } from './access-code';
import * as repo from './repo';
import type {
  DocumentAnswer,
  DocumentKind,
  DocumentLanguage,
  PatientAnswer,
  PatientInput,
  ResultInput,
  ScreeningAnswer,
  ScreeningInput,
} from './schemas';

export type IntakeDeps = {
  db: Db;
  /** Where the documents' PDFs are stored. */
  storage: FileStorage;
  clock: Clock;
  config: Pick<Config, 'accessCodeSecret'>;
  logger?: Logger;
  /**
   * Called once a screening's descriptions become completed, after the change is committed (the
   * notices area sends the "result ready" notice). Not called again while it stays completed.
   */
  onResultReady?: (screeningId: number) => Promise<void>;
};

/** How many generated codes to try before giving up on a free one (a clash is about 1 in 10^13 per screening). */
const CODE_ATTEMPTS = 5;

function validation(path: string, message: string, status = 400): AppError {
  return new AppError(status, 'VALIDATION', { issues: [{ path, message }] });
}

function conflict(field: string, message: string): AppError {
  return new AppError(409, 'CONFLICT', { field, message });
}

const STATUS_TO_DB = { in_progress: 'desc_in_progress', completed: 'desc_all_completed' } as const;

function patientAnswerOf(row: repo.PatientRow): PatientAnswer {
  return {
    id: row.id,
    externalId: row.external_id,
    firstName: row.first_name,
    lastName: row.last_name,
    birthAt: row.birth_at,
    pesel: row.pesel,
    email: row.email,
    phoneNumber: row.phone_number,
  };
}

function documentAnswerOf(row: repo.DocumentRow): DocumentAnswer {
  return {
    id: row.id,
    externalId: row.external_id,
    kind: row.kind,
    language: row.language ?? 'pl',
    name: row.name,
    sizeBytes: row.size_bytes,
    sha256: row.sha256.toString('hex'),
  };
}

function screeningAnswerOf({ screening, documents }: { screening: repo.ScreeningView; documents: repo.DocumentRow[] }): ScreeningAnswer {
  return {
    id: screening.id,
    externalId: screening.external_id,
    patientExternalId: screening.patient_external_id,
    examinedAt: new Date(screening.examined_at).toISOString(),
    absorbedDoseMgy: screening.absorbed_dose_mgy,
    facility: screening.facility,
    accessionNumber: screening.accession_number,
    descriptionsStatus: screening.descriptions_status === 'desc_all_completed' ? 'completed' : 'in_progress',
    birads: screening.birads,
    signedAt: screening.signed_at ? new Date(screening.signed_at).toISOString() : null,
    documents: documents.map(documentAnswerOf),
  };
}

/** Whether the bytes are a PDF: its header, and a document of at least one page that pdf-lib can open. */
async function isPdf(bytes: Buffer): Promise<boolean> {
  if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) return false;
  try {
    const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
    // pdf-lib opens almost anything that starts like a PDF; a document without a page is not one.
    return pdf.getPageCount() > 0;
  } catch {
    return false;
  }
}

function documentName(kind: DocumentKind, language: DocumentLanguage): string {
  return kind === 'description' ? DOCUMENT_NAMES.description[language] : DOCUMENT_NAMES[kind];
}

/**
 * What the provider's systems send (the RIS, or the staff command line's bundle import):
 * patients, screenings with their access codes, results and documents, each upserted by the
 * provider's own id, so a retried call changes nothing and never makes a second row.
 */
export function createIntakeService(deps: IntakeDeps) {
  const { db, clock, config } = deps;

  async function readScreening(externalId: string): Promise<ScreeningAnswer> {
    const view = await repo.screeningView(db, externalId);
    if (!view) throw notFound();
    return screeningAnswerOf(view);
  }

  return {
    async upsertPatient(externalId: string, input: PatientInput): Promise<{ created: boolean; patient: PatientAnswer }> {
      const today = new Date(clock()).toISOString().slice(0, 10);
      if (input.birthAt >= today) throw validation('birthAt', 'The date of birth must be in the past.');
      try {
        const { row, created } = await repo.upsertPatient(db, externalId, {
          first_name: input.firstName,
          last_name: input.lastName,
          birth_at: input.birthAt,
          pesel: input.pesel ?? null,
          email: input.email ?? null,
          phone_number: input.phoneNumber ?? null,
        });
        return { created, patient: patientAnswerOf(row) };
      } catch (error) {
        if (repo.uniqueViolation(error) === 'personal_data_pesel_key') throw conflict('pesel', 'Another patient has this PESEL.');
        throw error;
      }
    },

    async getPatient(externalId: string): Promise<PatientAnswer> {
      const row = await repo.findPatient(db, externalId);
      if (!row) throw notFound();
      return patientAnswerOf(row);
    },

    /**
     * Creates the screening with an access code (the RIS's own, or a generated one returned here
     * once), or updates it; an update keeps its code unless a new one is sent. Only the code's
     * HMAC is stored.
     */
    async upsertScreening(
      externalId: string,
      input: ScreeningInput,
    ): Promise<{ created: boolean; screening: ScreeningAnswer; accessCode?: string }> {
      try {
        const outcome = await db.transaction(async (trx) => {
          const patient = await repo.findPatient(trx, input.patientExternalId);
          if (!patient) {
            throw validation('patientExternalId', 'No patient has this id: store her first with PUT /patients/{externalId}.', 422);
          }
          const fields: repo.ScreeningFields = {
            personal_data_id: patient.id,
            examined_at: input.examinedAt,
            absorbed_dose_mgy: input.absorbedDoseMgy ?? null,
            facility: input.facility ?? null,
            accession_number: input.accessionNumber ?? null,
          };
          const suppliedHash = input.accessCode === undefined ? undefined : hashAccessCode(config.accessCodeSecret, input.accessCode);

          const existing = await repo.lockScreening(trx, externalId);
          if (!existing) {
            let generated: string | undefined;
            let hash = suppliedHash;
            for (let attempt = 0; !hash; attempt += 1) {
              if (attempt === CODE_ATTEMPTS) throw new Error('no free access code found');
              const candidate = generateAccessCode();
              const candidateHash = hashAccessCode(config.accessCodeSecret, candidate);
              if (!(await repo.accessCodeHashTaken(trx, candidateHash))) [generated, hash] = [candidate, candidateHash];
            }
            const id = await repo.insertScreening(trx, externalId, { ...fields, access_code_hash: hash });
            if (id !== undefined) return { created: true, accessCode: generated };
            // A retry of this very call committed first: this one is an update of it.
            const raced = await repo.lockScreening(trx, externalId);
            await repo.updateScreening(trx, raced!.id, { ...fields, ...(suppliedHash && { access_code_hash: suppliedHash }) });
            return { created: false };
          }
          await repo.updateScreening(trx, existing.id, { ...fields, ...(suppliedHash && { access_code_hash: suppliedHash }) });
          return { created: false };
        });
        return { ...outcome, screening: await readScreening(externalId) };
      } catch (error) {
        const constraint = repo.uniqueViolation(error);
        if (constraint === 'screenings_accession_number_key')
          throw conflict('accessionNumber', 'Another screening has this accession number.');
        if (constraint === 'screenings_access_code_hash_key') throw conflict('accessCode', 'Another screening has this access code.');
        throw error;
      }
    },

    getScreening: readScreening,

    /**
     * The radiologists' result, kept on the screening's first description row (the one the
     * result page reads). When the descriptions become completed, `onResultReady` is called once
     * the change is committed; a retry finds them completed already and calls nothing.
     */
    async setResult(externalId: string, input: ResultInput): Promise<ScreeningAnswer> {
      const { screeningId, becameCompleted } = await db.transaction(async (trx) => {
        const screening = await repo.lockScreening(trx, externalId);
        if (!screening) throw notFound();
        const result = { birads: input.birads ?? null, signed_at: input.signedAt ?? null };
        const firstId = await repo.firstDescriptionId(trx, screening.id);
        if (firstId === undefined) await repo.insertDescription(trx, { screening_id: screening.id, language: 'pl', ...result });
        else await repo.updateDescriptionResult(trx, firstId, result);
        const status = STATUS_TO_DB[input.descriptionsStatus];
        await repo.setDescriptionsStatus(trx, screening.id, status);
        return {
          screeningId: screening.id,
          becameCompleted: status === 'desc_all_completed' && screening.descriptions_status !== 'desc_all_completed',
        };
      });
      if (becameCompleted && deps.onResultReady) {
        // The result is stored: a failing notice must not make the RIS retry a call that succeeded.
        await deps.onResultReady(screeningId).catch((error: unknown) => {
          deps.logger?.error({ err: errorForLog(error), screeningId }, 'result ready notice failed');
        });
      }
      return readScreening(externalId);
    },

    /**
     * Stores a PDF of the screening by the provider's document id: the bytes as a stored file,
     * then the metadata in one transaction, a description linked to the description row of its
     * language. The same id again replaces the bytes; the same bytes change nothing.
     */
    async putDocument(
      screeningExternalId: string,
      documentExternalId: string,
      target: { kind: DocumentKind; language: DocumentLanguage },
      bytes: Buffer,
    ): Promise<{ created: boolean; document: DocumentAnswer }> {
      if (!(await isPdf(bytes))) throw new AppError(422, 'NOT_A_PDF');
      const { kind, language } = target;
      const fields: repo.DocumentFields = {
        kind,
        language,
        name: documentName(kind, language),
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest(),
      };
      // The bytes go into the store before the transaction that names them; a file it ends up not
      // naming (the same bytes again, a refusal, a failure) is removed again.
      const storageKey = await storeDocumentBytes(deps.storage, bytes);
      let named = false;
      let previousKey: string | null = null;
      let answer: { created: boolean; document: DocumentAnswer };
      try {
        answer = await db.transaction(async (trx) => {
          const screening = await repo.lockScreening(trx, screeningExternalId);
          if (!screening) throw notFound();
          const existing = await repo.findDocument(trx, documentExternalId);
          if (existing && existing.screening_id !== screening.id) {
            throw conflict('documentExternalId', 'Another screening has a document with this id.');
          }
          if (
            existing &&
            existing.kind === kind &&
            (existing.language ?? 'pl') === language &&
            existing.sha256.equals(fields.sha256) &&
            existing.name === fields.name
          ) {
            return { created: false, document: documentAnswerOf(existing) };
          }
          const other = await repo.otherDocumentOfKind(trx, screening.id, kind, language, existing?.id ?? null);
          if (other) {
            const what = kind === 'description' ? `a description in ${language}` : `a ${kind.replace('_', ' ')}`;
            throw conflict('documentExternalId', `The screening has ${what} already, under another document id.`);
          }
          let row: repo.DocumentRow;
          if (existing) {
            if (existing.kind !== kind || existing.language !== language) await repo.unlinkDescriptions(trx, existing.id);
            ({ row, previousKey } = await repo.replaceDocument(trx, existing.id, fields, storageKey));
          } else {
            row = await repo.insertDocument(trx, screening.id, documentExternalId, fields, storageKey);
          }
          named = true;
          if (kind === 'description') {
            const description = await repo.descriptionOfLanguage(trx, screening.id, language);
            if (!description) await repo.insertDescription(trx, { screening_id: screening.id, language, document_id: row.id });
            else if (description.document_id !== row.id) await repo.linkDescription(trx, description.id, row.id);
          }
          return { created: !existing, document: documentAnswerOf(row) };
        });
      } catch (error) {
        await deps.storage.remove(storageKey);
        const constraint = repo.uniqueViolation(error);
        if (constraint === 'screening_documents_external_id_key') {
          throw conflict('documentExternalId', 'Another screening has a document with this id.');
        }
        if (constraint === 'screening_documents_one_referral' || constraint === 'screening_documents_one_facilities_list') {
          throw conflict('documentExternalId', `The screening has a ${kind.replace('_', ' ')} already, under another document id.`);
        }
        throw error;
      }
      if (!named) await deps.storage.remove(storageKey);
      if (previousKey) await deps.storage.remove(previousKey);
      return answer;
    },
  };
}
