import { TZDate } from '@date-fns/tz';
import { parseLocalDate } from '../../../../shared/domain/entitlements/local-dates';
import type { ReportQuery } from '../../../../shared/contracts/api/reports';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/** The studio's calendar day `day` starts at this instant (DST-correct). */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const { year, month, day: d } = parseLocalDate(day);
  return new Date(new TZDate(year, month - 1, d, 0, 0, 0, timeZone).getTime());
}

/** The day after `day` (calendar arithmetic, no time zone involved). */
export function nextDay(day: string): string {
  const { year, month, day: d } = parseLocalDate(day);
  return new Date(Date.UTC(year, month - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * What a report is asked: its studio, filters, and the period as instants — from the first day's
 * local midnight up to (not including) the local midnight after the last day.
 */
export interface ReportContext {
  db: Db;
  studio: Studio;
  query: ReportQuery;
  start: Date;
  end: Date;
  /** The viewer's language for catalog names (`en`, `pl`); a two-letter code, inlined in SQL. */
  lang: string;
}

export function reportContext(
  db: Db,
  studio: Studio,
  query: ReportQuery,
  locale: string | null,
): ReportContext {
  const lang =
    locale && /^[a-z]{2}$/.test(locale)
      ? locale
      : /^[a-z]{2}$/.test(studio.defaultLocale ?? '')
        ? studio.defaultLocale!
        : 'en';
  return {
    db,
    studio,
    query,
    start: startOfLocalDay(query.from, studio.timeZone),
    end: startOfLocalDay(nextDay(query.to), studio.timeZone),
    lang,
  };
}

/**
 * A catalog name (LocaleText jsonb) in the viewer's language, else Polish, else English, else any.
 * `lang` is checked to be two letters by `reportContext`, so inlining it is safe.
 */
export function nameSql(column: string, lang: string): string {
  return `coalesce(${column}->'${lang}'->>'value', ${column}->'pl'->>'value', ${column}->'en'->>'value', '')`;
}
