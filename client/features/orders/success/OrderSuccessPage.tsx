import { useParams } from 'wouter';
import { TextPage } from '../../../components/TextPage';
import { LinkButton } from '../../../components/ui/LinkButton';
import type { MessageKey } from '../../../lib/intl';
import { useT } from '../../../lib/intl';
import { pathFor } from '../../../routes/paths';

/** Written out key by key: the catalog test finds used keys by their literal text. */
const TEXTS: Readonly<Record<'order' | 'payment', { title: MessageKey; body: MessageKey }>> = {
  order: { title: 'orders.success.order.title', body: 'orders.success.order.body' },
  payment: { title: 'orders.success.payment.title', body: 'orders.success.payment.body' },
};

/**
 * success (/:type/success) for `order` and `payment`; contact has its own page. Any other type
 * is a path nobody links to: it reads as an order's, the milder of the two.
 */
export default function OrderSuccessPage() {
  const t = useT();
  const { type } = useParams<{ type?: string }>();
  const texts = type === 'payment' ? TEXTS.payment : TEXTS.order;
  return (
    <TextPage title={t(texts.title)}>
      <p>{t(texts.body)}</p>
      <p className="text-page__back">
        <LinkButton href={pathFor('mammography_screenings')}>{t('orders.success.toScreenings')}</LinkButton>
      </p>
    </TextPage>
  );
}
