import { useCallback, useEffect, useState } from 'react';
import type { PaymentConfirmation } from '@common/types/orders';
import { confirmPayment } from '../orders-api';

export type ConfirmationLoad = {
  confirmation: PaymentConfirmation | null;
  loading: boolean;
  failed: boolean;
  reload: () => void;
};

/**
 * The verified status of the payment the checkout returned from, asked again on `reload` (a
 * PENDING payment settles a moment later). Null ids (a return without them) ask nothing.
 */
export function usePaymentConfirmation(screeningId: number | null, paymentId: number | null): ConfirmationLoad {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ key: string; confirmation: PaymentConfirmation | null; failed: boolean }>({
    key: '',
    confirmation: null,
    failed: false,
  });
  const key = `${screeningId}/${paymentId}#${attempt}`;
  const asks = screeningId !== null && paymentId !== null;

  useEffect(() => {
    if (screeningId === null || paymentId === null) return;
    let current = true;
    const answered = `${screeningId}/${paymentId}#${attempt}`;
    confirmPayment(screeningId, paymentId).then(
      (confirmation) => current && setAnswer({ key: answered, confirmation, failed: false }),
      () => current && setAnswer((previous) => ({ key: answered, confirmation: previous.confirmation, failed: true })),
    );
    return () => {
      current = false;
    };
  }, [screeningId, paymentId, attempt]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const current = answer.key === key;
  return { confirmation: answer.confirmation, loading: asks && !current, failed: current && answer.failed, reload };
}
