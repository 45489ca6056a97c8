import { useCallback } from 'react';
import { useSearch } from 'wouter';
import { Button } from '../../../components/ui/Button';
import { LinkButton } from '../../../components/ui/LinkButton';
import { LoadFailure } from '../../../components/ui/LoadFailure';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useT } from '../../../lib/intl';
import { pathFor } from '../../../routes/paths';
import { OrderStateMessage } from '../status/OrderStateMessage';
import { UnpaidOrderActions } from '../status/UnpaidOrderActions';
import { useOrderActions } from '../use-order-actions';
import { useOrderStatus } from '../use-order-status';
import { paymentOutcome } from './payment-outcome';
import { usePaymentConfirmation } from './use-payment-confirmation';
import './payment-result.css';
import { PageTitle } from '../../../components/ui/PageTitle';

function positiveId(value: string | null): number | null {
  return value !== null && /^[1-9]\d*$/.test(value) ? Number(value) : null;
}

/**
 * after_payment (/payment?paymentId&screeningId&error): where the provider's checkout returns
 * after a copy order. The status shown is the server's verified one, never the return itself.
 */
export default function PaymentResultPage() {
  const t = useT();
  useDocumentTitle(t('orders.payment.title'));
  const query = new URLSearchParams(useSearch());
  const screeningId = positiveId(query.get('screeningId'));
  const paymentId = positiveId(query.get('paymentId'));
  const confirmation = usePaymentConfirmation(screeningId, paymentId);
  const orderStatus = useOrderStatus(confirmation.confirmation?.orderId ?? null);
  const { reload: reloadConfirmation } = confirmation;
  const { reload: reloadOrder } = orderStatus;
  const reloadAll = useCallback(() => {
    reloadConfirmation();
    reloadOrder();
  }, [reloadConfirmation, reloadOrder]);
  const actions = useOrderActions(reloadAll);

  // A return without the ids names no payment: nothing can be verified, so it counts as failed.
  const status = screeningId === null || paymentId === null ? 'UNKNOWN' : (confirmation.confirmation?.status ?? null);
  const outcome = confirmation.failed ? null : paymentOutcome(status, query.has('error'));
  const backHref = screeningId === null ? pathFor('mammography_screenings') : pathFor('order_screening_copy', { screeningId });
  const order = orderStatus.view?.order;

  return (
    <article className="card order-page">
      <PageTitle>{t('orders.payment.title')}</PageTitle>
      <OrderStateMessage tone={outcome?.tone ?? (confirmation.failed ? null : 'progress')}>
        {t(outcome?.key ?? 'orders.payment.checking')}
      </OrderStateMessage>
      {confirmation.failed && <LoadFailure message={t('orders.payment.checkError')} onRetry={confirmation.reload} />}
      <div className="payment-result__links">
        {outcome?.reload && (
          <Button variant="secondary" isPending={confirmation.loading} onPress={reloadAll}>
            {t('orders.payment.reload')}
          </Button>
        )}
        {outcome?.backLink && (
          <LinkButton href={backHref} variant="secondary">
            {t(screeningId === null ? 'orders.payment.backToScreenings' : 'orders.payment.backToOrder')}
          </LinkButton>
        )}
        {outcome?.tone === 'success' && (
          <LinkButton href={pathFor('mammography_screenings')} variant="secondary">
            {t('orders.payment.backToScreenings')}
          </LinkButton>
        )}
      </div>
      {order && outcome && outcome.tone !== 'success' && <UnpaidOrderActions order={order} actions={actions} />}
    </article>
  );
}
