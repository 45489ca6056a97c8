import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDate, formatDateTime } from './dates';

describe('provider dates', () => {
  it('shows the provider local time in Warsaw, in summer and in winter', () => {
    expect(formatDateTime(new Date('2026-07-01T06:05:00Z'), 'pl')).toBe('01.07.2026 08:05');
    expect(formatDateTime(new Date('2026-01-15T06:05:00Z'), 'pl')).toBe('15.01.2026 07:05');
  });

  it('uses day.month.year in Polish and German and ISO order in English', () => {
    const instant = new Date('2026-10-06T08:40:00Z');
    expect(formatDate(instant, 'pl')).toBe('06.10.2026');
    expect(formatDate(instant, 'de')).toBe('06.10.2026');
    expect(formatDate(instant, 'en')).toBe('2026-10-06');
  });

  it('never shifts a calendar day such as a birth date', () => {
    expect(formatCalendarDay('1968-04-12', 'pl')).toBe('12.04.1968');
    expect(() => formatCalendarDay('12.04.1968', 'pl')).toThrow();
  });
});
