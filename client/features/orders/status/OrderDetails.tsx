import type { OrderStatusView } from '@common/types/orders';
import { useIntl, useLanguage, useT } from '../../../lib/intl';
import { PAYMENT_STATUS_LABELS, SHIPMENT_STATUS_LABELS } from '../../../lib/order-labels';
import { formatMoney } from '../money';

/** What was ordered, for how much, and how far its payment and shipment got. */
export function OrderDetails({ view }: { view: OrderStatusView }) {
  const t = useT();
  const intl = useIntl();
  const lang = useLanguage();
  const { order } = view;
  return (
    <dl className="details order-details">
      <div>
        <dt>{t('orders.status.number')}</dt>
        <dd className="details__number">{order.number}</dd>
      </div>
      <div>
        <dt>{t('orders.summary.product')}</dt>
        <dd>{order.portalProduct.name[lang]}</dd>
      </div>
      <div>
        <dt>{t('orders.summary.description')}</dt>
        <dd>{order.portalProduct.description[lang]}</dd>
      </div>
      {order.consultation && (
        <div>
          <dt>{t('orders.summary.slot')}</dt>
          <dd>{intl.formatDate(order.consultation.startsAt, { dateStyle: 'full', timeStyle: 'short' })}</dd>
        </div>
      )}
      <div>
        <dt>{t('orders.summary.price')}</dt>
        <dd>{formatMoney(order.price, lang)}</dd>
      </div>
      <div>
        <dt>{t('orders.status.payment')}</dt>
        <dd>{t(PAYMENT_STATUS_LABELS[view.status])}</dd>
      </div>
      <div>
        <dt>{t('orders.status.shipment')}</dt>
        <dd>{t(SHIPMENT_STATUS_LABELS[order.shipmentStatus])}</dd>
      </div>
    </dl>
  );
}
