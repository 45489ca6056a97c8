import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './contact';
import { isIdentityDocumentNumber, normalizeDocumentNumber } from './identity-documents';

/**
 * The copy-order form's rules (spec sections 3 and 5, DECISIONS.md 9), shared by the browser
 * (messages under the fields) and the server (`POST /api/screening/order-copy/{id}` answers the
 * same issues as 400 VALIDATION, one per field path). Messages are catalog keys.
 */

/** The request types the form offers (spec section 3), in its order. */
export const REQUEST_TYPES = ['result', 'survey', 'digital_images', 'inspection'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** Document receiver (spec section 3): 0 pick up in person, 1 send on address, 2 privileged pick up. */
export type DocReceiver = 0 | 1 | 2;
export const SEND_ON_ADDRESS: DocReceiver = 1;
export const PRIVILEGED_PICK_UP: DocReceiver = 2;

const POSTAL_CODE_PATTERN = /^\d{2}-\d{3}$/;
/** Address parts: a street name is at most about 60 characters in TERYT ULIC; room for more. */
const ADDRESS_PART_MAX_LENGTH = 100;
const HOUSE_NUMBER_MAX_LENGTH = 20;

/**
 * The postal code as typed (spec section 5): digits only, a dash inserted after two digits, cut
 * at six characters. "02495" becomes "02-495"; the dash a patient types herself is kept once.
 */
export function formatPostalCode(typed: string): string {
  const digits = typed.replace(/\D/g, '');
  const formatted = digits.length > 2 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : digits;
  return formatted.slice(0, 6);
}

const optionalText = (max: number, message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z.string({ error: message }).trim().max(max, message).nullish(),
  );

const optionalEmail = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z
    .string({ error: 'orderCopy.validation.email.invalid' })
    .trim()
    .pipe(z.email('orderCopy.validation.email.invalid').max(EMAIL_MAX_LENGTH, 'orderCopy.validation.email.invalid'))
    .nullish(),
);

const positiveId = (message: string) =>
  z.preprocess((value) => (value === '' ? null : value), z.number({ error: message }).int(message).positive(message).nullish());

const addressSchema = z.object({
  province: positiveId('orderCopy.validation.province.required'),
  city: positiveId('orderCopy.validation.city.required'),
  postalCode: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z.string({ error: 'orderCopy.validation.postalCode.required' }).optional(),
  ),
  street: optionalText(ADDRESS_PART_MAX_LENGTH, 'orderCopy.validation.street.required'),
  houseNumber: optionalText(HOUSE_NUMBER_MAX_LENGTH, 'orderCopy.validation.houseNumber.required'),
  apartmentNumber: optionalText(HOUSE_NUMBER_MAX_LENGTH, 'orderCopy.validation.apartmentNumber.tooLong'),
});

const privilegedPersonSchema = z.object({
  name: optionalText(NAME_MAX_LENGTH * 2, 'orderCopy.validation.privilegedPerson.name.required'),
  id: optionalText(20, 'orderCopy.validation.privilegedPerson.id.invalid'),
});

/**
 * The form's body. Address and privileged person are read only for the receiver that needs them
 * (the form shows them only then): what the other receivers send there is ignored and not kept.
 */
