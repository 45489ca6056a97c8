import { notFound } from '../lib/errors';
import { writeAudit } from '../lib/audit';
import { isoApiStatus, type IsoApiStatus } from '../iso/service';
import { findPatientScreening } from '../screening/repo';
import { downloadName, type UserLanguage } from './download-names';
import { auditOwnerOf, ownedScreeningId, refuse, type RequestContext } from './ownership';
import {
  findDocument,
  findDocumentOfKind,
  findIsoState,
  findResult,
  hasDocumentOfKind,
  listViewableDocuments,
  readDocumentContent,
  type DocumentListItem,
  type StoredDocument,
} from './repo';


export type ScreeningResult = {
  screening: {
    id: number;
    examinedAt: string;
    firstName: string;
    lastName: string;
    absorbedDoseMgy: number | null;
    result: number | null;
    descriptionsStatus: 'desc_all_completed' | 'desc_in_progress';
    signedAt: string | null;
  };
  documents: DocumentListItem[];
  hasFacilitiesList: boolean;
  iso: { status: IsoApiStatus };
  survey: { submitted: boolean };
};

export type PdfFile = { bytes: Buffer; fileName: string };

/** `GET /api/screening/result`: everything the result page shows, audited as RESULT. */
export async function resultFor(context: RequestContext, requestedId: number | undefined): Promise<ScreeningResult> {
  const screeningId = await ownedScreeningId(context, requestedId, 'RESULT_UNAUTHORIZED');
  const row = await findResult(context.db, screeningId);
  if (!row) throw notFound();
  const [documents, hasFacilitiesList, iso] = await Promise.all([
    listViewableDocuments(context.db, screeningId),
    hasDocumentOfKind(context.db, screeningId, 'facilities_list'),
    findIsoState(context.db, screeningId),
  ]);
  await writeAudit(context.db, { type: 'RESULT', ip: context.ip, description: `screening ${screeningId}`, ...auditOwnerOf(context.caller) });
  return {
    screening: {
      id: row.id,
      examinedAt: row.examinedAt.toISOString(),
      firstName: row.firstName,
      lastName: row.lastName,
      absorbedDoseMgy: row.absorbedDoseMgy,
      result: row.birads,
      descriptionsStatus: row.descriptionsStatus,
      signedAt: row.signedAt?.toISOString() ?? null,
    },
    documents,
    hasFacilitiesList,
    iso: { status: isoApiStatus(iso.status, iso.hasImages) },
    survey: { submitted: row.surveySubmittedAt !== null },
  };
}

async function isOwnedBy(context: RequestContext, screeningId: number): Promise<boolean> {
  const { caller } = context;
  if (caller.kind === 'guest') return caller.screeningId === screeningId;
  return (await findPatientScreening(context.db, caller.userId, screeningId)) !== undefined;
}

async function filePdf(context: RequestContext, document: StoredDocument, language: UserLanguage): Promise<PdfFile> {
  const bytes = await readDocumentContent(context.db, document.id);
  if (!bytes) throw notFound();
  await writeAudit(context.db, {
    type: document.kind === 'description' ? 'RESULT' : 'REFFERENCE',
    ip: context.ip,
    description: `${document.kind} ${document.id}`,
    ...auditOwnerOf(context.caller),
  });
  return { bytes, fileName: downloadName(document.kind, document.language, document.examinedAt, language) };
}

/**
 * `GET /api/screening/download-result`: a description or the referral of an owned screening. The
 * facilities list has its own call. An unknown document is refused like a result (its kind is
 * unknown, and the result page is where the id came from).
 */
export async function documentDownload(
  context: RequestContext,
  documentId: string,
  screeningId: number | undefined,
  language: UserLanguage,
): Promise<PdfFile> {
  const document = await findDocument(context.db, documentId);
  const refusalType = document?.kind === 'referral' ? 'REFFERENCE_UNAUTHORIZED' : 'RESULT_UNAUTHORIZED';
  const owned =
    document !== undefined &&
    document.kind !== 'facilities_list' &&
    (screeningId === undefined || screeningId === document.screeningId) &&
    (await isOwnedBy(context, document.screeningId));
  if (!owned) return refuse(context, refusalType, `document ${documentId}`);
  return filePdf(context, document, language);
}

/**
 * The referral (`GET /api/screening/referral`) or the facilities list that comes with it
 * (`GET /api/screening/download-wykaz`), both audited as REFFERENCE.
 */
export async function referralDocument(
  context: RequestContext,
  requestedId: number | undefined,
  kind: 'referral' | 'facilities_list',
  language: UserLanguage,
): Promise<PdfFile> {
  const screeningId = await ownedScreeningId(context, requestedId, 'REFFERENCE_UNAUTHORIZED');
  const document = await findDocumentOfKind(context.db, screeningId, kind);
  if (!document) throw notFound();
  return filePdf(context, document, language);
}

/** `GET /api/screening/{id}/referral/exists`. */
export async function referralExists(context: RequestContext, screeningId: number): Promise<boolean> {
  const owned = await ownedScreeningId(context, screeningId, 'REFFERENCE_UNAUTHORIZED');
  return hasDocumentOfKind(context.db, owned, 'referral');
}
