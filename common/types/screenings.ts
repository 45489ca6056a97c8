/**
 * `GET /api/screenings` and `GET /api/screenings/referrals` (docs/api.md "Screenings list and
 * referrals"): the patient's own screenings only. Shared by the server and the client.
 */

/** BI-RADS of the first description; -1 needs more checks; null shows blank (spec section 3). */
export type BiradsResult = 1 | 2 | 3 | 4 | 5 | -1;

export type DescriptionsStatus = 'desc_all_completed' | 'desc_in_progress';

export type PaymentStatus = 'NEW' | 'PENDING' | 'COMPLETED' | 'CANCELED';

export type ShipmentStatus = 'not_applicable' | 'awaiting' | 'prepared' | 'sent' | 'delivered' | 'collected';

export type ScreeningDocument = {
  id: string;
  name: string;
  type: 'description' | 'referral';
  language: 'pl' | 'en' | 'de' | null;
  sizeBytes: number;
};

export type ScreeningOrder = {
  id: number;
  done: boolean;
  /** The latest payment of the order; null shows "no payment found". */
  payment: { id: number; status: PaymentStatus } | null;
  shipmentStatus: ShipmentStatus;
  /** The product's code (e.g. `copy-of-images`, db/seeds/catalog.ts), so the row can name what was ordered. */
  productCode: string;
};

export type ScreeningListItem = {
  screening: {
    id: number;
    /** ISO 8601 UTC: the examination date and hour of the table */
    createdAt: string;
    screeningDescriptionsStatus: DescriptionsStatus;
    absorbedDose: number | null;
    result: BiradsResult | null;
    /** whether the first description is signed, and when (ISO 8601 UTC) */
    signed: boolean;
    signedAt: string | null;
  };
  /** Descriptions in the order written (the Polish original first), then the referral. No bytes. */
  documents: ScreeningDocument[];
  hasFacilitiesList: boolean;
  /** Orders of this screening, by id ascending. */
  orders: ScreeningOrder[];
};

/** `GET /api/screenings` answers `{ items: ScreeningListItem[] }`, newest screening first. */
export type ScreeningListResponse = { items: ScreeningListItem[] };

/**
 * Query of `GET /api/screenings` (every field optional; filters combine with AND):
 * from/to YYYY-MM-DD inclusive by day in `timeZone` (IANA, default Europe/Warsaw) on createdAt;
 * signed 'true' | 'false'; result '1'..'5' | '-1' | 'none'; screeningId a positive integer.
 */
export type ScreeningListQuery = {
  from?: string;
  to?: string;
  timeZone?: string;
  signed?: 'true' | 'false';
  result?: '1' | '2' | '3' | '4' | '5' | '-1' | 'none';
  screeningId?: string;
};

export type ReferralListItem = {
  screeningId: number;
  /** the screening's createdAt, ISO 8601 UTC */
  createdAt: string;
  documentId: string;
  name: string;
};

/**
 * `GET /api/screenings/referrals?from&to&timeZone` answers `{ items: ReferralListItem[] }`, newest
 * first: the screenings of the patient that have a referral, createdAt compared inclusively by day
 * in `timeZone`.
 */
export type ReferralListResponse = { items: ReferralListItem[] };
