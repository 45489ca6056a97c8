import { useState } from 'react';
import { useParams } from 'wouter';
import type { ConsultationSlot, Product } from '@common/types/orders';
import type { ScreeningResult } from '@common/types/result';
import { Button } from '../../../components/ui/Button';
import { LoadFailure } from '../../../components/ui/LoadFailure';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useIntl, useLanguage, useT } from '../../../lib/intl';
import { DOCUMENT_LANGUAGE_LABELS, documentLanguage } from '../../../lib/screening-result';
import { useApiGet } from '../../../lib/use-api-get';
import { useSession } from '../../../stores/session-store';
import { OrderStateMessage } from '../status/OrderStateMessage';
import { CheckoutSummary } from './CheckoutSummary';
import { DocumentChoice } from './DocumentChoice';
import { ProductChoice } from './ProductChoice';
import { SlotChoice } from './SlotChoice';
import { useCheckout } from './use-checkout';
import '../status/status.css';
import './checkout.css';
import { PageTitle } from '../../../components/ui/PageTitle';

/** The copy of records has its own form (order_screening_copy); this page sells the rest. */
const isSoldHere = (product: Product) => product.kind !== 'copy';

/** buy_consultation (/buy-consultation/screening/:id): a translated description or a consultation. */
export default function CheckoutPage() {
  const t = useT();
  const intl = useIntl();
  const lang = useLanguage();
  useDocumentTitle(t('orders.checkout.title'));
  const screeningId = Number(useParams<{ id: string }>().id);
  const { user } = useSession();
  const products = useApiGet<Product[]>('/products');
  const result = useApiGet<ScreeningResult>('/screening/result', { id: screeningId });
  const slots = useApiGet<ConsultationSlot[]>('/consultations');
  const [productId, setProductId] = useState<number | null>(null);
  const [chosenDocumentId, setDocumentId] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<number | null>(null);
  const checkout = useCheckout({
    screeningId,
    userId: user?.id ?? null,
    language: lang,
    // Someone else was quicker: her choice is gone, and the list shows what is still free.
    onSlotTaken: () => {
      setSlotId(null);
      slots.reload();
    },
  });

  const offer = (products.data ?? []).filter(isSoldHere);
  const product = offer.find((candidate) => candidate.id === productId) ?? null;
  const descriptions = (result.data?.documents ?? []).filter((document) => document.type === 'description');
  // The Polish original (written first) unless she picks another.
  const document = descriptions.find((candidate) => candidate.id === chosenDocumentId) ?? descriptions[0] ?? null;
  const slot = slots.data?.find((candidate) => candidate.id === slotId) ?? null;
  const consultation = product?.kind === 'consultation';
  const ready = product !== null && result.data !== null && (consultation ? slot !== null : document !== null);
  const placed = checkout.placed;

  if (products.failed || result.failed) {
    const retry = () => (products.failed ? products.reload() : result.reload());
    return (
      <article className="card order-page">
        <PageTitle>{t('orders.checkout.title')}</PageTitle>
        <LoadFailure message={t('orders.checkout.loadError')} onRetry={retry} />
      </article>
    );
  }

  return (
    <article className="card order-page checkout">
      <PageTitle>{t('orders.checkout.title')}</PageTitle>
      <OrderStateMessage tone={products.data && result.data ? null : 'progress'}>{t('app.loading')}</OrderStateMessage>
      {products.data && offer.length === 0 && <p>{t('orders.checkout.noProducts')}</p>}
      {offer.length > 0 && result.data && (
        <>
          <ProductChoice products={offer} value={productId} onChange={setProductId} />
          {product && !consultation && <DocumentChoice descriptions={descriptions} value={document?.id ?? null} onChange={setDocumentId} />}
          {consultation && <SlotChoice slots={slots} value={slotId} onChange={setSlotId} />}
          {product && (
            <CheckoutSummary
              product={product}
              documentLabel={!consultation && document ? t(DOCUMENT_LANGUAGE_LABELS[documentLanguage(document.name)]) : null}
              slot={slot}
              user={user}
              examinedAt={result.data.screening.examinedAt}
            />
          )}
          <OrderStateMessage tone={placed?.slotId ? 'info' : null}>
            {placed && t('orders.checkout.slotHeld', { time: intl.formatTime(placed.expiresAt, { timeStyle: 'short' }) })}
          </OrderStateMessage>
          <p className="checkout__pay">
            <Button
              isDisabled={!ready || checkout.phase !== 'idle'}
              isPending={checkout.phase !== 'idle'}
              onPress={() =>
                product && void checkout.pay({ product, documentId: document?.id ?? null, slotId: consultation ? slotId : null })
              }
            >
              {t('orders.pay')}
            </Button>
          </p>
        </>
      )}
    </article>
  );
}
