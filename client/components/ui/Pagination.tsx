import { useT } from '../../lib/intl';
import { Button } from './Button';
import './Pagination.css';

export type PaginationProps = {
  /** From 1. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
};

/**
 * Previous and next around "page n of m". The position is a polite live region, so a screen
 * reader hears the new page after pressing either button.
 */
export function Pagination({ page, pageCount, onPageChange }: PaginationProps) {
  const t = useT();
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <Button variant="secondary" isDisabled={page <= 1} onPress={() => onPageChange(page - 1)}>
        {t('pagination.previous')}
      </Button>
      <span className="pagination__status" role="status">
        {t('pagination.status', { page, pages: pageCount })}
      </span>
      <Button variant="secondary" isDisabled={page >= pageCount} onPress={() => onPageChange(page + 1)}>
        {t('pagination.next')}
      </Button>
    </nav>
  );
}
