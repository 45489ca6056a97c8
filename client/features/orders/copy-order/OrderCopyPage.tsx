import { useParams } from 'wouter';
import type { Province } from '@common/types/geography';
import { Card } from '../../../components/ui/Card';
import { Link } from '../../../components/ui/Link';
import { LoadFailure } from '../../../components/ui/LoadFailure';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useIntl, useT } from '../../../lib/intl';
import { useApiGet } from '../../../lib/use-api-get';
import { orderStatusPath } from '../orders-api';
import { CopyOrderForm, type CopyOrderInfo } from './CopyOrderForm';
import './copy-order.css';

function routeScreeningId(param: string | undefined): number | null {
  return param !== undefined && /^\d+$/.test(param) ? Number(param) : null;
}

/** order_screening_copy (/order-screening-copy/:screeningId): a copy of her records, by post, in person or by someone she names. */
export default function OrderCopyPage() {
  const t = useT();
  const intl = useIntl();
  useDocumentTitle(t('orderCopy.title'));
  const screeningId = routeScreeningId(useParams<{ screeningId?: string }>().screeningId);
  const info = useApiGet<CopyOrderInfo>(`/screening/order-copy/${screeningId ?? 0}`);
  const provinces = useApiGet<Province[]>('/screening/provinces');

  return (
    <Card title={t('orderCopy.title')} headingLevel={1} className="copy-order-card">
      {info.data?.examinedAt && (
        <p>{t('orderCopy.screening', { date: intl.formatDate(info.data.examinedAt, { dateStyle: 'long', timeStyle: 'short' }) })}</p>
      )}
      {(info.failed || provinces.failed) && (
        <LoadFailure message={t('orderCopy.loadError')} onRetry={() => (info.failed ? info.reload() : provinces.reload())} />
      )}
      {!info.data && !info.failed && <p role="status">{t('app.loading')}</p>}
      {info.data && !info.data.canOrder && (
        <div role="alert" className="copy-order__open">
          <p>{t('errors.ORDER_ALREADY_EXISTS')}</p>
          {info.data.openOrderId !== null && <Link href={orderStatusPath(info.data.openOrderId)}>{t('orderCopy.openOrder')}</Link>}
        </div>
      )}
      {info.data?.canOrder && provinces.data && <CopyOrderForm info={info.data} provinces={provinces.data} />}
    </Card>
  );
}
