import { describe, expect, it } from 'vitest';
import {
  CONTENT_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  characterCount,
  contactMessageSchema,
  contactRequestSchema,
  isPolishPhoneNumber,
  isValidPhoneNumber,
} from './contact';

const valid = {
  firstName: 'Maria',
  lastName: 'Kowalska',
  email: 'maria@example.com',
  phoneNumber: '600 100 200',
  content: 'Proszę o kontakt w sprawie wyniku.',
  consent: true,
};

/** The first message per field, as the server answers and the form shows. */
function firstMessages(input: unknown): Record<string, string> {
  const parsed = contactMessageSchema.safeParse(input);
  if (parsed.success) return {};
  const messages: Record<string, string> = {};
  for (const issue of parsed.error.issues) messages[issue.path.join('.')] ??= issue.message;
  return messages;
}

describe('contact form rules', () => {
  it('accepts a complete message and normalises it', () => {
    const parsed = contactMessageSchema.parse({ ...valid, firstName: '  Maria ', email: ' maria@example.com ' });
    expect(parsed).toEqual({ ...valid, phoneNumber: '600100200' });
  });

  it.each([
    ['firstName', undefined, 'contact.validation.firstName.required'],
    ['firstName', '', 'contact.validation.firstName.required'],
    ['firstName', '   ', 'contact.validation.firstName.required'],
    ['firstName', 'a'.repeat(NAME_MAX_LENGTH + 1), 'contact.validation.firstName.tooLong'],
    ['lastName', undefined, 'contact.validation.lastName.required'],
    ['lastName', ' ', 'contact.validation.lastName.required'],
    ['lastName', 'b'.repeat(NAME_MAX_LENGTH + 1), 'contact.validation.lastName.tooLong'],
    ['email', 'maria', 'contact.validation.email.invalid'],
    ['email', 'maria@', 'contact.validation.email.invalid'],
    ['email', 'maria @example.com', 'contact.validation.email.invalid'],
    ['email', `${'m'.repeat(EMAIL_MAX_LENGTH)}@example.com`, 'contact.validation.email.invalid'],
    ['email', 42, 'contact.validation.email.invalid'],
    ['phoneNumber', undefined, 'contact.validation.phone.required'],
    ['phoneNumber', '', 'contact.validation.phone.required'],
    ['phoneNumber', '   ', 'contact.validation.phone.required'],
    ['phoneNumber', '123456', 'contact.validation.phone.invalid'],
    ['phoneNumber', '12 34 56', 'contact.validation.phone.invalid'],
    ['phoneNumber', '+12345678', 'contact.validation.phone.invalid'],
    ['phoneNumber', '600-100-200', 'contact.validation.phone.invalid'],
    ['phoneNumber', '(22) 1234567', 'contact.validation.phone.invalid'],
    ['phoneNumber', '6001002OO', 'contact.validation.phone.invalid'],
    ['phoneNumber', '48+600100200', 'contact.validation.phone.invalid'],
    ['phoneNumber', '1'.repeat(21), 'contact.validation.phone.invalid'],
    ['content', undefined, 'contact.validation.content.required'],
    ['content', '  \n ', 'contact.validation.content.required'],
    ['content', 'x'.repeat(CONTENT_MAX_LENGTH + 1), 'contact.validation.content.tooLong'],
    ['consent', undefined, 'contact.validation.consent.required'],
    ['consent', false, 'contact.validation.consent.required'],
    ['consent', 'true', 'contact.validation.consent.required'],
  ])('%s = %j is refused with %s', (field, value, message) => {
    expect(firstMessages({ ...valid, [field]: value })).toEqual({ [field]: message });
  });

  it('reports every missing field of an empty form at once', () => {
    expect(firstMessages({})).toEqual({
      firstName: 'contact.validation.firstName.required',
      lastName: 'contact.validation.lastName.required',
      phoneNumber: 'contact.validation.phone.required',
      content: 'contact.validation.content.required',
      consent: 'contact.validation.consent.required',
    });
  });

  it.each([
    ['left out', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['null', null],
  ])('takes an email that is %s as no email', (_, email) => {
    expect(contactMessageSchema.parse({ ...valid, email }).email).toBeNull();
  });

  it('counts content in characters, so 300 emoji fit and 301 do not', () => {
    expect(firstMessages({ ...valid, content: '😀'.repeat(CONTENT_MAX_LENGTH) })).toEqual({});
    expect(firstMessages({ ...valid, content: 'ą'.repeat(CONTENT_MAX_LENGTH + 1) })).toEqual({
      content: 'contact.validation.content.tooLong',
    });
    expect(characterCount('😀ą')).toBe(2);
  });

  it('needs the language of the message on the server', () => {
    expect(contactRequestSchema.parse({ ...valid, language: 'en' }).language).toBe('en');
    expect(contactRequestSchema.safeParse({ ...valid, language: 'de' }).success).toBe(false);
    expect(contactRequestSchema.safeParse(valid).success).toBe(false);
  });
});

describe('phone numbers', () => {
  it.each([
    ['1234567', true, false],
    ['12 345 67', true, false],
    ['600100200', true, true],
    ['600 100 200', true, true],
    ['+48600100200', true, true],
    ['+48 600 100 200', true, true],
    ['+48 60010020', true, false],
    ['+48600', false, false],
    ['+491701234567', true, false],
    ['+123456789', true, false],
    ['0048600100200', true, false],
    ['6001002000', true, false],
    ['+12345678', false, false],
    ['123456', false, false],
    ['', false, false],
  ])('%j: valid %s, Polish %s', (phone, valid, polish) => {
    expect(isValidPhoneNumber(phone)).toBe(valid);
    expect(isPolishPhoneNumber(phone)).toBe(polish);
  });
});
