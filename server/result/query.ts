import { z } from 'zod';
import { notFound } from '../lib/errors';
import { parseInput } from '../lib/validate';
import type { UserLanguage } from './download-names';

const MAX_ID = 2_147_483_647;
const screeningId = z.coerce.number().int().min(1).max(MAX_ID);

/**
 * Ids of the query or path. One that cannot name an object is simply one that is not found
 * (docs/api.md), so a failure answers 404 rather than 400.
 */
export function parseIds<Shape extends z.ZodRawShape>(shape: Shape, input: unknown): z.infer<z.ZodObject<Shape>> {
  const parsed = z.object(shape).safeParse(input);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

export const idParams = {
  screeningId,
  optionalScreeningId: screeningId.optional(),
  documentId: z.uuid(),
};

const languageQuery = z.object({
  lang: z.enum(['pl', 'en'], { error: 'errors.generic' }).default('pl'),
});

/** `lang` of a download: the user's language names the file (default Polish, spec section 9). */
export function parseLanguage(query: unknown): UserLanguage {
  return parseInput(languageQuery, query).lang;
}
