import type { ReactNode } from 'react';
import {
  Button,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateRangePicker as AriaDateRangePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
  RangeCalendar,
  Text,
  type DateRangePickerProps as AriaDateRangePickerProps,
  type DateValue,
} from 'react-aria-components';
import { cx } from './classes';
import './DateRangePicker.css';

export type DateRangePickerProps<T extends DateValue> = Omit<AriaDateRangePickerProps<T>, 'className' | 'children'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  className?: string;
};

function Chevron({ direction }: { direction: 'left' | 'right' | 'down' }) {
  const points = { left: '15 5 8 12 15 19', right: '9 5 16 12 9 19', down: '5 9 12 16 19 9' }[direction];
  return (
    <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2.5" />
    </svg>
  );
}

function DateSegments({ slot }: { slot: 'start' | 'end' }) {
  return (
    <DateInput slot={slot} className="date-range__input">
      {(segment) => <DateSegment segment={segment} className="date-range__segment" />}
    </DateInput>
  );
}

/**
 * A start and an end day typed segment by segment in the locale's order, or picked in a calendar.
 * react-aria names the calendar button and month arrows in the active language.
 */
export function DateRangePicker<T extends DateValue>({
  label,
  description,
  errorMessage,
  className,
  isInvalid,
  ...props
}: DateRangePickerProps<T>) {
  return (
    <AriaDateRangePicker {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', 'date-range', className)}>
      <Label className="field__label">{label}</Label>
      <Group className="field__input date-range__group">
        <DateSegments slot="start" />
        <span aria-hidden="true" className="date-range__dash">
          –
        </span>
        <DateSegments slot="end" />
        <Button className="btn btn--quiet date-range__button">
          <Chevron direction="down" />
        </Button>
      </Group>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="popover" placement="bottom start">
        <Dialog className="popover-dialog">
          <RangeCalendar className="calendar">
            <header className="calendar__header">
              <Button slot="previous" className="btn btn--quiet calendar__nav">
                <Chevron direction="left" />
              </Button>
              <Heading className="calendar__title" />
              <Button slot="next" className="btn btn--quiet calendar__nav">
                <Chevron direction="right" />
              </Button>
            </header>
            <CalendarGrid className="calendar__grid">{(date) => <CalendarCell date={date} className="calendar__cell" />}</CalendarGrid>
          </RangeCalendar>
        </Dialog>
      </Popover>
    </AriaDateRangePicker>
  );
}
