import type { Knex } from 'knex';
import type { BiradsResult, DescriptionsStatus, PaymentStatus, ShipmentStatus } from '../../common/types/screenings';
import type { Db } from '../db';
import { AppError } from '../lib/errors';
import { joinFirstDescription } from './screening-repo';

/** Calendar days of `timeZone`, both ends inclusive, on the examination time (the API's createdAt). */
export type DayRange = { from?: string; to?: string; timeZone: string };

export type ScreeningFilter = DayRange & {
  /** On the first description's signing. */
  signed?: boolean;
  /** The first description's BI-RADS; null: no result (no description yet, or none given). */
  result?: number | null;
  screeningId?: number;
};

/** The screenings of this account's patient: the one scope every query here starts from. */
function patientScreenings(db: Db, userId: number): Knex.QueryBuilder {
  return db('screenings as s').join('users as u', 'u.personal_data_id', 's.personal_data_id').where('u.id', userId);
}

/**
 * Midnight of a day in `timeZone` as an instant, compared with the bare column so the index
 * `screenings_patient_examined_idx` serves the range: "examined on day D there" is
 * `D 00:00 <= examined_at < D+1 00:00`, both taken in that zone, whatever the session's TimeZone.
 */
function withinDays(query: Knex.QueryBuilder, { from, to, timeZone }: DayRange): Knex.QueryBuilder {
  if (from) query.whereRaw('s.examined_at >= (?::date)::timestamp AT TIME ZONE ?', [from, timeZone]);
  if (to) query.whereRaw('s.examined_at < (?::date + 1)::timestamp AT TIME ZONE ?', [to, timeZone]);
  return query;
}

/** PostgreSQL's SQLSTATE for a parameter it cannot use, here a time zone it does not know. */
const INVALID_PARAMETER_VALUE = '22023';

/**
 * Runs a day-filtered query. The zone was checked against Node's zone database; PostgreSQL's may be
 * a release apart, and a zone only Node knows is still the caller's bad value, not a server error.
 */
async function inZone<Row>(query: Knex.QueryBuilder, range: DayRange): Promise<Row[]> {
  try {
    return await query;
  } catch (error) {
    if ((range.from || range.to) && (error as { code?: unknown }).code === INVALID_PARAMETER_VALUE) {
      throw new AppError(400, 'VALIDATION', { issues: [{ path: 'timeZone', message: 'errors.generic' }] });
    }
    throw error;
  }
}

const newestFirst = [
  { column: 's.examined_at', order: 'desc' },
  { column: 's.id', order: 'desc' },
] as const;

export type ScreeningRow = {
  id: number;
  examinedAt: Date;
  descriptionsStatus: DescriptionsStatus;
  absorbedDoseMgy: number | null;
  birads: BiradsResult | null;
  signedAt: Date | null;
};

export async function findScreenings(db: Db, userId: number, filter: ScreeningFilter): Promise<ScreeningRow[]> {
  const query = withinDays(joinFirstDescription(patientScreenings(db, userId)), filter);
  if (filter.signed === true) query.whereNotNull('fd.signed_at');
  if (filter.signed === false) query.whereNull('fd.signed_at');
  if (filter.result === null) query.whereNull('fd.birads');
  else if (filter.result !== undefined) query.where('fd.birads', filter.result);
  if (filter.screeningId !== undefined) query.where('s.id', filter.screeningId);
  query.orderBy([...newestFirst]).select({
    id: 's.id',
    examinedAt: 's.examined_at',
    descriptionsStatus: 's.descriptions_status',
    absorbedDoseMgy: 's.absorbed_dose_mgy',
    birads: 'fd.birads',
    signedAt: 'fd.signed_at',
  });
  return inZone(query, filter);
}

export type OrderRow = {
  id: number;
  screeningId: number;
  done: boolean;
  shipmentStatus: ShipmentStatus;
  productCode: string;
  paymentId: number | null;
  paymentStatus: PaymentStatus | null;
};

/** Her orders for these screenings, ids ascending, each with its latest payment (highest id), if any. */
export async function findOrders(db: Db, userId: number, screeningIds: readonly number[]): Promise<OrderRow[]> {
  if (screeningIds.length === 0) return [];
  return db('orders as o')
    .join('products as p', 'p.id', 'o.product_id')
    .joinRaw(
      'LEFT JOIN LATERAL (SELECT pay.id, pay.status FROM payments pay WHERE pay.order_id = o.id ORDER BY pay.id DESC LIMIT 1) AS lp ON true',
    )
    .where('o.user_id', userId)
    .whereIn('o.screening_id', screeningIds)
    .orderBy('o.id')
    .select({
      id: 'o.id',
      screeningId: 'o.screening_id',
      done: 'o.done',
      shipmentStatus: 'o.shipment_status',
      productCode: 'p.code',
      paymentId: 'lp.id',
      paymentStatus: 'lp.status',
    });
}

export type ReferralRow = { screeningId: number; examinedAt: Date; documentId: string; name: string };

/** Her screenings that have a referral (at most one each: a partial unique index), newest first. */
export async function findReferrals(db: Db, userId: number, range: DayRange): Promise<ReferralRow[]> {
  const query = patientScreenings(db, userId).join('screening_documents as doc', function referralOf() {
    this.on('doc.screening_id', 's.id').andOnVal('doc.kind', 'referral');
  });
  withinDays(query, range)
    .orderBy([...newestFirst])
    .select({ screeningId: 's.id', examinedAt: 's.examined_at', documentId: 'doc.id', name: 'doc.name' });
  return inZone(query, range);
}
