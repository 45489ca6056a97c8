import type { ReferralListResponse, ScreeningListItem, ScreeningListResponse, ScreeningOrder } from '../../common/types/screenings';
import type { Db } from '../db';
import { writeAudit } from '../lib/audit';
import type { RequestContext } from '../lib/principal';
import { listViewableDocumentsOf, screeningsWithDocumentOfKind } from './documents-repo';
import { parseInput, presentQuery } from '../lib/parse';
import { referralListQuerySchema, screeningListQuerySchema } from './list-query';
import { findOrders, findReferrals, findScreenings, type OrderRow } from './list-repo';
import { patientIdOf } from './ownership';

function screeningOrder(row: OrderRow): ScreeningOrder {
  return {
    id: row.id,
    done: row.done,
    payment: row.paymentId === null || row.paymentStatus === null ? null : { id: row.paymentId, status: row.paymentStatus },
    shipmentStatus: row.shipmentStatus,
    productCode: row.productCode,
  };
}

/**
 * `GET /api/screenings`: her screenings that pass the filters, newest first, audited as SCREENING.
 * The lists belong to patient-portal users (DECISIONS.md 4). The caller is refused before the
 * query is read: a guest learns nothing from a validation answer either.
 */
async function screeningList(db: Db, context: RequestContext, query: Record<string, unknown>): Promise<ScreeningListResponse> {
  const userId = await patientIdOf(db, context, 'SCREENING_UNAUTHORIZED', 'screenings list');
  const filter = parseInput(screeningListQuerySchema, presentQuery(query));
  const screenings = await findScreenings(db, userId, filter);
  const ids = screenings.map((screening) => screening.id);
  const [documents, withFacilitiesList, orders] = await Promise.all([
    listViewableDocumentsOf(db, ids),
    screeningsWithDocumentOfKind(db, ids, 'facilities_list'),
    findOrders(db, userId, ids),
  ]);
  await writeAudit(db, { type: 'SCREENING', ip: context.ip, description: 'screenings list', userId });
  const items = screenings.map((row): ScreeningListItem => ({
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
  }));
  return { items };
}

/** `GET /api/screenings/referrals`: her referrals by the day of the examination, audited as REFFERENCE. */
async function referralList(db: Db, context: RequestContext, query: Record<string, unknown>): Promise<ReferralListResponse> {
  const userId = await patientIdOf(db, context, 'REFFERENCE_UNAUTHORIZED', 'referrals list');
  const referrals = await findReferrals(db, userId, parseInput(referralListQuerySchema, presentQuery(query)));
  await writeAudit(db, { type: 'REFFERENCE', ip: context.ip, description: 'referrals list', userId });
  return {
    items: referrals.map((row) => ({
      screeningId: row.screeningId,
      createdAt: row.examinedAt.toISOString(),
      documentId: row.documentId,
      name: row.name,
    })),
  };
}

export function createScreeningListService({ db }: { db: Db }) {
  return {
    screenings: (context: RequestContext, query: Record<string, unknown>) => screeningList(db, context, query),
    referrals: (context: RequestContext, query: Record<string, unknown>) => referralList(db, context, query),
  };
}
