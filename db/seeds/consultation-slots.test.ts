import { describe, expect, it } from 'vitest';
import { consultationSlots } from './consultation-slots';

const warsawClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Warsaw',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

describe('consultation slots', () => {
  it('offers only future working-day times, at the radiologists hours in Warsaw, across a DST change', () => {
    const now = new Date('2026-10-20T12:00:00Z');
    const slots = consultationSlots(now);
    expect(slots.length).toBeGreaterThan(50);
    for (const slot of slots) {
      expect(slot.starts_at.getTime()).toBeGreaterThan(now.getTime());
      const shown = warsawClock.format(slot.starts_at);
      expect(shown).not.toMatch(/Sat|Sun/);
      expect(['09:00', '09:30', '10:00', '10:30', '15:30', '16:00', '16:30']).toContain(shown.slice(-5));
    }
    // 25 October 2026 ends summer time: 09:00 in Warsaw is 07:00 UTC before and 08:00 UTC after.
    const isoTimes = slots.map((slot) => slot.starts_at.toISOString());
    expect(isoTimes).toContain('2026-10-23T07:00:00.000Z');
    expect(isoTimes).toContain('2026-10-26T08:00:00.000Z');
  });
});
