/** The languages dates are written in: the documents' (Polish, English, German). */
export type DateLanguage = 'pl' | 'en' | 'de';

/** Documents, file names and stored days show the provider's local time, whatever time zone the server runs in. */
const PROVIDER_TIME_ZONE = 'Europe/Warsaw';

const partsFormatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: PROVIDER_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function localParts(instant: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const parts = Object.fromEntries(partsFormatter.formatToParts(instant).map((part) => [part.type, part.value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

function formatDay(year: string, month: string, day: string, language: DateLanguage): string {
  // Polish and German readers expect 12.04.1968; English documents use the unambiguous ISO form.
  return language === 'en' ? `${year}-${month}-${day}` : `${day}.${month}.${year}`;
}

export function formatDate(instant: Date, language: DateLanguage): string {
  const { year, month, day } = localParts(instant);
  return formatDay(year, month, day, language);
}

export function formatDateTime(instant: Date, language: DateLanguage): string {
  const { hour, minute } = localParts(instant);
  return `${formatDate(instant, language)} ${hour}:${minute}`;
}

/** A calendar day such as a birth date ('YYYY-MM-DD'): no time zone may shift it. */
export function formatCalendarDay(isoDay: string, language: DateLanguage): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) throw new Error(`Not a calendar day: ${isoDay}`);
  return formatDay(match[1]!, match[2]!, match[3]!, language);
}
