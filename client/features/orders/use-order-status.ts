import { useCallback, useEffect, useState } from 'react';
import type { OrderStatusView } from '@common/types/orders';
import { api, isApiError } from '../../lib/api';
import { orderStatusPath } from './orders-api';

export type OrderStatusLoad = {
  /** The last answer; kept while a refresh runs, so the page does not jump back to a spinner. */
  view: OrderStatusView | null;
  loading: boolean;
  /** The order is not hers or does not exist (the server says the same for both). */
  notFound: boolean;
  failed: boolean;
  reload: () => void;
};

/**
 * `GET /api/order/{id}/status`, asked again on `reload`. Unlike useApiGet it tells "not found"
 * apart from other failures: the page words them differently. `orderId` null asks nothing.
 */
export function useOrderStatus(orderId: number | null): OrderStatusLoad {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ key: string; view: OrderStatusView | null; error: unknown }>({ key: '', view: null, error: null });
  const key = `${orderId}#${attempt}`;

  useEffect(() => {
    if (orderId === null) return;
    const controller = new AbortController();
    const answered = `${orderId}#${attempt}`;
    api.get<OrderStatusView>(orderStatusPath(orderId), { signal: controller.signal }).then(
      (view) => setAnswer({ key: answered, view, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer((previous) => ({ key: answered, view: previous.view, error }));
      },
    );
    return () => controller.abort();
  }, [orderId, attempt]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const current = answer.key === key;
  const error = current ? answer.error : null;
  return {
    view: answer.view?.order.id === orderId ? answer.view : null,
    loading: orderId !== null && !current,
    notFound: isApiError(error, 'NOT_FOUND'),
    failed: error !== null && !isApiError(error, 'NOT_FOUND'),
    reload,
  };
}
