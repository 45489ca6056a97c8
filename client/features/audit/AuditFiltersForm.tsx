import { getLocalTimeZone, today } from '@internationalized/date';
import { useEffect, useId, useState } from 'react';
import { AUDIT_DESCRIPTION_MAX_LENGTH, AUDIT_FILTER_GROUPS, type AuditFilterGroup } from '@common/audit';
import { Button } from '../../components/ui/Button';
import { Checkbox } from '../../components/ui/Checkbox';
import { CheckboxGroup } from '../../components/ui/CheckboxGroup';
import { DateRangePicker } from '../../components/ui/DateRangePicker';
import { TextField } from '../../components/ui/TextField';
import { useT } from '../../lib/intl';
import { AUDIT_GROUP_KEYS } from './audit-labels';
import { dayRangeOf, NO_FILTERS, type AuditFilters, type DayRange } from './audit-filters';
import type { ChangeFilters } from './use-audit-filters';

/** Typing waits this long after the last key before the list is asked again (as the city search, spec section 5). */
const FILTER_DEBOUNCE_MS = 500;

type Props = { filters: AuditFilters; onChange: ChangeFilters };

/** Date range, type groups and description text (spec section 2, audit page). */
export function AuditFiltersForm({ filters, onChange }: Props) {
  const t = useT();
  const headingId = useId();
  // Drafts: what is typed shows at once; the URL (and the list) follows once typing pauses.
  const [text, setText] = useState(filters.description);
  const [range, setRange] = useState<DayRange | null>(() => dayRangeOf(filters));
  // The URL changed from elsewhere (clear, back button): show what it holds.
  const urlDraft = `${filters.from}/${filters.to}/${filters.description}`;
  const [shownUrlDraft, setShownUrlDraft] = useState(urlDraft);
  if (shownUrlDraft !== urlDraft) {
    setShownUrlDraft(urlDraft);
    setText(filters.description);
    setRange(dayRangeOf(filters));
  }

  useEffect(() => {
    const change: Partial<AuditFilters> = {};
    const description = text.trim();
    if (description !== filters.description) change.description = description;
    const from = range?.start.toString() ?? null;
    const to = range?.end.toString() ?? null;
    // A year is typed digit by digit: an end before the start is a range still being typed.
    const rangeComplete = !range || range.start.compare(range.end) <= 0;
    if (rangeComplete && (from !== filters.from || to !== filters.to)) Object.assign(change, { from, to });
    if (Object.keys(change).length === 0) return;
    const timer = setTimeout(() => onChange(change), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, range, filters.description, filters.from, filters.to, onChange]);

  const hasFilters = Boolean(filters.from || filters.groups.length || filters.description || text || range);

  return (
    <section className="audit-filters" aria-labelledby={headingId}>
      <h2 id={headingId} className="audit-filters__title">
        {t('audit.filters.title')}
      </h2>
      <div className="audit-filters__fields">
        <DateRangePicker label={t('audit.filters.dateRange')} value={range} maxValue={today(getLocalTimeZone())} onChange={setRange} />
        <TextField
          label={t('audit.filters.description')}
          description={t('audit.filters.descriptionHint')}
          value={text}
          onChange={setText}
          maxLength={AUDIT_DESCRIPTION_MAX_LENGTH}
          type="search"
        />
      </div>
      <CheckboxGroup
        label={t('audit.filters.types')}
        value={filters.groups}
        onChange={(groups) => onChange({ groups: groups as AuditFilterGroup[] })}
      >
        {AUDIT_FILTER_GROUPS.map((group) => (
          <Checkbox key={group} value={group}>
            {t(AUDIT_GROUP_KEYS[group])}
          </Checkbox>
        ))}
      </CheckboxGroup>
      <div>
        <Button
          variant="secondary"
          isDisabled={!hasFilters}
          onPress={() => {
            setText('');
            setRange(null);
            onChange(NO_FILTERS);
          }}
        >
          {t('audit.filters.clear')}
        </Button>
      </div>
    </section>
  );
}
