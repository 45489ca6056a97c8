import { getLocalTimeZone, parseDate, today, type CalendarDate } from '@internationalized/date';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { DateRangePicker } from '../../components/ui/DateRangePicker';
import { PopoverDialog, PopoverTrigger } from '../../components/ui/Popover';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { TextField } from '../../components/ui/TextField';
import { useT } from '../../lib/intl';
import {
  activeFilterCount,
  isScreeningId,
  NO_SCREENING_FILTERS,
  RESULT_CHOICES,
  type ResultChoice,
  type ScreeningFilters,
  type SignedChoice,
} from './screening-filters';
import { resultChoiceLabel } from './screening-labels';

/** "any" stands for no filter in the radio groups. */
const ANY = 'any';

type DayRange = { start: CalendarDate; end: CalendarDate };

type Draft = { range: DayRange | null; signed: string; result: string; screeningId: string };

function draftOf(filters: ScreeningFilters): Draft {
  return {
    range: filters.from && filters.to ? { start: parseDate(filters.from), end: parseDate(filters.to) } : null,
    signed: filters.signed ?? ANY,
    result: filters.result ?? ANY,
    screeningId: filters.screeningId ?? '',
  };
}

function filtersOf(draft: Draft): ScreeningFilters {
  const screeningId = draft.screeningId.trim();
  return {
    from: draft.range?.start.toString() ?? null,
    to: draft.range?.end.toString() ?? null,
    signed: draft.signed === ANY ? null : (draft.signed as SignedChoice),
    result: draft.result === ANY ? null : (draft.result as ResultChoice),
    screeningId: screeningId || null,
  };
}

type Props = { filters: ScreeningFilters; onChange: (filters: ScreeningFilters) => void };

/**
 * The filter button and its popover (spec section 2): examination days, signed or not, the
 * result, the test ID. Choices apply together with "Apply"; "Clear filters" shows every screening.
 */
export function ScreeningFiltersPopover({ filters, onChange }: Props) {
  const t = useT();
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters));
  const [idInvalid, setIdInvalid] = useState(false);
  const active = activeFilterCount(filters);

  function open(next: boolean) {
    // Each opening starts from what the list shows now (the URL may have changed meanwhile).
    if (next) {
      setDraft(draftOf(filters));
      setIdInvalid(false);
    }
    setOpen(next);
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const screeningId = draft.screeningId.trim();
    if (screeningId && !isScreeningId(screeningId)) {
      setIdInvalid(true);
      return;
    }
    onChange(filtersOf(draft));
    setOpen(false);
  }

  function clear() {
    onChange(NO_SCREENING_FILTERS);
    setOpen(false);
  }

  return (
    <div className="screenings-filters">
      <PopoverTrigger isOpen={isOpen} onOpenChange={open}>
        <Button variant="secondary">{t('screenings.filters.open')}</Button>
        <PopoverDialog title={t('screenings.filters.title')} placement="bottom start" className="screenings-filters__dialog">
          <form className="screenings-filters__form" onSubmit={apply}>
            <DateRangePicker
              label={t('screenings.filters.dateRange')}
              value={draft.range}
              maxValue={today(getLocalTimeZone())}
              onChange={(range) => setDraft({ ...draft, range })}
            />
            <RadioGroup
              label={t('screenings.filters.signed')}
              appearance="buttons"
              value={draft.signed}
              onChange={(signed) => setDraft({ ...draft, signed })}
            >
              <Radio value={ANY}>{t('screenings.filters.any')}</Radio>
              <Radio value="true">{t('screenings.filters.signedYes')}</Radio>
              <Radio value="false">{t('screenings.filters.signedNo')}</Radio>
            </RadioGroup>
            <RadioGroup label={t('result.table.result')} value={draft.result} onChange={(result) => setDraft({ ...draft, result })}>
              <Radio value={ANY}>{t('screenings.filters.any')}</Radio>
              {RESULT_CHOICES.map((choice) => (
                <Radio key={choice} value={choice}>
                  {t(resultChoiceLabel(choice))}
                </Radio>
              ))}
            </RadioGroup>
            <TextField
              label={t('screenings.column.testId')}
              inputMode="numeric"
              value={draft.screeningId}
              onChange={(screeningId) => {
                setDraft({ ...draft, screeningId });
                setIdInvalid(false);
              }}
              errorMessage={idInvalid ? t('screenings.filters.screeningIdInvalid') : undefined}
            />
            <div className="screenings-filters__actions">
              <Button type="submit">{t('screenings.filters.apply')}</Button>
              <Button variant="secondary" onPress={clear}>
                {t('screenings.filters.clear')}
              </Button>
            </div>
          </form>
        </PopoverDialog>
      </PopoverTrigger>
      {active > 0 && (
        <>
          <span className="screenings-filters__count">{t('screenings.filters.active', { count: active })}</span>
          <Button variant="quiet" onPress={clear}>
            {t('screenings.filters.clear')}
          </Button>
        </>
      )}
    </div>
  );
}
