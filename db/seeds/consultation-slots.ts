/**
 * Free phone-consultation times in the coming weeks. Unlike the rest of the demo these depend on
 * when the seed runs: a slot in the past could not be booked.
 */
const RADIOLOGIST_HOURS = [
  { radiologist: 'lek. Marta Kowalczyk', times: ['09:00', '09:30', '10:00', '10:30'] },
  { radiologist: 'lek. Tomasz Lewandowski', times: ['15:30', '16:00', '16:30'] },
];
const WEEKS_AHEAD = 4;
const SLOT_MINUTES = 20;

export type ConsultationSlot = { radiologist_name: string; starts_at: Date; duration_minutes: number };

export function consultationSlots(now: Date): ConsultationSlot[] {
  const slots: ConsultationSlot[] = [];
  const today = warsawDay(now);
  for (let offset = 1; offset <= WEEKS_AHEAD * 7; offset++) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const weekday = day.getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (const { radiologist, times } of RADIOLOGIST_HOURS) {
      for (const time of times) {
        slots.push({ radiologist_name: radiologist, starts_at: warsawTime(day, time), duration_minutes: SLOT_MINUTES });
      }
    }
  }
  return slots;
}

const warsawParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});

function warsawDay(instant: Date): { year: number; month: number; day: number } {
  const parts = Object.fromEntries(warsawParts.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day! };
}

/** The instant of a wall-clock time in Warsaw on a day (given as UTC midnight of that date). */
function warsawTime(day: Date, time: string): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const asIfUtc = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
  const parts = Object.fromEntries(warsawParts.formatToParts(new Date(asIfUtc)).map((part) => [part.type, Number(part.value)]));
  const wallClockOfGuess = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
  return new Date(asIfUtc - (wallClockOfGuess - asIfUtc));
}
