import type { Db } from '../db';
import type { FileStorage } from '../lib/storage';
import { auditOwnerOf, writeAudit } from '../lib/audit';
import { notFound } from '../lib/errors';
import type { UserLanguage } from '../lib/parse';
import type { RequestContext } from '../lib/principal';
import { readDocumentBytes } from './document-files';
import { findDocument, findDocumentOfKind, hasDocumentOfKind, type StoredDocument } from './documents-repo';
import { downloadName } from './download-names';
import { isOwnedBy, ownedScreeningId, refuse } from './ownership';

export type PdfFile = { bytes: Buffer; fileName: string };

/** The PDFs of a screening: its descriptions, the referral and the facilities list that comes with it. */
export function createScreeningDocumentsService({ db, storage }: { db: Db; storage: FileStorage }) {
  async function filePdf(context: RequestContext, document: StoredDocument, language: UserLanguage): Promise<PdfFile> {
    const bytes = await readDocumentBytes(db, storage, document.id);
    if (!bytes) throw notFound();
    await writeAudit(db, {
      type: document.kind === 'description' ? 'RESULT' : 'REFFERENCE',
      ip: context.ip,
      description: `${document.kind} ${document.id}`,
      ...auditOwnerOf(context.caller),
    });
    return { bytes, fileName: downloadName(document.kind, document.language, document.examinedAt, language) };
  }

  return {
    /**
     * `GET /api/screening/download-result`: a description or the referral of an owned screening.
     * The facilities list has its own call. An unknown document is refused like a result (its
     * kind is unknown, and the result page is where the id came from).
     */
    async download(context: RequestContext, documentId: string, screeningId: number | undefined, language: UserLanguage): Promise<PdfFile> {
      const document = await findDocument(db, documentId);
      const refusalType = document?.kind === 'referral' ? 'REFFERENCE_UNAUTHORIZED' : 'RESULT_UNAUTHORIZED';
      const owned =
        document !== undefined &&
        document.kind !== 'facilities_list' &&
        (screeningId === undefined || screeningId === document.screeningId) &&
        (await isOwnedBy(db, context, document.screeningId));
      if (!owned) return refuse(db, context, refusalType, `document ${documentId}`);
      return filePdf(context, document, language);
    },

    /**
     * The referral (`GET /api/screening/referral`) or the facilities list that comes with it
     * (`GET /api/screening/download-wykaz`), both audited as REFFERENCE.
     */
    async referral(
      context: RequestContext,
      requestedId: number | undefined,
      kind: 'referral' | 'facilities_list',
      language: UserLanguage,
    ): Promise<PdfFile> {
      const screeningId = await ownedScreeningId(db, context, requestedId, 'REFFERENCE_UNAUTHORIZED');
      const document = await findDocumentOfKind(db, screeningId, kind);
      if (!document) throw notFound();
      return filePdf(context, document, language);
    },

    /** `GET /api/screening/{id}/referral/exists`. */
    async referralExists(context: RequestContext, screeningId: number): Promise<boolean> {
      const owned = await ownedScreeningId(db, context, screeningId, 'REFFERENCE_UNAUTHORIZED');
      return hasDocumentOfKind(db, owned, 'referral');
    },
  };
}
