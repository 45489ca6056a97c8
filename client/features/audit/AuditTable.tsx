import type { AuditItem } from '@common/audit';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { auditTypeKey, describeAuditEntry } from './audit-labels';

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

/**
 * Date (in the user's language and time zone), type, and the spec's description: type plus IP.
 * One markup for every width: on a phone each entry is a card headed by its date (Table.css).
 */
export function AuditTable({ items, busy }: { items: readonly AuditItem[]; busy: boolean }) {
  const t = useT();
  const intl = useIntl();
  return (
    <div className="table-cards-box">
      <Table aria-label={t('audit.table.label')} aria-busy={busy || undefined} className="audit-table table--cards">
        <TableHeader>
          <Column isRowHeader>{t('audit.column.date')}</Column>
          <Column>{t('audit.column.type')}</Column>
          <Column>{t('audit.column.description')}</Column>
        </TableHeader>
        <TableBody renderEmptyState={() => <p className="audit-table__empty">{t('audit.empty')}</p>}>
          {items.map((item, index) => (
            <Row key={`${item.createdAt}-${index}`} id={index}>
              <Cell>
                <time dateTime={item.createdAt}>{intl.formatDate(item.createdAt, DATE_TIME)}</time>
              </Cell>
              <Cell data-label={t('audit.column.type')}>{t(auditTypeKey(item.type))}</Cell>
              <Cell className="audit-table__description" data-label={t('audit.column.description')}>
                {describeAuditEntry(t, item)}
              </Cell>
            </Row>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
