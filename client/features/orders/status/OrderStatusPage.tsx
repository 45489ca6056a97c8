import { useParams } from 'wouter';
import { Button } from '../../../components/ui/Button';
import { LoadFailure } from '../../../components/ui/LoadFailure';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useT } from '../../../lib/intl';
import { useOrderActions } from '../use-order-actions';
import { useOrderStatus, type OrderStatusLoad } from '../use-order-status';
import { OrderDetails } from './OrderDetails';
import { OrderStateMessage, type StateTone } from './OrderStateMessage';
import { UnpaidOrderActions } from './UnpaidOrderActions';
import type { MessageKey } from '../../../lib/intl';
import './status.css';
import { PageTitle } from '../../../components/ui/PageTitle';

function routeOrderId(param: string | undefined): number | null {
  return param !== undefined && /^\d+$/.test(param) ? Number(param) : null;
}

/** Spec section 3 "Order status view": paid, cancelled, or still on its way (everything else). */
function stateOf(load: OrderStatusLoad, knownId: boolean): { tone: StateTone; key: MessageKey } | null {
  if (!knownId || load.notFound) return { tone: 'error', key: 'orders.status.notFound' };
  if (!load.view) return load.failed ? null : { tone: 'progress', key: 'app.loading' };
  if (load.view.status === 'COMPLETED') return { tone: 'success', key: 'orders.status.completed' };
  if (load.view.status === 'CANCELED') return { tone: 'error', key: 'orders.status.canceled' };
  return { tone: 'progress', key: 'orders.status.processing' };
}

/** order_status (/order/:id/status): where a translation or consultation checkout returns to. */
export default function OrderStatusPage() {
  const t = useT();
  useDocumentTitle(t('orders.status.title'));
  const orderId = routeOrderId(useParams<{ id?: string }>().id);
  const load = useOrderStatus(orderId);
  const actions = useOrderActions(load.reload);
  const state = stateOf(load, orderId !== null);
  const { view } = load;
  const processing = view !== null && view.status !== 'COMPLETED' && view.status !== 'CANCELED';

  return (
    <article className="card order-page">
      <PageTitle>{t('orders.status.title')}</PageTitle>
      <OrderStateMessage tone={state?.tone ?? null}>{state && t(state.key)}</OrderStateMessage>
      {load.failed && <LoadFailure message={t('orders.status.loadError')} onRetry={load.reload} />}
      {view && !load.notFound && (
        <>
          <OrderDetails view={view} />
          {processing && (
            <p>
              <Button variant="secondary" isPending={load.loading} onPress={load.reload}>
                {t('orders.status.refresh')}
              </Button>
            </p>
          )}
          <UnpaidOrderActions order={view.order} actions={actions} />
        </>
      )}
    </article>
  );
}
