import type { Knex } from 'knex';
import type { BiradsResult, DescriptionsStatus } from '../../common/types/screenings';
import type { ScreeningInfo } from '../../common/types/session';
import type { Db } from '../db';

/** `createdAt` of the API is when the examination took place, not when the row was written. */
const infoColumns = { id: 's.id', createdAt: 's.examined_at' } as const;

export async function findScreeningInfo(db: Db, screeningId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s').where('s.id', screeningId).first(infoColumns);
}

/** The screening if it belongs to the patient of this account. */
export async function findPatientScreening(db: Db, userId: number, screeningId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s')
    .join('users as u', 'u.personal_data_id', 's.personal_data_id')
    .where({ 'u.id': userId, 's.id': screeningId })
    .first(infoColumns);
}

export async function findLatestPatientScreening(db: Db, userId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s')
    .join('users as u', 'u.personal_data_id', 's.personal_data_id')
    .where('u.id', userId)
    .orderBy([
      { column: 's.examined_at', order: 'desc' },
      { column: 's.id', order: 'desc' },
    ])
    .first(infoColumns);
}

export type ResultRow = {
  id: number;
  examinedAt: Date;
  firstName: string;
  lastName: string;
  absorbedDoseMgy: number | null;
  descriptionsStatus: DescriptionsStatus;
  surveySubmittedAt: Date | null;
  /** Of the first description (spec section 3), if there is one. */
  birads: BiradsResult | null;
  signedAt: Date | null;
};

/**
 * Joins the first description of screening `s` as `fd` (lowest id: written first, the Polish
 * original): its `birads` is the screening's result and its `signed_at` the signing (spec
 * section 3). Shared by the result page and the screenings list, which also filters on it.
 */
export function joinFirstDescription(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.joinRaw(
    'LEFT JOIN LATERAL (SELECT d.birads, d.signed_at FROM screening_descriptions d WHERE d.screening_id = s.id ORDER BY d.id LIMIT 1) AS fd ON true',
  );
}

export async function findResult(db: Db, screeningId: number): Promise<ResultRow | undefined> {
  return joinFirstDescription(db('screenings as s').join('personal_data as p', 'p.id', 's.personal_data_id'))
    .where('s.id', screeningId)
    .first({
      id: 's.id',
      examinedAt: 's.examined_at',
      firstName: 'p.first_name',
      lastName: 'p.last_name',
      absorbedDoseMgy: 's.absorbed_dose_mgy',
      descriptionsStatus: 's.descriptions_status',
      surveySubmittedAt: 's.survey_submitted_at',
      birads: 'fd.birads',
      signedAt: 'fd.signed_at',
    });
}