export const copyOrderFormSchema = z
  .object({
    // Each rule that a patient can break in the form is checked below, so she sees every message
    // at once; a wrong type here only comes from a hand-made request.
    requestTypes: z.array(z.enum(REQUEST_TYPES, { error: 'orderCopy.validation.requestTypes.required' })).optional(),
    requestDigitalImage: z.boolean({ error: 'errors.generic' }).optional(),
    healthCareInstitution: optionalText(300, 'orderCopy.validation.healthCareInstitution.required'),
    docReceiver: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'orderCopy.validation.docReceiver.required' }).nullish(),
    email: optionalEmail,
    address: addressSchema.optional(),
    privilegedPerson: privilegedPersonSchema.optional(),
    statement1: z.boolean({ error: 'orderCopy.validation.statement1.required' }).optional(),
    statement2: z.boolean({ error: 'orderCopy.validation.statement2.required' }).optional(),
    language: z.enum(['pl', 'en'], { error: 'errors.generic' }).default('pl'),
  })
  .superRefine((form, context) => {
    const issue = (path: (string | number)[], message: string) => context.addIssue({ code: 'custom', path, message });
    if (!form.requestTypes?.length) issue(['requestTypes'], 'orderCopy.validation.requestTypes.required');
    if (!form.healthCareInstitution) issue(['healthCareInstitution'], 'orderCopy.validation.healthCareInstitution.required');
    if (form.docReceiver === undefined || form.docReceiver === null) issue(['docReceiver'], 'orderCopy.validation.docReceiver.required');
    if (form.docReceiver === SEND_ON_ADDRESS) {
      if (!form.email) issue(['email'], 'orderCopy.validation.email.required');
      const address = form.address ?? {};
      if (!address.province) issue(['address', 'province'], 'orderCopy.validation.province.required');
      if (!address.city) issue(['address', 'city'], 'orderCopy.validation.city.required');
      if (!address.postalCode) issue(['address', 'postalCode'], 'orderCopy.validation.postalCode.required');
      else if (!POSTAL_CODE_PATTERN.test(address.postalCode)) issue(['address', 'postalCode'], 'orderCopy.validation.postalCode.invalid');
      if (!address.street) issue(['address', 'street'], 'orderCopy.validation.street.required');
      if (!address.houseNumber) issue(['address', 'houseNumber'], 'orderCopy.validation.houseNumber.required');
    }
    if (form.docReceiver === PRIVILEGED_PICK_UP) {
      const person = form.privilegedPerson ?? {};
      if (!person.name) issue(['privilegedPerson', 'name'], 'orderCopy.validation.privilegedPerson.name.required');
      if (!person.id) issue(['privilegedPerson', 'id'], 'orderCopy.validation.privilegedPerson.id.required');
      else if (!isIdentityDocumentNumber(person.id)) issue(['privilegedPerson', 'id'], 'orderCopy.validation.privilegedPerson.id.invalid');
    }
    if (form.statement1 !== true) issue(['statement1'], 'orderCopy.validation.statement1.required');
    if (form.statement2 !== true) issue(['statement2'], 'orderCopy.validation.statement2.required');
  })
  .transform((form) => {
    // The rules above passed, so what they require is there.
    const requestTypes = REQUEST_TYPES.filter((type) => form.requestTypes!.includes(type));
    return {
      requestTypes,
      // The images come on a disc with a viewer licence exactly when they are asked for.
      requestDigitalImage: requestTypes.includes('digital_images'),
      healthCareInstitution: form.healthCareInstitution!,
      docReceiver: form.docReceiver!,
      email: form.email ?? null,
      language: form.language,
      address:
        form.docReceiver === SEND_ON_ADDRESS && form.address
          ? {
              provinceId: form.address.province!,
              cityId: form.address.city!,
              postalCode: form.address.postalCode!,
              street: form.address.street!,
              houseNumber: form.address.houseNumber!,
              apartmentNumber: form.address.apartmentNumber ?? null,
            }
          : null,
      privilegedPerson:
        form.docReceiver === PRIVILEGED_PICK_UP && form.privilegedPerson
          ? { name: form.privilegedPerson.name!, id: normalizeDocumentNumber(form.privilegedPerson.id!) }
          : null,
    };
  });

/** What the form sends (before the rules), e.g. `{ docReceiver: 1, address: { province: 7, city: 1234, ... } }`. */
export type CopyOrderFormInput = z.input<typeof copyOrderFormSchema>;
/** What the server keeps. */
export type CopyOrderForm = z.output<typeof copyOrderFormSchema>;

/** Field paths in the order of the form, so focus can go to the first invalid one. */
export const COPY_ORDER_FIELDS = [
  'requestTypes',
  'healthCareInstitution',
  'docReceiver',
  'email',
  'address.province',
  'address.city',
  'address.postalCode',
  'address.street',
  'address.houseNumber',
  'address.apartmentNumber',
  'privilegedPerson.name',
  'privilegedPerson.id',
  'statement1',
  'statement2',
] as const;
export type CopyOrderField = (typeof COPY_ORDER_FIELDS)[number];
