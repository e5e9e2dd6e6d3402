/**
 * Period identifiers (`YYYY-MM`, spec §3 "a monthly plan with a period identifier"): the calendar
 * month a period covers, in the studio's time zone.
 */

export function periodOf(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}`;
}

export function dayOf(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

export function previousPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** First and last day of the month. */
export function periodBounds(period: string): { startsOn: string; endsOn: string } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { startsOn: `${period}-01`, endsOn: `${period}-${String(last).padStart(2, '0')}` };
}

/** The month a renewal buys: the current one when unpaid, else the one after the last paid. */
export function renewalPeriod(current: string, paidThrough: string | null): string {
  if (!paidThrough || paidThrough < current) return current;
  return nextPeriod(paidThrough);
}
