import type { ReactNode } from 'react';
import { cx } from '../../../components/ui/classes';

export type StateTone = 'progress' | 'success' | 'info' | 'warning' | 'error';

/**
 * Where an order's state is said. The live region stays mounted while its text changes, so the
 * change from "checking…" to the outcome is announced (a region added with its text often is not).
 */
export function OrderStateMessage({ tone, children }: { tone: StateTone | null; children?: ReactNode }) {
  return (
    <div role="status" className={cx('order-state', tone && `order-state--${tone}`)}>
      {tone === 'progress' && <span className="spinner" aria-hidden="true" />}
      {tone && <p className="order-state__text">{children}</p>}
    </div>
  );
}
