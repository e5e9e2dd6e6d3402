import type { TFunction } from 'i18next';
import { formatPriceIn } from '../../../shared/domain/money';
import { PricingOptionExpirationType } from '../../../shared/enums/pricing-options';
import {
  formatDate,
  formatDateTime as formatStudioDateTime,
  formatWeekday,
} from '../../../shared/i18n/dates';

/**
 * How a pass's terms read on screen (back office and front office): entries and validity in the
 * screen's language. Keys live in the `catalog` namespace.
 */

interface Terms {
  entries: number | null;
  expirationType: number;
  validityCount: number | null;
  validityUnit: string | null;
  validUntil: string | null;
}

export function entriesLabel(t: TFunction, entries: number | null): string {
  return entries === null ? t('catalog:terms.unlimited') : t('catalog:terms.entries', { count: entries });
}

export function validityLabel(t: TFunction, terms: Terms, formatDay: (day: string) => string): string {
  const count = terms.validityCount ?? 1;
  const period = t(`catalog:terms.unit.${terms.validityUnit ?? 'day'}`, { count });
  switch (terms.expirationType) {
    case PricingOptionExpirationType.saleDate:
      return t('catalog:terms.fromSale', { period });
    case PricingOptionExpirationType.firstVisit:
      return t('catalog:terms.fromFirstVisit', { period });
    case PricingOptionExpirationType.always:
      return t('catalog:terms.always');
    case PricingOptionExpirationType.calendarMonth:
      return t('catalog:terms.calendarMonth', { count });
    case PricingOptionExpirationType.specificDate:
      return terms.validUntil ? t('catalog:terms.until', { date: formatDay(terms.validUntil) }) : '';
    default:
      return '';
  }
}

/** Weekday names (0 = Sunday) in the screen's language (shared/i18n/dates.ts). */
export function weekdayName(weekday: number, language: string, style: 'short' | 'long' = 'short'): string {
  return formatWeekday(weekday === 0 ? 7 : weekday, language, style);
}

export const STATUS_COLORS: Record<number, string> = { 0: 'gray', 1: 'green', 2: 'blue' };

/** Prices as the screen's language writes them ("1 234,50 zł" in Polish). */
export function price(amount: number, currency: string, language: string): string {
  return formatPriceIn(language, amount, currency);
}

/** "2026-12-24" in the screen's language (dates are studio calendar days): "24 Dec 2026" / "24.12.2026". */
export function formatDay(day: string, language: string): string {
  return formatDate(day, language);
}

export function formatDateTime(isoText: string, language: string, timeZone: string): string {
  return formatStudioDateTime(isoText, language, timeZone);
}
