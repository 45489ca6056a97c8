import { z } from 'zod';

/**
 * The audit log as the browser and the server both read it (spec section 9, DECISIONS.md 11).
 * Every type the `audit_types` table holds; the server's writer takes exactly these.
 */
export const AUDIT_TYPES = [
  'RESULT',
  'RESULT_UNAUTHORIZED',
  'LOGIN_RESULT',
  'LOGIN_PORTAL',
  'LOGIN_PORTAL_UNAUTHORIZED',
  'ISO_GENERATE',
  'ISO_UNAUTHORIZED',
  'ISO_GENERATE_UNAUTHORIZED',
  'SCREENING',
  'SCREENING_UNAUTHORIZED',
  'REFFERENCE',
  'REFFERENCE_UNAUTHORIZED',
  'USER_PASSWORD_CHANGE',
  'USER_PASSWORD_CHANGE_UNAUTHORIZED',
  'DICOM_UPLOAD',
  'ORDER',
  'ORDER_UNAUTHORIZED',
  'ORDER_CANCEL',
  'PAYMENT',
  'PAYMENT_COMPLETED',
  'PAYMENT_CANCELED',
] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

/** The filter groups of spec section 9, in the order the audit page offers them. */
export const AUDIT_FILTER_GROUPS = [
  'SCREENING',
  'RESULT',
  'REFFERENCE',
  'ISO',
  'ISO_GENERATE',
  'LOGIN_RESULT',
  'LOGIN_PORTAL',
  'ORDER',
] as const;
export type AuditFilterGroup = (typeof AUDIT_FILTER_GROUPS)[number];

/**
 * The types each group matches. A group covers its event and the refused attempts at it, so a
 * patient filtering "screening" also sees who tried to open a screening that is not hers. ISO is
 * the image download and status (only its refusals are audited); generating the image is its own
 * group. Password changes and DICOM uploads belong to no group: they show when no group is chosen.
 */
const AUDIT_GROUP_TYPES: Readonly<Record<AuditFilterGroup, readonly AuditType[]>> = {
  SCREENING: ['SCREENING', 'SCREENING_UNAUTHORIZED'],
  RESULT: ['RESULT', 'RESULT_UNAUTHORIZED'],
  REFFERENCE: ['REFFERENCE', 'REFFERENCE_UNAUTHORIZED'],
  ISO: ['ISO_UNAUTHORIZED'],
  ISO_GENERATE: ['ISO_GENERATE', 'ISO_GENERATE_UNAUTHORIZED'],
  LOGIN_RESULT: ['LOGIN_RESULT'],
  LOGIN_PORTAL: ['LOGIN_PORTAL', 'LOGIN_PORTAL_UNAUTHORIZED'],
  // Not in the spec's list: purchases came later (issue 12). Orders and their payments, together.
  ORDER: ['ORDER', 'ORDER_UNAUTHORIZED', 'ORDER_CANCEL', 'PAYMENT', 'PAYMENT_COMPLETED', 'PAYMENT_CANCELED'],
};

/** DECISIONS.md 11. */
export const AUDIT_PAGE_SIZE = 10;
/** The spec joins the chosen types with a percent sign in one query parameter. */
export const AUDIT_TYPES_SEPARATOR = '%';
export const AUDIT_DESCRIPTION_MAX_LENGTH = 100;
const MAX_PAGE = 1_000_000;

function isAuditFilterGroup(value: string): value is AuditFilterGroup {
  return (AUDIT_FILTER_GROUPS as readonly string[]).includes(value);
}

function isAuditType(value: string): value is AuditType {
  return (AUDIT_TYPES as readonly string[]).includes(value);
}

/** The audit types a `types` parameter asks for: each group expanded, a plain type as itself. */
export function auditTypesOf(tokens: readonly string[]): AuditType[] {
  const types = tokens.flatMap((token) => (isAuditFilterGroup(token) ? AUDIT_GROUP_TYPES[token] : isAuditType(token) ? [token] : []));
  return [...new Set(types)];
}

