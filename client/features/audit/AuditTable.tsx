import type { AuditItem } from '@common/audit';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { auditTypeKey } from './audit-labels';

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

/** Date (in the user's language and time zone), type, and the spec's description: type plus IP. */
export function AuditTable({ items, busy }: { items: readonly AuditItem[]; busy: boolean }) {
  const t = useT();
  const intl = useIntl();
  return (
    <Table aria-label={t('audit.table.label')} aria-busy={busy || undefined} className="audit-table">
      <TableHeader>
        <Column isRowHeader>{t('audit.column.date')}</Column>
        <Column>{t('audit.column.type')}</Column>
        <Column>{t('audit.column.description')}</Column>
      </TableHeader>
      <TableBody renderEmptyState={() => <p className="audit-table__empty">{t('audit.empty')}</p>}>
        {items.map((item, index) => {
          const typeName = t(auditTypeKey(item.type));
          return (
            <Row key={`${item.createdAt}-${index}`} id={index}>
              <Cell>
                <time dateTime={item.createdAt}>{intl.formatDate(item.createdAt, DATE_TIME)}</time>
              </Cell>
              <Cell>{typeName}</Cell>
              <Cell>{item.ip ? t('audit.entry.description', { type: typeName, ip: item.ip }) : typeName}</Cell>
            </Row>
          );
        })}
      </TableBody>
    </Table>
  );
}
