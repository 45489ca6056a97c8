import type { Request } from 'express';

/**
 * One cookie's raw value from the request's Cookie header, or undefined. The portal's own
 * cookies are written URL-safe, so no decoding is needed; a cookie named twice (a parent path,
 * a planted copy) counts as absent rather than picking one.
 */
export function cookieValue(req: Request, name: string): string | undefined {
  const values = (req.headers.cookie ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
  return values.length === 1 ? values[0] : undefined;
}
