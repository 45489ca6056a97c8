import { z } from 'zod';
import { isCalendarDay } from '../../common/audit';
import { MAX_ID } from '../lib/parse';

/** The provider's zone: what "a day" means when the browser does not say (spec section 3). */
const DEFAULT_TIME_ZONE = 'Europe/Warsaw';

// The filters come from the list's own controls, so a bad value is a broken or hand-made request:
// the date messages are the audit filter's (same wording), anything else the generic error.
const DATE_INVALID = 'validation.audit.date.invalid';
const RANGE_INVALID = 'validation.audit.range.invalid';
const INVALID = 'errors.generic';

/**
 * An IANA zone name ("Europe/Warsaw", "America/Argentina/Buenos_Aires", "UTC"), answered in the
 * canonical spelling Node knows it by. Offsets such as "+01:00" and POSIX strings are refused:
 * PostgreSQL's AT TIME ZONE reads their sign the other way round from ISO 8601.
 */
const timeZone = z
  .string({ error: INVALID })
  .max(64, INVALID)
  .regex(/^[A-Za-z][A-Za-z0-9_-]*(\/[A-Za-z0-9_+-]+)*$/, INVALID)
  .transform((value, context) => {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      context.addIssue({ code: 'custom', message: INVALID });
      return z.NEVER;
    }
  });

const day = z.string({ error: DATE_INVALID }).refine(isCalendarDay, DATE_INVALID);

const dayRange = {
  from: day.optional(),
  to: day.optional(),
  timeZone: timeZone.default(DEFAULT_TIME_ZONE),
};

/** Both ends are inclusive, so a one-day range has `from` equal to `to`. */
function orderedRange(query: { from?: string; to?: string }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}
const rangeIssue = { path: ['to'], message: RANGE_INVALID };

/** `GET /api/screenings` (ScreeningListQuery in common/types/screenings.ts). */
export const screeningListQuerySchema = z
  .object({
    ...dayRange,
    signed: z
      .enum(['true', 'false'], { error: INVALID })
      .transform((value) => value === 'true')
      .optional(),
    result: z
      .enum(['1', '2', '3', '4', '5', '-1', 'none'], { error: INVALID })
      .transform((value) => (value === 'none' ? null : Number(value)))
      .optional(),
    screeningId: z
      .string({ error: INVALID })
      .regex(/^[1-9]\d{0,9}$/, INVALID)
      .transform(Number)
      .refine((id) => id <= MAX_ID, INVALID)
      .optional(),
  })
  .refine(orderedRange, rangeIssue);

/** `GET /api/screenings/referrals`. */
export const referralListQuerySchema = z.object(dayRange).refine(orderedRange, rangeIssue);
