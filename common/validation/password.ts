import { z } from 'zod';
import { SHA256_HEX_PATTERN } from './auth';
import { COMMON_PASSWORDS } from './common-passwords';

/**
 * The strength rule for a NEW password. The browser hashes passwords with SHA-256 before sending,
 * so the server only ever sees 64 hex digits: this rule, run in the browser before hashing, is the
 * only place the plain password can be judged. The password change form and the reset-by-token
 * page both use it.
 *
 * Twelve characters: NIST SP 800-63B asks for at least 8 and recommends longer, OWASP ASVS 5
 * asks for 12; a portal holding medical results takes the stricter one. There is no upper limit
 * below what a person would type (the hash has a fixed size whatever the length) and no
 * composition rules (they push people towards "Haslo123!"); instead a blocklist refuses the
 * passwords attackers try first.
 */
export const MIN_PASSWORD_LENGTH = 12;

export type PasswordRuleMessage = 'validation.password.tooShort' | 'validation.password.common' | 'validation.password.sameAsLogin';

const commonPasswords = new Set(COMMON_PASSWORDS);

// Runs an attacker walks along: counting, the alphabet and keyboard rows/columns (QWERTY and QWERTZ).
const SEQUENCES = [
  '01234567890123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiopasdfghjklzxcvbnm',
  'qwertzuiopasdfghjklyxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'zaq12wsxcde34rfvbgt56yhnmju78ik9ol0p',
];

/** Lower case without diacritics ("Hasło" -> "haslo"), the form the blocklist is stored in. */
function fold(password: string): string {
  return password.toLowerCase().replace(/ł/g, 'l').normalize('NFD').replace(/\p{M}/gu, '');
}

/** The password and its core without the digits and symbols people pad a word with. */
function variants(folded: string): string[] {
  const withoutTail = folded.replace(/[^\p{L}]+$/u, '');
  const core = withoutTail.replace(/^[^\p{L}]+/u, '');
  return [folded, withoutTail, core].filter((variant) => variant.length > 0);
}

function isRepetition(folded: string): boolean {
  return /^(.{1,4})\1+$/u.test(folded);
}

function isSequence(folded: string): boolean {
  const reversed = [...folded].reverse().join('');
  return SEQUENCES.some((run) => run.includes(folded) || run.includes(reversed));
}

function isCommon(password: string): boolean {
  const folded = fold(password);
  return variants(folded).some((variant) => commonPasswords.has(variant)) || isRepetition(folded) || isSequence(folded);
}

function isSameAsLogin(password: string, login: string | undefined): boolean {
  const folded = fold(login?.trim() ?? '');
  if (!folded) return false;
  const localPart = folded.split('@')[0] ?? '';
  const candidate = fold(password.trim());
  return candidate === folded || (localPart.length > 0 && candidate === localPart);
}

/** Why the new password is refused (a catalog key), or null when it may be used. */
export function checkNewPassword(password: string, options: { login?: string } = {}): PasswordRuleMessage | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'validation.password.tooShort';
  if (isSameAsLogin(password, options.login)) return 'validation.password.sameAsLogin';
  if (isCommon(password)) return 'validation.password.common';
  return null;
}

type RequiredMessage = 'validation.password.required' | 'validation.password.oldRequired' | 'validation.password.confirmRequired';

type FormMessage = RequiredMessage | PasswordRuleMessage | 'validation.password.sameAsOld' | 'validation.password.mismatch';

/**
 * The change form as the user fills it in (plain passwords, before hashing). Messages are catalog
 * keys and sit on the field they belong to; every field is judged even when another is empty, so
 * the user sees all problems at once.
 */
export function passwordChangeFormSchema(options: { login?: string } = {}) {
  return z
    .object({
      oldPassword: z.string({ error: 'validation.password.oldRequired' }),
      newPassword: z.string({ error: 'validation.password.required' }),
      confirm: z.string({ error: 'validation.password.confirmRequired' }),
    })
    .superRefine((form, context) => {
      const refuse = (path: keyof typeof form, message: FormMessage) => context.addIssue({ code: 'custom', path: [path], message });
      if (!form.oldPassword) refuse('oldPassword', 'validation.password.oldRequired');
      const weakness = form.newPassword ? checkNewPassword(form.newPassword, options) : null;
      if (!form.newPassword) refuse('newPassword', 'validation.password.required');
      else if (weakness) refuse('newPassword', weakness);
      else if (form.newPassword === form.oldPassword) refuse('newPassword', 'validation.password.sameAsOld');
      if (!form.confirm) refuse('confirm', 'validation.password.confirmRequired');
      else if (form.confirm !== form.newPassword) refuse('confirm', 'validation.password.mismatch');
    });
}
export type PasswordChangeForm = z.infer<ReturnType<typeof passwordChangeFormSchema>>;

const hashed = (message: RequiredMessage) =>
  z.string({ error: message }).min(1, message).regex(SHA256_HEX_PATTERN, 'validation.password.notHashed');

/**
 * `PATCH /api/auth/password` as the server receives it: the three values SHA-256 hex, hashed in
 * the browser. The server repeats what it can still check on hashes: confirm equals new, and new
 * differs from old. Built on first use, as the schemas of auth.ts are.
 */
export const passwordChangeSchema = z.lazy(() =>
  z
    .object({
      oldPassword: hashed('validation.password.oldRequired'),
      newPassword: hashed('validation.password.required'),
      confirm: hashed('validation.password.confirmRequired'),
    })
    .superRefine((body, context) => {
      if (body.confirm !== body.newPassword) {
        context.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.password.mismatch' });
      }
      if (body.newPassword === body.oldPassword) {
        context.addIssue({ code: 'custom', path: ['newPassword'], message: 'validation.password.sameAsOld' });
      }
    }),
);
export type PasswordChange = z.infer<typeof passwordChangeSchema>;
