import type { ScreeningResult } from '@common/types/result';

/**
 * Maria Kowalska's screening as `GET /api/screening/result` gives it (her name as the provider
 * wrote it), described and signed: each test changes what it is about.
 */
export const demoScreening: ScreeningResult['screening'] = {
  id: 41,
  examinedAt: '2026-10-06T08:30:00Z',
  firstName: 'MARIA',
  lastName: 'kowalska',
  absorbedDoseMgy: 2.75,
  result: 2,
  descriptionsStatus: 'desc_all_completed',
  signedAt: '2026-10-08T10:00:00Z',
};
