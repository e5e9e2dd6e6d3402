/**
 * A calendar day for people. Bare `YYYY-MM-DD` values (birth dates) are days already; instants
 * (`createdAt`, expiries) are shown as the day they fall on in the studio's time zone.
 */
export function formatDate(value: string, locale: string, timeZone = 'UTC'): string {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(bare ? `${value}T12:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: bare ? 'UTC' : timeZone,
  }).format(date);
}

export function formatDateTime(value: string, locale: string, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}
