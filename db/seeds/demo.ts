import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { loadLocalityRegister } from '../../server/geography/register-loader';
import type { Config } from '../../server/config';
import { hashAccessCode } from '../../server/lib/access-code';
import { hashPassword } from '../../server/lib/passwords';
import { BANNERS, PRODUCTS } from './catalog';
import { consultationSlots } from './consultation-slots';
import { renderInstructions, renderScreeningDocuments, type RenderedDocument, type RenderedInstruction } from './demo-documents';
import { insertDemoDicom, writeDemoDicom } from './demo-dicom';
import { insertDemoOrders } from './demo-orders';
import { ANNA, DEMO_PATIENTS, type DemoPatient, type DemoScreening } from './demo-people';

export class DemoDataRefusedError extends Error {}

/** Anna's account exists exactly when the demo data is in place. */
const MARKER_EMAIL = ANNA.account!.email;

type PreparedScreening = { screening: DemoScreening; accessCodeHash: Buffer; documents: RenderedDocument[] };
type PreparedPatient = { patient: DemoPatient; passwordHash: string | null; screenings: PreparedScreening[] };
type RenderedDemo = { instructions: RenderedInstruction[]; documents: Map<DemoScreening, RenderedDocument[]> };

/**
 * Loads the fixed demo data (README: demo credentials) once: a second call finds Anna's account
 * and changes nothing. Everything is written in one transaction, so a crash leaves no half-seeded
 * database behind. The slow work (PDFs, password hashes) happens before the transaction opens.
 * `now` only places the consultation slots, which must lie in the future.
 */
export async function seedDemoData(db: Knex, config: Config, now: Date = new Date()): Promise<void> {
  if (config.isProduction) {
    throw new DemoDataRefusedError('Demo data is never loaded in production (NODE_ENV=production).');
  }
  if (await isSeeded(db)) return;
  // Anna's order sent by post names a place of the register.
  await loadLocalityRegister(db);
  const patients = await preparePatients(config);
  const { instructions } = await renderDemo(config.provider);
  const dicom = await writeDemoDicom(config);
  await db.transaction(async (trx) => {
    // A second process seeding at the same time waits here, then finds the marker and stops.
    await trx.raw('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
    if (await isSeeded(trx)) return;
    await insertCatalog(trx, now);
    await insertInstructions(trx, instructions);
    for (const patient of patients) await insertPatient(trx, patient);
    await insertDemoOrders(trx, config, now);
    await insertDemoDicom(trx, dicom);
  });
}

async function isSeeded(db: Knex): Promise<boolean> {
  return Boolean(await db('users').whereRaw('lower(email) = ?', [MARKER_EMAIL]).first('id'));
}

/** PDFs depend only on the provider's details, so a process that seeds again reuses them. */
const renderedByProvider = new Map<string, Promise<RenderedDemo>>();

function renderDemo(provider: Config['provider']): Promise<RenderedDemo> {
  const key = JSON.stringify(provider);
  let rendered = renderedByProvider.get(key);
  if (!rendered) {
    rendered = (async () => {
      const documents = new Map<DemoScreening, RenderedDocument[]>();
      for (const patient of DEMO_PATIENTS) {
        for (const screening of patient.screenings) documents.set(screening, await renderScreeningDocuments(provider, patient, screening));
      }
      return { instructions: await renderInstructions(provider), documents };
    })();
    rendered.catch(() => renderedByProvider.delete(key));
    renderedByProvider.set(key, rendered);
  }
  return rendered;
}

async function preparePatients(config: Config): Promise<PreparedPatient[]> {
  const { documents } = await renderDemo(config.provider);
  return Promise.all(
    DEMO_PATIENTS.map(async (patient) => ({
      patient,
      // The browser sends SHA-256 hex of what the user typed; that hex is what argon2id hashes.
      passwordHash: patient.account ? await hashPassword(sha256Hex(patient.account.password)) : null,
      screenings: patient.screenings.map((screening) => ({
        screening,
        accessCodeHash: hashAccessCode(config.accessCodeSecret, screening.accessCode),
        documents: documents.get(screening) ?? [],
      })),
    })),
  );
}

async function insertCatalog(trx: Knex.Transaction, now: Date): Promise<void> {
  await trx('products')
    .insert(PRODUCTS.map((product) => ({ ...product })))
    .onConflict('code')
    .ignore();
  if (!(await trx('banners').first('id'))) await trx('banners').insert(BANNERS.map((banner) => ({ ...banner })));
  await trx('consultation_slots').insert(consultationSlots(now)).onConflict(['radiologist_name', 'starts_at']).ignore();
}

async function insertInstructions(trx: Knex.Transaction, instructions: RenderedInstruction[]): Promise<void> {
  const rows = instructions.map(({ type, language, name, bytes }) => ({ type, language, name, content: Buffer.from(bytes) }));
  await trx('instructions').insert(rows).onConflict(['type', 'language']).ignore();
}

async function insertPatient(trx: Knex.Transaction, { patient, passwordHash, screenings }: PreparedPatient): Promise<void> {
  const [personalData] = await trx('personal_data')
    .insert({
      first_name: patient.firstName,
      last_name: patient.lastName,
      birth_at: patient.birthAt,
      pesel: patient.pesel,
      email: patient.email,
      phone_number: patient.phoneNumber,
    })
    .returning('id');
  if (patient.account && passwordHash) {
    await trx('users').insert({
      personal_data_id: personalData.id,
      email: patient.account.email,
      password_hash: passwordHash,
      require_password_change: patient.account.requirePasswordChange,
    });
  }
  for (const prepared of screenings) await insertScreening(trx, personalData.id, prepared);
}

async function insertScreening(trx: Knex.Transaction, personalDataId: number, prepared: PreparedScreening): Promise<void> {
  const { screening, accessCodeHash, documents } = prepared;
  const [row] = await trx('screenings')
    .insert({
      personal_data_id: personalDataId,
      access_code_hash: accessCodeHash,
      examined_at: screening.examinedAt,
      absorbed_dose_mgy: screening.absorbedDoseMgy,
      descriptions_status: screening.report ? 'desc_all_completed' : 'desc_in_progress',
      created_at: screening.examinedAt,
    })
    .returning('id');
  const signedAt = screening.report?.signedAt;
  // In order: the Polish description's row comes first and carries the result ("wynik").
  for (const document of documents) {
    const documentId = await insertDocument(trx, row.id, document, signedAt ?? screening.examinedAt);
    if (document.kind === 'description') {
      await trx('screening_descriptions').insert({
        screening_id: row.id,
        document_id: documentId,
        language: document.language,
        birads: screening.report!.birads,
        signed_at: signedAt,
        created_at: signedAt,
      });
    }
  }
}

async function insertDocument(trx: Knex.Transaction, screeningId: number, document: RenderedDocument, createdAt: string): Promise<string> {
  const content = Buffer.from(document.bytes);
  const [row] = await trx('screening_documents')
    .insert({
      screening_id: screeningId,
      kind: document.kind,
      language: document.language,
      name: document.name,
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest(),
      created_at: createdAt,
    })
    .returning('id');
  await trx('document_contents').insert({ document_id: row.id, content });
  return row.id;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
