import type { z } from 'zod';

/**
 * Parses request input with a zod schema. A failure throws the ZodError itself; the error handler
 * turns it into 400 VALIDATION with one issue per field, whose message is a catalog key. Anything
 * that is not a JSON object (no body, an array, a form post) is read as an empty object, so the
 * caller still gets the per-field messages instead of one about the body's shape.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
  return schema.parse(isObject ? input : {});
}
