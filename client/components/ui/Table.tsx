import {
  Cell as AriaCell,
  Column as AriaColumn,
  Row as AriaRow,
  Table as AriaTable,
  TableBody as AriaTableBody,
  TableHeader as AriaTableHeader,
  type CellProps,
  type ColumnProps,
  type RowProps,
  type TableBodyProps,
  type TableHeaderProps,
  type TableProps as AriaTableProps,
} from 'react-aria-components';
import { cx } from './classes';
import './Table.css';

export type TableProps = Omit<AriaTableProps, 'className'> & {
  /** Tables need a name: what the rows are, e.g. "Audit entries". */
  'aria-label': string;
  className?: string;
};

/**
 * A data table (grid semantics, arrow-key navigation between cells). It scrolls sideways inside
 * its own box on narrow screens instead of widening the page.
 */
export function Table({ className, ...props }: TableProps) {
  return (
    <div className="table-scroll">
      <AriaTable {...props} className={cx('table', className)} />
    </div>
  );
}

export function TableHeader<T extends object>({ className, ...props }: Omit<TableHeaderProps<T>, 'className'> & { className?: string }) {
  return <AriaTableHeader {...props} className={cx('table__header', className)} />;
}

export function Column({ className, ...props }: Omit<ColumnProps, 'className'> & { className?: string }) {
  return <AriaColumn {...props} className={cx('table__column', className)} />;
}

export function TableBody<T extends object>({ className, ...props }: Omit<TableBodyProps<T>, 'className'> & { className?: string }) {
  return <AriaTableBody {...props} className={cx('table__body', className)} />;
}

export function Row<T extends object>({ className, ...props }: Omit<RowProps<T>, 'className'> & { className?: string }) {
  return <AriaRow {...props} className={cx('table__row', className)} />;
}

export function Cell({ className, ...props }: Omit<CellProps, 'className'> & { className?: string }) {
  return <AriaCell {...props} className={cx('table__cell', className)} />;
}
