import { z } from 'zod';
import { notFound } from './errors';

/**
 * The two ways a request's input is read; every router uses one of them, never its own.
 *
 * `parseInput`: bodies and filters. A failure throws the ZodError itself; the error handler turns
 * it into 400 VALIDATION with one issue per field, whose message is a catalog key. Anything that
 * is not a JSON object (no body, an array, a form post) is read as an empty object, so the caller
 * still gets the per-field messages instead of one about the body's shape.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  return schema.parse(fieldsOf(input));
}

/**
 * `parseIds`: ids of the path or query, with the schemas of `ids`. One that cannot name an object
 * is simply one that is not found (docs/api.md), so a failure answers 404 rather than 400.
 */
export function parseIds<Shape extends z.ZodRawShape>(shape: Shape, input: unknown): z.infer<z.ZodObject<Shape>> {
  const parsed = z.object(shape).safeParse(input);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

/** The largest value of a PostgreSQL `integer` (serial) key. */
export const MAX_ID = 2_147_483_647;

const serialId = z.coerce.number().int().min(1).max(MAX_ID);

/** The id kinds of the API: serial row ids and the uuids of stored files. */
export const ids = {
  serial: serialId,
  optionalSerial: serialId.optional(),
  uuid: z.uuid(),
};

export type UserLanguage = 'pl' | 'en';

const languageQuery = z.object({
  lang: z.enum(['pl', 'en'], { error: 'errors.generic' }).default('pl'),
});

/** `lang` of a download: the user's language names the file (default Polish, spec section 9). */
export function parseLanguage(query: unknown): UserLanguage {
  return parseInput(languageQuery, query).lang;
}

/** An empty parameter (`?from=`) means the filter is not used, as an untouched form field sends it. */
export function presentQuery(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

/** A body's fields for a call that reads one field its own way first (a reset link's token): anything but a JSON object has none. */
export function fieldsOf(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
