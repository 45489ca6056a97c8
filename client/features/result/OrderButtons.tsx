import { useId } from 'react';
import { Card } from '../../components/ui/Card';
import { LinkButton } from '../../components/ui/LinkButton';
import { useT } from '../../lib/intl';
import { useApiGet } from '../../lib/use-api-get';
import { pathFor } from '../../routes/paths';

/** The part of `GET /api/screening/order-copy/{id}` these buttons need (docs/api.md). */
type CopyOrderAvailability = { canOrder: boolean };

/**
 * A patient's ways to order for this screening (spec section 4). The result answer does not say
 * whether an order of the screening is still open, so the copy-order form's own answer does: a
 * second copy order waits until the open one is done. Until it is known the link stays disabled;
 * if it cannot be known, the form's server refuses a duplicate anyway.
 */
export function OrderButtons({ screeningId }: { screeningId: number }) {
  const t = useT();
  const pendingId = useId();
  const availability = useApiGet<CopyOrderAvailability>(`/screening/order-copy/${screeningId}`);
  const copyBlocked = availability.data ? !availability.data.canOrder : availability.loading;
  return (
    <Card title={t('result.orders.title')} className="result-card">
      <div className="result-orders">
        <LinkButton
          href={pathFor('order_screening_copy', { screeningId })}
          isDisabled={copyBlocked}
          aria-describedby={availability.data?.canOrder === false ? pendingId : undefined}
        >
          {t('result.orders.copy')}
        </LinkButton>
        <LinkButton href={pathFor('buy_consultation', { id: screeningId })} variant="secondary">
          {t('result.orders.buy')}
        </LinkButton>
      </div>
      {availability.data?.canOrder === false && (
        <p id={pendingId} className="result-orders__note">
          {t('result.orders.copyPending')}
        </p>
      )}
    </Card>
  );
}
