import {
  addLocalDays,
  daysInMonth,
  formatLocalDate,
  localDaysBetween,
  parseLocalDate,
  type LocalDate,
} from '../entitlements/local-dates';

export const CONTRACT_PERIOD_UNITS = ['week', 'month'] as const;
export type ContractPeriodUnit = (typeof CONTRACT_PERIOD_UNITS)[number];

/** How long one billing period of a contract is: `length` weeks or months. */
export interface ContractPeriod {
  unit: ContractPeriodUnit;
  length: number;
}

/**
 * The first day of period `index` of a schedule anchored on `anchor` (period 0 starts on the anchor).
 * Months keep the anchor's day of the month and fall back to the month's last day when it is shorter
 * (anchor 31 January: 28/29 February, 31 March, 30 April …) — counted from the anchor every time,
 * never from the previous period, so one short month never drags later periods forward.
 * Negative indexes count back from the anchor.
 */
export function periodStart(anchor: LocalDate, period: ContractPeriod, index: number): LocalDate {
  if (period.unit === 'week') return addLocalDays(anchor, index * 7 * period.length);
  const { year, month, day } = parseLocalDate(anchor);
  const monthIndex = year * 12 + (month - 1) + index * period.length;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  return formatLocalDate(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/** The last day of period `index` (the day before the next one starts). */
export function periodEnd(anchor: LocalDate, period: ContractPeriod, index: number): LocalDate {
  return addLocalDays(periodStart(anchor, period, index + 1), -1);
}

/**
 * The index of the period `date` falls in (−1 … for days before the anchor). Periods are contiguous,
 * so this is the last index whose start is on or before the date.
 */
export function periodIndexOn(anchor: LocalDate, period: ContractPeriod, date: LocalDate): number {
  if (period.unit === 'week') return Math.floor(localDaysBetween(anchor, date) / (7 * period.length));
  const a = parseLocalDate(anchor);
  const d = parseLocalDate(date);
  const months = (d.year - a.year) * 12 + (d.month - a.month);
  let index = Math.floor(months / period.length);
  // The estimate is at most one off either way (day-of-month clamping).
  while (periodStart(anchor, period, index) > date) index -= 1;
  while (periodStart(anchor, period, index + 1) <= date) index += 1;
  return index;
}

/** The first period start on or after `date` (its index). */
export function firstPeriodOnOrAfter(anchor: LocalDate, period: ContractPeriod, date: LocalDate): number {
  const index = periodIndexOn(anchor, period, date);
  return periodStart(anchor, period, index) === date ? index : index + 1;
}