/** A real calendar day as YYYY-MM-DD (no 2024-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const day = z.string({ error: 'validation.audit.date.invalid' }).refine(isCalendarDay, 'validation.audit.date.invalid').optional();

/**
 * Where the description filter's text falls in what the audit page shows as an entry's description
 * (the type's name in the user's language, and the IP address). The server knows the addresses but
 * not the names, so the browser reads the text against the names and sends what an entry must be
 * to match: one of `types` (any type when absent) with its IP as `ip` says (any IP when absent).
 * The parts of the address are compared case-insensitively, `%` and `_` as themselves.
 */
export type AuditIpCondition = 'present' | 'absent' | { startsWith: string } | { endsWith: string } | { equals: string };
export type AuditDescriptionClause = { types?: AuditType[]; ip?: AuditIpCondition };

const DESCRIPTION_INVALID = 'validation.audit.description.invalid';
/** Well above what 100 typed characters can give: each split of the text at most once per kind. */
const MAX_DESCRIPTION_CLAUSES = 400;
const MAX_DESCRIPTION_MATCH_LENGTH = 32_000;
const ipPart = z.string().min(1).max(AUDIT_DESCRIPTION_MAX_LENGTH);
const descriptionClausesSchema = z
  .array(
    z.strictObject({
      types: z.array(z.enum(AUDIT_TYPES)).min(1).optional(),
      ip: z
        .union([
          z.enum(['present', 'absent']),
          z.strictObject({ startsWith: ipPart }),
          z.strictObject({ endsWith: ipPart }),
          z.strictObject({ equals: ipPart }),
        ])
        .optional(),
    }),
  )
  .max(MAX_DESCRIPTION_CLAUSES);

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `descriptionMatch`: the clauses as JSON, one query parameter. */
const descriptionMatch = z
  .string({ error: DESCRIPTION_INVALID })
  .max(MAX_DESCRIPTION_MATCH_LENGTH, DESCRIPTION_INVALID)
  .transform((text, context): AuditDescriptionClause[] => {
    const clauses = descriptionClausesSchema.safeParse(parsedJson(text));
    if (clauses.success) return clauses.data;
    context.addIssue({ code: 'custom', message: DESCRIPTION_INVALID });
    return z.NEVER;
  })
  .optional();

/**
 * `GET /api/audit` query. `to` is exclusive: the browser sends the chosen end day plus one.
 * Empty parameters count as absent, as a form with untouched fields sends them.
 */
export const auditQuerySchema = z
  .object({
    page: z.coerce
      .number({ error: 'validation.audit.page.invalid' })
      .int('validation.audit.page.invalid')
      .min(1, 'validation.audit.page.invalid')
      .max(MAX_PAGE, 'validation.audit.page.invalid')
      .default(1),
    from: day,
    to: day,
    types: z
      .string({ error: 'validation.audit.types.invalid' })
      .transform((value) => value.split(AUDIT_TYPES_SEPARATOR).filter(Boolean))
      .refine((tokens) => tokens.every((token) => isAuditFilterGroup(token) || isAuditType(token)), 'validation.audit.types.invalid')
      .optional(),
    /** Matched in the IP address: the part of the shown description the server can read. */
    description: z.string({ error: DESCRIPTION_INVALID }).trim().max(AUDIT_DESCRIPTION_MAX_LENGTH, DESCRIPTION_INVALID).optional(),
    /** The browser's reading of `description` against the translated part (AuditDescriptionClause). */
    descriptionMatch,
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, {
    path: ['to'],
    message: 'validation.audit.range.invalid',
  });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export type AuditItem = {
  /** ISO 8601, UTC; the page shows it in the user's time zone. */
  createdAt: string;
  type: AuditType;
  ip: string | null;
  description: string | null;
};
export type AuditPage = { items: AuditItem[]; total: number };

const BROWSER_INVALID = 'validation.audit.browser.invalid';
const browserText = (maxLength: number) => z.string({ error: BROWSER_INVALID }).trim().max(maxLength, BROWSER_INVALID);
const screenSide = z.number({ error: BROWSER_INVALID }).int(BROWSER_INVALID).min(0, BROWSER_INVALID).max(100_000, BROWSER_INVALID);

/** `POST /api/audit/browser` (spec section 3, "Browser details"); unknown parts are sent empty. */
export const browserDetailsSchema = z.object({
  browserName: browserText(100),
  browserVersion: browserText(50),
  os: browserText(100),
  resolutionX: screenSide,
  resolutionY: screenSide,
});
export type BrowserDetails = z.infer<typeof browserDetailsSchema>;
