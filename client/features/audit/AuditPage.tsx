import { useLocation } from 'wouter';
import { AUDIT_PAGE_SIZE } from '@common/audit';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { routeForPath } from '../../routes/paths';
import { Pagination } from '../../components/ui/Pagination';
import { useT } from '../../lib/intl';
import { AuditFiltersForm } from './AuditFiltersForm';
import { AuditTable } from './AuditTable';
import { useAuditEntries } from './use-audit-entries';
import { useAuditFilters } from './use-audit-filters';
import './audit.css';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageTitle } from '../../components/ui/PageTitle';

/**
 * audit and portal_audit: the same screen, headed by the portal its path belongs to. The server
 * answers only the caller's own entries, so the page never filters by owner itself.
 */
export default function AuditPage() {
  const t = useT();
  const [location] = useLocation();
  const title = t(routeForPath(location)?.route.name === 'portal_audit' ? 'audit.title.portal' : 'audit.title.result');
  useDocumentTitle(title);
  const [filters, changeFilters] = useAuditFilters();
  const entries = useAuditEntries(filters);
  const total = entries.page?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));

  return (
    <article className="card audit-page">
      <header>
        <PageTitle className="audit-page__title">{title}</PageTitle>
        <p className="audit-page__lead">{t('audit.lead')}</p>
      </header>
      <AuditFiltersForm filters={filters} onChange={changeFilters} />
      {entries.failed ? (
        <LoadFailure message={t('audit.loadFailed')} onRetry={entries.retry} />
      ) : entries.page ? (
        <>
          <p className="audit-page__count" role="status">
            {t('audit.count', { total })}
          </p>
          <AuditTable items={entries.page.items} busy={entries.loading} />
          {(total > 0 || filters.page > 1) && (
            <Pagination
              page={filters.page}
              pageCount={Math.max(pageCount, filters.page)}
              onPageChange={(page) => changeFilters({ page })}
            />
          )}
        </>
      ) : (
        <p className="audit-page__loading" role="status">
          {t('audit.loading')}
        </p>
      )}
    </article>
  );
}
