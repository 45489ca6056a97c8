import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Db } from '../../server/db';

/** A one-page PDF whose text `pdftotext` reads back, so a test can tell which file it got. */
export async function textPdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([300, 200]).drawText(text, { x: 20, y: 150, size: 12, font });
  return Buffer.from(await pdf.save());
}

export type DocumentInput = {
  kind: 'description' | 'referral' | 'facilities_list';
  language: 'pl' | 'en' | 'de' | null;
  name: string;
  text: string;
};

/**
 * A PDF of a screening with its bytes in the database, as documents were stored before migration 011
 * (the hourly job moves them into the file store; reads take either). Returns the document id.
 */
export async function insertDocument(db: Db, screeningId: number, document: DocumentInput): Promise<string> {
  const content = await textPdf(document.text);
  const [row] = await db('screening_documents')
    .insert({
      screening_id: screeningId,
      kind: document.kind,
      language: document.language,
      name: document.name,
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest(),
    })
    .returning('id');
  await db('document_contents').insert({ document_id: row.id, content });
  return row.id;
}

/** A radiologist's description row; the first one written holds the screening's result. */
export async function insertDescription(
  db: Db,
  screeningId: number,
  description: { documentId: string | null; language: 'pl' | 'en' | 'de'; birads: number | null; signedAt: string | null },
): Promise<void> {
  await db('screening_descriptions').insert({
    screening_id: screeningId,
    document_id: description.documentId,
    language: description.language,
    birads: description.birads,
    signed_at: description.signedAt,
  });
}

/**
 * A described screening as the result page shows it: Polish, English and German descriptions,
 * a referral and the facilities list that comes with it. Returns the document ids.
 */
export async function insertDescribedScreeningDocuments(db: Db, screeningId: number, birads: number | null, signedAt: string) {
  const descriptionPl = await insertDocument(db, screeningId, {
    kind: 'description',
    language: 'pl',
    name: 'Opis badania.pdf',
    text: 'Opis badania PL',
  });
  const descriptionEn = await insertDocument(db, screeningId, {
    kind: 'description',
    language: 'en',
    name: 'Opis badania EN.pdf',
    text: 'Screening description EN',
  });
  const descriptionDe = await insertDocument(db, screeningId, {
    kind: 'description',
    language: 'de',
    name: 'Opis badania DE.pdf',
    text: 'Befund DE',
  });
  for (const [documentId, language] of [
    [descriptionPl, 'pl'],
    [descriptionEn, 'en'],
    [descriptionDe, 'de'],
  ] as const) {
    await insertDescription(db, screeningId, { documentId, language, birads, signedAt });
  }
  const referral = await insertDocument(db, screeningId, {
    kind: 'referral',
    language: 'pl',
    name: 'Skierowanie.pdf',
    text: 'Skierowanie na badanie',
  });
  const facilitiesList = await insertDocument(db, screeningId, {
    kind: 'facilities_list',
    language: 'pl',
    name: 'Wykaz placówek.pdf',
    text: 'Wykaz placowek',
  });
  await db('screenings').where('id', screeningId).update({ descriptions_status: 'desc_all_completed' });
  return { descriptionPl, descriptionEn, descriptionDe, referral, facilitiesList };
}
