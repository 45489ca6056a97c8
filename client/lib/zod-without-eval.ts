import { config } from 'zod';

/**
 * zod compiles a faster parser for each object schema with `new Function` where it may. The
 * portal's Content-Security-Policy forbids that (server/lib/security-headers.ts: no
 * 'unsafe-eval'), and zod only learned it by trying: making the first object schema threw an
 * EvalError, which zod caught, and the browser recorded a violation of the policy on every page
 * with a form. Told up front, zod does not try. Imported first by the entry, before any module
 * that makes a schema.
 */
config({ jitless: true });
