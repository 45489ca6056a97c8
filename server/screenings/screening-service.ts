import type { IsoStatus, ScreeningResult } from '../../common/types/result';
import type { ScreeningInfo } from '../../common/types/session';
import type { Db } from '../db';
import type { FileStorage } from '../lib/storage';
import { auditOwnerOf, writeAudit } from '../lib/audit';
import { notFound } from '../lib/errors';
import type { RequestContext } from '../lib/principal';
import { listViewableDocuments, hasDocumentOfKind } from './documents-repo';
import { ownedScreeningId, refuse } from './ownership';
import { findLatestPatientScreening, findPatientScreening, findResult, findScreeningInfo } from './screening-repo';

export type ScreeningDeps = {
  db: Db;
  /** Where the documents' PDFs are stored. */
  storage: FileStorage;
  /** The disc image's status, from the ISO area: this area shows it but does not depend on it. */
  isoStatusOf(screeningId: number): Promise<IsoStatus>;
};

export function createScreeningService({ db, isoStatusOf }: ScreeningDeps) {
  return {
    /**
     * `GET /api/screening`: a guest sees the one screening its code opened; a patient any of her
     * own, the latest when no id is given. Asking for anyone else's id is answered "not found"
     * whether or not it exists, and lands in the caller's own audit log (DECISIONS.md 4).
     */
    async info(context: RequestContext, requestedId: number | undefined): Promise<ScreeningInfo> {
      const { caller } = context;
      let screening: ScreeningInfo | undefined;
      if (caller.kind === 'guest') {
        if (requestedId !== undefined && requestedId !== caller.screeningId) {
          await refuse(db, context, 'SCREENING_UNAUTHORIZED', `screening ${requestedId}`);
        }
        screening = await findScreeningInfo(db, caller.screeningId);
      } else if (requestedId === undefined) {
        screening = await findLatestPatientScreening(db, caller.userId);
      } else {
        screening = await findPatientScreening(db, caller.userId, requestedId);
        if (!screening) await refuse(db, context, 'SCREENING_UNAUTHORIZED', `screening ${requestedId}`);
      }
      if (!screening) throw notFound();
      return screening;
    },

    /** `GET /api/screening/result`: everything the result page shows, audited as RESULT. */
    async result(context: RequestContext, requestedId: number | undefined): Promise<ScreeningResult> {
      const screeningId = await ownedScreeningId(db, context, requestedId, 'RESULT_UNAUTHORIZED');
      const row = await findResult(db, screeningId);
      if (!row) throw notFound();
      const [documents, hasFacilitiesList, isoStatus] = await Promise.all([
        listViewableDocuments(db, screeningId),
        hasDocumentOfKind(db, screeningId, 'facilities_list'),
        isoStatusOf(screeningId),
      ]);
      await writeAudit(db, { type: 'RESULT', ip: context.ip, description: `screening ${screeningId}`, ...auditOwnerOf(context.caller) });
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
        iso: { status: isoStatus },
        survey: { submitted: row.surveySubmittedAt !== null },
      };
    },
  };
}
