import type { Key, Selection } from 'react-aria-components';
import type { ScreeningListItem } from '@common/types/screenings';
import { pathFor } from '../../routes/paths';
import { LinkButton } from '../../components/ui/LinkButton';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT, type MessageKey } from '../../lib/intl';
import { isDescriptionCompleted, resultWordingKey } from '../../lib/screening-result';
import { DoseCheck } from './DoseCheck';
import { PAYMENT_LABELS, SHIPMENT_LABELS } from './screening-labels';
import { canOrderCopy, shownOrder } from './shown-order';

export const EXAMINED_AT: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** The columns after the date, in order; each card repeats these names beside its values. */
const FIELD_LABELS = {
  status: 'result.table.descriptionStatus',
  result: 'result.table.result',
  testId: 'screenings.column.testId',
  order: 'screenings.column.order',
  payment: 'screenings.column.payment',
  shipment: 'screenings.column.shipment',
  dose: 'result.table.absorbedDose',
} as const satisfies Record<string, MessageKey>;

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
 *
 * One markup for every width: where the eight columns do not fit (a phone, or large text), CSS
 * lays each row out as a card headed by its date, each value under its column's name
 * (screenings.css). The grid semantics stay, so a screen reader names every value by its column
 * header in both layouts; the names drawn on the cards are hidden from it to avoid saying them twice.
 */
export function ScreeningsTable({ items, busy, selectedId, onSelect, emptyText }: Props) {
  const t = useT();
  return (
    <div className="screenings-table-box">
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
          <Column>{t(FIELD_LABELS.status)}</Column>
          <Column>{t(FIELD_LABELS.result)}</Column>
          <Column>{t(FIELD_LABELS.testId)}</Column>
          <Column>{t(FIELD_LABELS.order)}</Column>
          <Column>{t(FIELD_LABELS.payment)}</Column>
          <Column>{t(FIELD_LABELS.shipment)}</Column>
          <Column>{t(FIELD_LABELS.dose)}</Column>
        </TableHeader>
        <TableBody renderEmptyState={() => <p className="screenings-table__empty">{emptyText}</p>}>
          {items.map((item) => (
            <ScreeningRow key={item.screening.id} item={item} />
          ))}
        </TableBody>
      </Table>
    </div>
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
  const field = (name: keyof typeof FIELD_LABELS) => ({ className: 'screenings-table__field', 'data-label': t(FIELD_LABELS[name]) });

  return (
    <Row id={screening.id} textValue={examinedAt} className="screenings-table__row">
      <Cell className="screenings-table__date">
        <time dateTime={screening.createdAt}>{examinedAt}</time>
      </Cell>
      <Cell {...field('status')}>
        {isDescriptionCompleted(screening.screeningDescriptionsStatus) ? (
          <span className="result-status result-status--done">
            <span aria-hidden="true">✓ </span>
            {t('result.status.completed')}
          </span>
        ) : (
          <span className="result-status">{t('result.status.inProgress')}</span>
        )}
      </Cell>
      <Cell {...field('result')}>{wording ? t(wording) : '—'}</Cell>
      <Cell {...field('testId')}>{screening.id}</Cell>
      <Cell {...field('order')}>
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
      <Cell {...field('payment')}>{order?.payment ? t(PAYMENT_LABELS[order.payment.status]) : t('screenings.payment.none')}</Cell>
      <Cell {...field('shipment')}>{order ? t(SHIPMENT_LABELS[order.shipmentStatus]) : '—'}</Cell>
      <Cell {...field('dose')}>
        <span className="screenings-table__dose">
          {screening.absorbedDose === null ? '—' : `${intl.formatNumber(screening.absorbedDose, { maximumFractionDigits: 2 })} mGy`}
        </span>{' '}
        <DoseCheck />
      </Cell>
    </Row>
  );
}
