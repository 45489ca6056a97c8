import type { Key, Selection } from 'react-aria-components';
import type { ScreeningListItem } from '@common/types/screenings';
import { pathFor } from '../../routes/paths';
import { LinkButton } from '../../components/ui/LinkButton';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { isDescriptionCompleted, resultWordingKey } from '../../lib/screening-result';
import { DoseCheck } from './DoseCheck';
import { PAYMENT_LABELS, SHIPMENT_LABELS } from './screening-labels';
import { canOrderCopy, shownOrder } from './shown-order';

export const EXAMINED_AT: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

type Props = {
  items: readonly ScreeningListItem[];
  busy: boolean;
  selectedId: number | null;
  onSelect: (id: number | null) => void;
  emptyText: string;
};

function selectedIdOf(selection: Selection): number | null {
  if (selection === 'all') return null;
  const [first] = selection as Set<Key>;
  return first === undefined ? null : Number(first);
}

/**
 * One page of screenings (spec section 2). A row is selected by a click, Enter or Space and
 * deselected the same way; react-aria marks it selected for screen readers and announces it.
 */
export function ScreeningsTable({ items, busy, selectedId, onSelect, emptyText }: Props) {
  const t = useT();
  return (
    <Table
      aria-label={t('screenings.table.label')}
      aria-busy={busy || undefined}
      className="screenings-table"
      selectionMode="single"
      selectionBehavior="toggle"
      selectedKeys={selectedId === null ? [] : [selectedId]}
      onSelectionChange={(selection) => onSelect(selectedIdOf(selection))}
    >
      <TableHeader>
        <Column isRowHeader>{t('result.table.examinedAt')}</Column>
        <Column>{t('result.table.descriptionStatus')}</Column>
        <Column>{t('result.table.result')}</Column>
        <Column>{t('screenings.column.testId')}</Column>
        <Column>{t('screenings.column.order')}</Column>
        <Column>{t('screenings.column.payment')}</Column>
        <Column>{t('screenings.column.shipment')}</Column>
        <Column>{t('result.table.absorbedDose')}</Column>
      </TableHeader>
      <TableBody renderEmptyState={() => <p className="screenings-table__empty">{emptyText}</p>}>
        {items.map((item) => (
          <ScreeningRow key={item.screening.id} item={item} />
        ))}
      </TableBody>
    </Table>
  );
}

function ScreeningRow({ item }: { item: ScreeningListItem }) {
  const t = useT();
  const intl = useIntl();
  const { screening, orders } = item;
  const examinedAt = intl.formatDate(screening.createdAt, EXAMINED_AT);
  const wording = resultWordingKey(screening.result);
  const order = shownOrder(orders);
  const orderable = canOrderCopy(orders);

  return (
    <Row id={screening.id} textValue={examinedAt} className="screenings-table__row">
      <Cell>
        <time dateTime={screening.createdAt}>{examinedAt}</time>
      </Cell>
      <Cell>
        {isDescriptionCompleted(screening.screeningDescriptionsStatus) ? (
          <span className="result-status result-status--done">
            <span aria-hidden="true">✓ </span>
            {t('result.status.completed')}
          </span>
        ) : (
          <span className="result-status">{t('result.status.inProgress')}</span>
        )}
      </Cell>
      <Cell>{wording ? t(wording) : ''}</Cell>
      <Cell>{screening.id}</Cell>
      <Cell>
        <LinkButton
          variant="secondary"
          href={pathFor('order_screening_copy', { screeningId: screening.id })}
          isDisabled={!orderable}
          className="screenings-table__order"
        >
          {t('screenings.order.button')}
        </LinkButton>
        {!orderable && <span className="screenings-table__note">{t('screenings.order.pending')}</span>}
      </Cell>
      <Cell>{order?.payment ? t(PAYMENT_LABELS[order.payment.status]) : t('screenings.payment.none')}</Cell>
      <Cell>{order ? t(SHIPMENT_LABELS[order.shipmentStatus]) : '—'}</Cell>
      <Cell>
        <span className="screenings-table__dose">
          {screening.absorbedDose === null ? '—' : `${intl.formatNumber(screening.absorbedDose, { maximumFractionDigits: 2 })} mGy`}
        </span>{' '}
        <DoseCheck />
      </Cell>
    </Row>
  );
}
