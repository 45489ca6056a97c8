import { getLocalTimeZone, today, type CalendarDate } from '@internationalized/date';
import { useEffect, useState } from 'react';
import type { Key, Selection } from 'react-aria-components';
import { Button } from '../../components/ui/Button';
import { DateRangePicker } from '../../components/ui/DateRangePicker';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { browserTimeZone } from './screening-filters';
import { ReferralViewer } from './ReferralViewer';
import { useReferrals, type DayRangeQuery } from './use-referrals';
import { LoadFailure } from '../../components/ui/LoadFailure';

/** Typed dates change segment by segment: the list is asked again once typing pauses. */
const RANGE_DEBOUNCE_MS = 500;

type DayRange = { start: CalendarDate; end: CalendarDate };

function queryOf(range: DayRange | null): DayRangeQuery {
  return range ? { from: range.start.toString(), to: range.end.toString(), timeZone: browserTimeZone() } : null;
}

function selectedIdOf(selection: Selection): number | null {
  if (selection === 'all') return null;
  const [first] = selection as Set<Key>;
  return first === undefined ? null : Number(first);
}

/**
 * The referral screen (route referral, and the referrals tab of the screenings list): the
 * screenings with a referral, filtered by examination days; the chosen one is shown at once.
 */
export function ReferralsView() {
  const t = useT();
  const intl = useIntl();
  const [range, setRange] = useState<DayRange | null>(null);
  const [applied, setApplied] = useState<DayRangeQuery>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const referrals = useReferrals(applied);

  useEffect(() => {
    const next = queryOf(range);
    // A year is typed digit by digit: an end before the start is a range still being typed.
    if (range && range.start.compare(range.end) > 0) return;
    if (JSON.stringify(next) === JSON.stringify(applied)) return;
    const timer = setTimeout(() => setApplied(next), RANGE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [range, applied]);

  function clear() {
    setRange(null);
    setApplied(null);
    setSelectedId(null);
    referrals.reload();
  }

  const items = referrals.data?.items ?? [];
  const selected = items.find((item) => item.screeningId === selectedId) ?? null;

  return (
    <div className="referrals">
      <div className="referrals__filter">
        <DateRangePicker label={t('screenings.filters.dateRange')} value={range} maxValue={today(getLocalTimeZone())} onChange={setRange} />
        <Button variant="secondary" onPress={clear}>
          {t('referrals.clear')}
        </Button>
      </div>
      {referrals.failed ? (
        <LoadFailure message={t('referrals.loadFailed')} onRetry={referrals.reload} />
      ) : referrals.data ? (
        <>
          <p className="screenings-list__hint">{t('referrals.selectHint')}</p>
          {/* One markup for every width: on a phone each row is a card (Table.css, .table--cards). */}
          <div className="table-cards-box">
            <Table
              aria-label={t('referrals.table.label')}
              aria-busy={referrals.loading || undefined}
              className="referrals-table table--cards"
              selectionMode="single"
              selectionBehavior="toggle"
              selectedKeys={selected ? [selected.screeningId] : []}
              onSelectionChange={(selection) => setSelectedId(selectedIdOf(selection))}
            >
              <TableHeader>
                <Column isRowHeader>{t('result.table.examinedAt')}</Column>
                <Column>{t('screenings.column.testId')}</Column>
                <Column>{t('referrals.column.document')}</Column>
              </TableHeader>
              <TableBody
                renderEmptyState={() => (
                  <p className="screenings-table__empty">{t(applied ? 'referrals.emptyFiltered' : 'referrals.empty')}</p>
                )}
              >
                {items.map((item) => {
                  const examinedAt = intl.formatDate(item.createdAt, { dateStyle: 'medium', timeStyle: 'short' });
                  return (
                    <Row
                      key={item.screeningId}
                      id={item.screeningId}
                      textValue={examinedAt}
                      className="screenings-table__row referrals-table__row"
                    >
                      <Cell>
                        <time dateTime={item.createdAt}>{examinedAt}</time>
                      </Cell>
                      <Cell data-label={t('screenings.column.testId')}>{item.screeningId}</Cell>
                      <Cell className="referrals-table__document" data-label={t('referrals.column.document')}>
                        {item.name}
                      </Cell>
                    </Row>
                  );
                })}
              </TableBody>
            </Table>
          </div>
          {selected && <ReferralViewer key={selected.screeningId} referral={selected} />}
        </>
      ) : (
        <p role="status" className="screenings-list__loading">
          {t('referrals.loading')}
        </p>
      )}
    </div>
  );
}
