import type { OrderStatusView } from '@common/types/orders';
import { Button } from '../../../components/ui/Button';
import { useIntl, useT } from '../../../lib/intl';
import type { OrderActions } from '../use-order-actions';
import './status.css';

/** "Pay again" and "Cancel order" for an order still waiting for its payment, and until when it waits. */
export function UnpaidOrderActions({ order, actions }: { order: OrderStatusView['order']; actions: OrderActions }) {
  const t = useT();
  const intl = useIntl();
  if (!order.canPay && !order.canCancel) return null;
  return (
    <div className="order-actions">
      {order.expiresAt && (
        <p className="order-actions__deadline">
          {t('orders.waitsUntil', { time: intl.formatDate(order.expiresAt, { dateStyle: 'medium', timeStyle: 'short' }) })}
        </p>
      )}
      <div className="order-actions__buttons">
        {order.canPay && (
          <Button
            isPending={actions.busy === 'pay'}
            isDisabled={actions.busy !== null}
            onPress={() => void actions.pay(order.id, order.consultation?.id)}
          >
            {t('orders.payAgain')}
          </Button>
        )}
        {order.canCancel && (
          <Button
            variant="danger"
            isPending={actions.busy === 'cancel'}
            isDisabled={actions.busy !== null}
            onPress={() => void actions.cancel(order.id)}
          >
            {t('orders.cancel')}
          </Button>
        )}
      </div>
    </div>
  );
}
