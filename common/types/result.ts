import type { BiradsResult, DescriptionsStatus, ScreeningDocument } from './screenings';

/**
 * `GET /api/screening/result` (docs/api.md "Result page"): everything the result page shows of one
 * screening. Shared by the server and the client.
 */

/** The disc image of the screening as the page offers it (spec section 4); `empty`: no images to put on one. */
export type IsoStatus = 'no_request' | 'new' | 'in_progress' | 'done' | 'removed' | 'empty';

export type ScreeningResult = {
  screening: {
    id: number;
    /** ISO 8601 UTC: when the examination took place */
    examinedAt: string;
    firstName: string;
    lastName: string;
    absorbedDoseMgy: number | null;
    /** BI-RADS of the first description; null shows blank */
    result: BiradsResult | null;
    descriptionsStatus: DescriptionsStatus;
    signedAt: string | null;
  };
  /** Descriptions in the order written (the Polish original first), then the referral. No bytes. */
  documents: ScreeningDocument[];
  hasFacilitiesList: boolean;
  iso: { status: IsoStatus };
  survey: { submitted: boolean };
};
