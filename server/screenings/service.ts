import type {
  ReferralListResponse,
  ScreeningListItem,
  ScreeningListResponse,
  ScreeningOrder,
} from '../../common/types/screenings';
import { writeAudit, type AuditType } from '../lib/audit';
import { refuse, type RequestContext } from '../result/ownership';
import { listViewableDocumentsOf, screeningsWithDocumentOfKind } from '../result/repo';
import { findOrders, findReferrals, findScreenings, type DayRange, type OrderRow, type ScreeningFilter } from './repo';

/**
 * The account behind a list call. The lists belong to patient-portal users (DECISIONS.md 4): a
 * result-portal session is told "not found" and the attempt lands in its own log.
 */
export async function patientIdOf(context: RequestContext, refusal: AuditType, description: string): Promise<number> {
  if (context.caller.kind === 'guest') return refuse(context, refusal, description);
  return context.caller.userId;
}

function screeningOrder(row: OrderRow): ScreeningOrder {
  return {
    id: row.id,
    done: row.done,
    payment: row.paymentId === null || row.paymentStatus === null ? null : { id: row.paymentId, status: row.paymentStatus },
    shipmentStatus: row.shipmentStatus,
    productCode: row.productCode,
  };
}

/** `GET /api/screenings`: her screenings that pass the filters, newest first, audited as SCREENING. */
export async function screeningListFor(context: RequestContext, userId: number, filter: ScreeningFilter): Promise<ScreeningListResponse> {
  const { db } = context;
  const screenings = await findScreenings(db, userId, filter);
  const ids = screenings.map((screening) => screening.id);
  const [documents, withFacilitiesList, orders] = await Promise.all([
    listViewableDocumentsOf(db, ids),
    screeningsWithDocumentOfKind(db, ids, 'facilities_list'),
    findOrders(db, userId, ids),
  ]);
  await writeAudit(db, { type: 'SCREENING', ip: context.ip, description: 'screenings list', userId });
  const items = screenings.map(
    (row): ScreeningListItem => ({
      screening: {
        id: row.id,
        createdAt: row.examinedAt.toISOString(),
        screeningDescriptionsStatus: row.descriptionsStatus,
        absorbedDose: row.absorbedDoseMgy,
        result: row.birads,
        signed: row.signedAt !== null,
        signedAt: row.signedAt?.toISOString() ?? null,
      },
      documents: documents.get(row.id) ?? [],
      hasFacilitiesList: withFacilitiesList.has(row.id),
      orders: orders.filter((order) => order.screeningId === row.id).map(screeningOrder),
    }),
  );
  return { items };
}

/** `GET /api/screenings/referrals`: her referrals by the day of the examination, audited as REFFERENCE. */
export async function referralListFor(context: RequestContext, userId: number, range: DayRange): Promise<ReferralListResponse> {
  const referrals = await findReferrals(context.db, userId, range);
  await writeAudit(context.db, { type: 'REFFERENCE', ip: context.ip, description: 'referrals list', userId });
  return {
    items: referrals.map((row) => ({
      screeningId: row.screeningId,
      createdAt: row.examinedAt.toISOString(),
      documentId: row.documentId,
      name: row.name,
    })),
  };
}
