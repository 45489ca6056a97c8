import { z } from 'zod';

/**
 * The contact form's rules (spec section 5), shared by the browser (messages under the fields)
 * and the server (the same 400 issues for a client that skipped the browser). Messages are
 * catalog keys. Each schema is built on first use, as those of auth.ts are.
 */
export const CONTENT_MAX_LENGTH = 300;
/** Same bound as a patient's names in personal_data. */
export const NAME_MAX_LENGTH = 100;
/** The longest address SMTP can carry (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/**
 * E.164 allows 15 digits; 20 leaves room for a "00" prefix and an extension while keeping a
 * pasted essay out of the phone column. Counted without spaces.
 */
const PHONE_MAX_LENGTH = 20;

const CONTACT_LANGUAGES = ['pl', 'en'] as const;
export type ContactLanguage = (typeof CONTACT_LANGUAGES)[number];

/** The phone number as the rules see it: spaces do not count. */
export function normalizePhoneNumber(raw: string): string {
  return raw.replace(/\s+/g, '');
}

/** Seven or more digits, or + and nine or more digits, spaces ignored. */
export function isValidPhoneNumber(raw: string): boolean {
  const phone = normalizePhoneNumber(raw);
  return phone.length <= PHONE_MAX_LENGTH && /^(\d{7,}|\+\d{9,})$/.test(phone);
}

/**
 * Nine digits, or +48 and nine digits. Anything else only earns a warning: the form still sends,
 * since patients abroad may leave a foreign number.
 */
export function isPolishPhoneNumber(raw: string): boolean {
  return /^(\d{9}|\+48\d{9})$/.test(normalizePhoneNumber(raw));
}

/**
 * Characters as a person counts them (and as PostgreSQL's char_length does): an emoji is one,
 * although JavaScript's `length` says two.
 */
export function characterCount(text: string): number {
  return [...text].length;
}

const requiredText = (required: string, tooLong: string, max: number) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine((value) => characterCount(value) <= max, tooLong);

const contactMessage = () =>
  z.object({
    firstName: requiredText('contact.validation.firstName.required', 'contact.validation.firstName.tooLong', NAME_MAX_LENGTH),
    lastName: requiredText('contact.validation.lastName.required', 'contact.validation.lastName.tooLong', NAME_MAX_LENGTH),
    // Optional: an empty field means "no email", stored as null rather than ''.
    email: z
      .preprocess(
        (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
        z
          .string({ error: 'contact.validation.email.invalid' })
          .trim()
          .pipe(z.email('contact.validation.email.invalid').max(EMAIL_MAX_LENGTH, 'contact.validation.email.invalid'))
          .nullish(),
      )
      .transform((email) => email ?? null),
    phoneNumber: z
      .string({ error: 'contact.validation.phone.required' })
      .transform(normalizePhoneNumber)
      .pipe(z.string().min(1, 'contact.validation.phone.required').refine(isValidPhoneNumber, 'contact.validation.phone.invalid')),
    content: requiredText('contact.validation.content.required', 'contact.validation.content.tooLong', CONTENT_MAX_LENGTH),
    consent: z.literal(true, { error: 'contact.validation.consent.required' }),
  });

export const contactMessageSchema = z.lazy(contactMessage);

/** The fields in the order of the form, so focus can go to the first invalid one. */
export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'phoneNumber', 'content', 'consent'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * `POST /api/contact/create`: the form plus the language the patient wrote in, so the provider
 * answers in it. Only a hand-made request can get the language wrong.
 */
export const contactRequestSchema = z.lazy(() =>
  contactMessage().extend({
    language: z.enum(CONTACT_LANGUAGES, { error: 'errors.generic' }),
  }),
);
export type ContactRequest = z.infer<typeof contactRequestSchema>;
