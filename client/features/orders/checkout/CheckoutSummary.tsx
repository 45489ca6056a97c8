import { useId } from 'react';
import type { ConsultationSlot, Product } from '@common/types/orders';
import type { SessionUser } from '@common/types/session';
import { capitalizeName, displayName } from '../../../lib/display-name';
import { useIntl, useLanguage, useT } from '../../../lib/intl';
import { formatMoney } from '../money';

type SummaryProps = {
  product: Product;
  /** The chosen description's name in words ("Description (Polish)"), for a translation. */
  documentLabel: string | null;
  slot: ConsultationSlot | null;
  user: SessionUser | null;
  examinedAt: string;
};

function Row({ term, children }: { term: string; children: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** What she is about to pay for and who for, as the spec's checkout summary lists it. */
export function CheckoutSummary({ product, documentLabel, slot, user, examinedAt }: SummaryProps) {
  const t = useT();
  const intl = useIntl();
  const lang = useLanguage();
  const headingId = useId();
  const personal = user?.personalData;
  const email = user?.email ?? personal?.email ?? '';
  return (
    <section className="checkout-summary" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('orders.checkout.summary')}</h2>
      <dl className="details">
        <Row term={t('orders.summary.product')}>{product.name[lang]}</Row>
        <Row term={t('orders.summary.description')}>{documentLabel ?? product.description[lang]}</Row>
        <Row term={t('orders.summary.price')}>{formatMoney(product.price, lang)}</Row>
        {product.kind === 'consultation' ? (
          <>
            <Row term={t('orders.summary.fullName')}>{displayName(user) ?? ''}</Row>
            <Row term={t('orders.summary.screeningDate')}>{intl.formatDate(examinedAt, { dateStyle: 'long' })}</Row>
            <Row term={t('orders.summary.slot')}>
              {slot ? `${intl.formatDate(slot.startsAt, { dateStyle: 'full', timeStyle: 'short' })}, ${slot.radiologistName}` : '–'}
            </Row>
          </>
        ) : (
          <>
            <Row term={t('orders.summary.firstName')}>{capitalizeName(personal?.firstName ?? '')}</Row>
            <Row term={t('orders.summary.lastName')}>{capitalizeName(personal?.lastName ?? '')}</Row>
          </>
        )}
        <Row term={t('orders.summary.email')}>{email}</Row>
      </dl>
    </section>
  );
}
