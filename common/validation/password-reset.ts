import { z } from 'zod';
import { SHA256_HEX_PATTERN } from './auth';
import { EMAIL_MAX_LENGTH, isValidPhoneNumber, normalizePhoneNumber } from './contact';
import { checkNewPassword, type PasswordRuleMessage } from './password';

/**
 * Forgot password (spec section 5), shared by the reset pages and the server. Messages are
 * catalog keys. Each schema is built on first use, as those of auth.ts are.
 */
const RESET_LANGUAGES = ['pl', 'en'] as const;
export type ResetLanguage = (typeof RESET_LANGUAGES)[number];
export type ResetChannel = 'email' | 'sms';

const emailField = () =>
  z
    .string({ error: 'passwordReset.validation.emailInvalid' })
    .trim()
    .min(1, 'passwordReset.validation.emailRequired')
    .pipe(z.email('passwordReset.validation.emailInvalid').max(EMAIL_MAX_LENGTH, 'passwordReset.validation.emailInvalid'));

const phoneField = () =>
  z
    .string({ error: 'passwordReset.validation.phoneInvalid' })
    .transform(normalizePhoneNumber)
    .pipe(z.string().min(1, 'passwordReset.validation.phoneRequired').refine(isValidPhoneNumber, 'passwordReset.validation.phoneInvalid'));

/** The form as the user fills it in: the chosen channel's field is checked, the other ignored. */
export const resetRequestFormSchema = z.lazy(() =>
  z.discriminatedUnion('channel', [
    z.object({ channel: z.literal('email'), email: emailField() }),
    z.object({ channel: z.literal('sms'), phoneNumber: phoneField() }),
  ]),
);

export type ResetRequest =
  { channel: 'email'; email: string; language: ResetLanguage } | { channel: 'sms'; phoneNumber: string; language: ResetLanguage };

/**
 * `POST /api/auth/password/reset`: `{ email }` or `{ phoneNumber }`, and `language`. A body with
 * both is read as an email request (the page sends only the channel the user chose). An unknown
 * language falls back to Polish, the portal's default, rather than failing a patient's request.
 */
export const resetRequestSchema = z.lazy(() => {
  const email = emailField();
  const phone = phoneField();
  return z
    .object({
      email: z.unknown().optional(),
      phoneNumber: z.unknown().optional(),
      language: z.enum(RESET_LANGUAGES).catch('pl'),
    })
    .transform((body, context): ResetRequest => {
      const byEmail = body.email !== undefined || body.phoneNumber === undefined;
      const parsed = byEmail ? email.safeParse(body.email ?? '') : phone.safeParse(body.phoneNumber);
      if (!parsed.success) {
        context.addIssue({ code: 'custom', path: [byEmail ? 'email' : 'phoneNumber'], message: parsed.error.issues[0]!.message });
        return z.NEVER;
      }
      return byEmail
        ? { channel: 'email', email: parsed.data, language: body.language }
        : { channel: 'sms', phoneNumber: parsed.data, language: body.language };
    });
});

type NewPasswordMessage = 'validation.password.required' | 'validation.password.confirmRequired' | 'validation.password.mismatch';

/**
 * The token page's form as typed (before hashing): the new-password rule of password.ts, then the
 * confirmation. The page knows no login, so only length and the blocklist apply.
 */
export const newPasswordFormSchema = z.lazy(() =>
  z.object({ password: z.string(), confirm: z.string() }).superRefine((form, context) => {
    const refuse = (path: 'password' | 'confirm', message: NewPasswordMessage | PasswordRuleMessage) =>
      context.addIssue({ code: 'custom', path: [path], message });
    const weakness = form.password ? checkNewPassword(form.password) : null;
    if (!form.password) refuse('password', 'validation.password.required');
    else if (weakness) refuse('password', weakness);
    if (!form.confirm) refuse('confirm', 'validation.password.confirmRequired');
    else if (form.confirm !== form.password) refuse('confirm', 'validation.password.mismatch');
  }),
);
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

const hashed = (message: NewPasswordMessage) =>
  z.string({ error: message }).min(1, message).regex(SHA256_HEX_PATTERN, 'validation.password.notHashed');

/**
 * `PATCH /api/auth/password/token` after its token is read: the new password and its
 * confirmation, both SHA-256 hex made in the browser.
 */
export const newPasswordSchema = z.lazy(() =>
  z
    .object({ password: hashed('validation.password.required'), confirm: hashed('validation.password.confirmRequired') })
    .superRefine((body, context) => {
      if (body.confirm !== body.password) {
        context.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.password.mismatch' });
      }
    }),
);
export type NewPassword = z.infer<typeof newPasswordSchema>;
