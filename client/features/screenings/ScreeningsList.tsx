import { useState } from 'react';
import { Pagination } from '../../components/ui/Pagination';
import { useT } from '../../lib/intl';
import { activeFilterCount } from './screening-filters';
import { ScreeningDetails } from './ScreeningDetails';
import { ScreeningFiltersPopover } from './ScreeningFiltersPopover';
import { ScreeningsTable } from './ScreeningsTable';
import { useScreenings } from './use-screenings';
import { useScreeningsView } from './use-screenings-view';
import { LoadFailure } from '../../components/ui/LoadFailure';

/** Spec section 9: the table shows five rows a page. */
const SCREENINGS_PAGE_SIZE = 5;

/** The screenings tab: filters, one page of the table, and the documents of the selected row. */
export function ScreeningsList() {
  const t = useT();
  const view = useScreeningsView();
  const load = useScreenings(view.filters);
  // A selection belongs to the rows on screen: another page or other filters start with none.
  const viewKey = JSON.stringify([view.page, view.filters]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [shownViewKey, setShownViewKey] = useState(viewKey);
  if (shownViewKey !== viewKey) {
    setShownViewKey(viewKey);
    setSelectedId(null);
  }

  const items = load.data?.items ?? [];
  const pageCount = Math.max(1, Math.ceil(items.length / SCREENINGS_PAGE_SIZE));
  // A page beyond the end (fewer screenings since the link was made) shows the last one.
  const page = Math.min(view.page, pageCount);
  const pageItems = items.slice((page - 1) * SCREENINGS_PAGE_SIZE, page * SCREENINGS_PAGE_SIZE);
  const selected = pageItems.find((item) => item.screening.id === selectedId) ?? null;
  const filtered = activeFilterCount(view.filters) > 0;

  return (
    <div className="screenings-list">
      <ScreeningFiltersPopover filters={view.filters} onChange={view.setFilters} />
      {load.failed ? (
        <LoadFailure message={t('screenings.loadFailed')} onRetry={load.reload} />
      ) : load.data ? (
        <>
          <p className="screenings-list__hint">{t('screenings.selectHint')}</p>
          <ScreeningsTable
            items={pageItems}
            busy={load.loading}
            selectedId={selected?.screening.id ?? null}
            onSelect={setSelectedId}
            emptyText={t(filtered ? 'screenings.emptyFiltered' : 'screenings.empty')}
          />
          {pageCount > 1 && <Pagination page={page} pageCount={pageCount} onPageChange={view.setPage} />}
          {selected && <ScreeningDetails key={selected.screening.id} item={selected} />}
        </>
      ) : (
        <p role="status" className="screenings-list__loading">
          {t('screenings.loading')}
        </p>
      )}
    </div>
  );
}
