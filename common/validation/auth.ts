import { z } from 'zod';

/**
 * Login rules shared by the browser (messages under the fields before sending) and the server
 * (the same answer for a client that skips the browser). Messages are catalog keys.
 *
 * Each exported schema is built on first use (`z.lazy`): a page imports these modules for one
 * form, and building every schema as its chunk loaded was a task of 17-34 ms on a phone's CPU
 * (issue 16, Lighthouse's Total Blocking Time).
 */
export const ACCESS_CODE_LENGTH = 8;
const BIRTH_DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

const consent = () => z.literal(true, { error: 'validation.consent.required' });

export const resultLoginSchema = z.lazy(() =>
  z.object({
    accessCode: z
      .string({ error: 'validation.accessCode.required' })
      .trim()
      .min(1, 'validation.accessCode.required')
      .regex(new RegExp(`^[A-Za-z0-9]{1,${ACCESS_CODE_LENGTH}}$`), 'validation.accessCode.invalid'),
    birthAt: z.string({ error: 'validation.birthAt.invalid' }).regex(BIRTH_DATE_PATTERN, 'validation.birthAt.invalid'),
    portalTerms: consent(),
    policyTerms: consent(),
  }),
);
export type ResultLogin = z.infer<typeof resultLoginSchema>;

export const portalLoginSchema = z.lazy(() =>
  z.object({
    login: z.string({ error: 'validation.login.required' }).trim().min(1, 'validation.login.required'),
    password: z
      .string({ error: 'validation.password.required' })
      .min(1, 'validation.password.required')
      .regex(SHA256_HEX_PATTERN, 'validation.password.notHashed'),
    portalTerms: consent(),
    policyTerms: consent(),
  }),
);
export type PortalLogin = z.infer<typeof portalLoginSchema>;

/**
 * Inserts dashes as the user types run-on digits: 19680412 -> 1968-04-12. Typed dashes are
 * dropped and put back in their places, so deleting one never leaves a broken date behind.
 */
export function formatBirthDateInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8)].filter(Boolean).join('-');
}
