import type { City, Province } from '@common/types/geography';
import {
  COPY_ORDER_FIELDS,
  copyOrderFormSchema,
  PRIVILEGED_PICK_UP,
  SEND_ON_ADDRESS,
  type CopyOrderField,
  type CopyOrderFormInput,
  type DocReceiver,
  type RequestType,
} from '@common/validation/order-copy';
import type { FieldErrors } from '../../../components/ui/use-field-form';
import type { MessageKey } from '../../../lib/intl';

/** What the form holds while she fills it in. */
export type CopyOrderValues = {
  requestTypes: RequestType[];
  docReceiver: DocReceiver | null;
  email: string;
  province: Province | null;
  city: City | null;
  postalCode: string;
  street: string;
  houseNumber: string;
  apartmentNumber: string;
  privilegedName: string;
  privilegedId: string;
  statement1: boolean;
  statement2: boolean;
};

export const EMPTY_COPY_ORDER: CopyOrderValues = {
  requestTypes: ['result'],
  docReceiver: null,
  email: '',
  province: null,
  city: null,
  postalCode: '',
  street: '',
  houseNumber: '',
  apartmentNumber: '',
  privilegedName: '',
  privilegedId: '',
  statement1: false,
  statement2: false,
};

export type CopyOrderErrors = FieldErrors<CopyOrderField>;

/**
 * The messages of common/validation/order-copy.ts (the server answers the same as 400 issues),
 * written out so only known keys reach `t()`.
 */
const COPY_ORDER_VALIDATION_KEYS: ReadonlySet<string> = new Set<MessageKey>([
  'orderCopy.validation.requestTypes.required',
  'orderCopy.validation.healthCareInstitution.required',
  'orderCopy.validation.docReceiver.required',
  'orderCopy.validation.email.required',
  'orderCopy.validation.email.invalid',
  'orderCopy.validation.province.required',
  'orderCopy.validation.city.required',
  'orderCopy.validation.postalCode.required',
  'orderCopy.validation.postalCode.invalid',
  'orderCopy.validation.street.required',
  'orderCopy.validation.houseNumber.required',
  'orderCopy.validation.apartmentNumber.tooLong',
  'orderCopy.validation.privilegedPerson.name.required',
  'orderCopy.validation.privilegedPerson.id.required',
  'orderCopy.validation.privilegedPerson.id.invalid',
  'orderCopy.validation.statement1.required',
  'orderCopy.validation.statement2.required',
  // Any text field: U+0000 (pasted from a binary file), which the server refuses to store.
  'validation.unstorableCharacter',
]);

const isCopyOrderField = (path: string): path is CopyOrderField => (COPY_ORDER_FIELDS as readonly string[]).includes(path);

/** The first message of each field, from the schema's issues or the server's (paths like `address.postalCode`). */
export function copyOrderErrors(issues: Iterable<{ path: string; message: string }>): CopyOrderErrors {
  const errors: CopyOrderErrors = {};
  for (const { path, message } of issues) {
    if (!isCopyOrderField(path) || errors[path] || !COPY_ORDER_VALIDATION_KEYS.has(message)) continue;
    errors[path] = message as MessageKey;
  }
  return errors;
}

/** The body of `POST /api/screening/order-copy/{id}`: address and privileged person only for their receiver. */
export function copyOrderBody(values: CopyOrderValues, healthCareInstitution: string, language: 'pl' | 'en'): CopyOrderFormInput {
  return {
    requestTypes: values.requestTypes,
    requestDigitalImage: values.requestTypes.includes('digital_images'),
    healthCareInstitution,
    docReceiver: values.docReceiver,
    email: values.email,
    ...(values.docReceiver === SEND_ON_ADDRESS && {
      address: {
        province: values.province?.id ?? '',
        city: values.city?.id ?? '',
        postalCode: values.postalCode,
        street: values.street,
        houseNumber: values.houseNumber,
        apartmentNumber: values.apartmentNumber,
      },
    }),
    ...(values.docReceiver === PRIVILEGED_PICK_UP && { privilegedPerson: { name: values.privilegedName, id: values.privilegedId } }),
    statement1: values.statement1,
    statement2: values.statement2,
    language,
  };
}

/** Every broken rule at once, by the schema the server applies too. */
export function validateCopyOrder(body: CopyOrderFormInput): CopyOrderErrors {
  const parsed = copyOrderFormSchema.safeParse(body);
  if (parsed.success) return {};
  return copyOrderErrors(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
}
