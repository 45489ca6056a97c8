import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { PaymentRedirect } from '@common/types/orders';
import { COPY_ORDER_FIELDS, type CopyOrderField } from '@common/validation/order-copy';
import { useFocusAfterRefusal, useOneSubmission } from '../../../components/ui/form-submission';
import { api, isApiError } from '../../../lib/api';
import { useLanguage } from '../../../lib/intl';
import { notify } from '../../../stores/notification-store';
import { goToCheckout } from '../orders-api';
import { notifyOrderFailure } from '../order-messages';
import {
  copyOrderBody,
  copyOrderErrors,
  EMPTY_COPY_ORDER,
  validateCopyOrder,
  type CopyOrderErrors,
  type CopyOrderValues,
} from './copy-order-values';

/** Which fields a change clears the server's message of. */
const FIELD_OF: Partial<Record<keyof CopyOrderValues, CopyOrderField>> = {
  requestTypes: 'requestTypes',
  docReceiver: 'docReceiver',
  email: 'email',
  province: 'address.province',
  city: 'address.city',
  postalCode: 'address.postalCode',
  street: 'address.street',
  houseNumber: 'address.houseNumber',
  apartmentNumber: 'address.apartmentNumber',
  privilegedName: 'privilegedPerson.name',
  privilegedId: 'privilegedPerson.id',
  statement1: 'statement1',
  statement2: 'statement2',
};

/**
 * The copy-order form's state (spec sections 3 and 5): values, every message shown at once after
 * the first submit, the server's messages in place, one request at a time, then the checkout (or,
 * for a free copy, the order's own page).
 */
export function useCopyOrderForm(screeningId: number | null, info: { email: string; healthCareInstitution: string }) {
  const [, navigate] = useLocation();
  const language = useLanguage();
  const areaRef = useRef<HTMLDivElement>(null);
  // Her account's e-mail, which she may change.
  const [values, setValues] = useState<CopyOrderValues>(() => ({ ...EMPTY_COPY_ORDER, email: info.email }));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<CopyOrderErrors>({});
  const { isPending, submitWith } = useOneSubmission();

  const body = copyOrderBody(values, info.healthCareInstitution, language);
  const clientErrors = validateCopyOrder(body);
  const errorOf = (field: CopyOrderField) => serverErrors[field] ?? (submitted ? clientErrors[field] : undefined);
  const { noteRefusal } = useFocusAfterRefusal(areaRef, () => COPY_ORDER_FIELDS.find((name) => errorOf(name)));

  function change<K extends keyof CopyOrderValues>(key: K, value: CopyOrderValues[K]) {
    setValues((current) => ({ ...current, [key]: value }));
    const field = FIELD_OF[key];
    if (field) setServerErrors((current) => ({ ...current, [field]: undefined }));
  }

  const onSubmit = submitWith(async () => {
    setSubmitted(true);
    // Spec section 5: submit proceeds only with the screening of the route.
    if (screeningId === null) return;
    if (Object.keys(clientErrors).length > 0) {
      noteRefusal();
      return;
    }
    try {
      const redirect = await api.post<PaymentRedirect>(`/screening/order-copy/${screeningId}`, body);
      // A free copy needs no payment: its own page, inside the app.
      if (redirect.redirectUri.startsWith('/')) {
        notify({ kind: 'success', key: 'orderCopy.placed' });
        navigate(redirect.redirectUri);
      } else goToCheckout(redirect);
    } catch (error) {
      if (isApiError(error, 'VALIDATION')) {
        setServerErrors(copyOrderErrors(error.issues));
        noteRefusal();
        return;
      }
      notifyOrderFailure(error);
    }
  });

  return { areaRef, values, isPending, errorOf, change, onSubmit };
}
