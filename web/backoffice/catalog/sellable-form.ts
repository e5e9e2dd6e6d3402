import type { Restrictions } from '../../../shared/contracts/api/catalog';
import { parsePriceInput } from '../../../shared/domain/money';

/**
 * What the pass (pricing option) editor and the contract editor hold alike, as plain data: the
 * bilingual name and description, the price, and the entitlement — which services it covers, where,
 * for whom and when, and where it is sold — with one mapping each way (a saved item → the form, the
 * form → the payload and its problems), so the two editors cannot drift apart. Problems come back
 * per payload field as translation keys of the editor's namespace.
 */

export type FieldProblems = Record<string, string[]>;
export type MappingResult<T> = { ok: true; payload: T } | { ok: false; fields: FieldProblems };
export type Problem = (path: string, key: string) => void;

export interface TimeWindowValues {
  weekdays: number[];
  /** "HH:MM" */
  from: string;
  /** "HH:MM"; "24:00" is the end of the day. */
  to: string;
}

/** Minor units as the form shows them: 32000 → "320", 32050 → "320.50" ("320,50" in Polish). */
export function priceText(minor: number, language = 'en'): string {
  const whole = Math.trunc(minor / 100);
  const cents = Math.abs(minor % 100);
  const text = cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
  return language.startsWith('pl') ? text.replace('.', ',') : text;
}

export function minutesText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** "07:30" → 450, "24:00" → 1440; null for anything else. */
export function parseMinutes(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return null;
  return hours * 60 + minutes;
}

/** Days-and-hours restrictions as the form holds them ("HH:MM" texts). */
export function timeWindowValuesOf(windows: Restrictions['timeWindows']): TimeWindowValues[] {
  return windows.map((w) => ({
    weekdays: [...w.weekdays],
    from: minutesText(w.fromMinutes),
    to: minutesText(w.toMinutes),
  }));
}

/**
 * The form's days and hours as the payload's time windows; problems are reported per window field
 * (`restrictions.timeWindows.N.…`) as the keys `errors.weekdays`, `errors.time`, `errors.timeOrder`.
 */
export function timeWindowsPayload(
  values: readonly TimeWindowValues[],
  problem: (path: string, key: string) => void,
): Restrictions['timeWindows'] {
  const timeWindows: Restrictions['timeWindows'] = [];
  values.forEach((w, i) => {
    const from = parseMinutes(w.from);
    const to = parseMinutes(w.to);
    if (w.weekdays.length === 0) problem(`restrictions.timeWindows.${i}.weekdays`, 'errors.weekdays');
    if (from === null || from >= 1440) problem(`restrictions.timeWindows.${i}.fromMinutes`, 'errors.time');
    if (to === null || to === 0) problem(`restrictions.timeWindows.${i}.toMinutes`, 'errors.time');
    else if (from !== null && to <= from)
      problem(`restrictions.timeWindows.${i}.toMinutes`, 'errors.timeOrder');
    if (from !== null && to !== null)
      timeWindows.push({ weekdays: [...w.weekdays].sort(), fromMinutes: from, toMinutes: to });
  });
  return timeWindows;
}

/** The form fields both editors hold (texts as typed, choices as ids). */
export interface SellableFormValues {
  nameEn: string;
  namePl: string;
  descriptionEn: string;
  descriptionPl: string;
  /** As typed: "320", "320,50", "1 200". */
  price: string;
  serviceTypes: string[];
  classServiceIds: string[];
  locationIds: string[];
  tagIds: string[];
  /** Days and hours ("HH:MM" texts). */
  timeWindows: TimeWindowValues[];
  sellAtDesk: boolean;
  sellOnline: boolean;
}

type LocaleTextView = { en?: { value: string } | null; pl?: { value: string } | null };

/** What a saved pass or contract says of the shared fields. */
export interface SellableView {
  name: LocaleTextView;
  description: LocaleTextView;
  price: number;
  serviceTypes: readonly string[];
  restrictions: Restrictions;
  sellAtDesk: boolean;
  sellOnline: boolean;
}

/** The shared fields of a saved pass or contract as the form holds them (the price in `language`). */
export function sellableValuesOf(item: SellableView, language: string): SellableFormValues {
  return {
    nameEn: item.name.en?.value ?? '',
    namePl: item.name.pl?.value ?? '',
    descriptionEn: item.description.en?.value ?? '',
    descriptionPl: item.description.pl?.value ?? '',
    price: priceText(item.price, language),
    serviceTypes: [...item.serviceTypes],
    classServiceIds: [...item.restrictions.classServiceIds],
    locationIds: [...item.restrictions.locationIds],
    tagIds: [...item.restrictions.tagIds],
    timeWindows: timeWindowValuesOf(item.restrictions.timeWindows),
    sellAtDesk: item.sellAtDesk,
    sellOnline: item.sellOnline,
  };
}

const WHOLE = /^\d+$/;

/** A whole number as typed, or a problem; '' gives `empty`. */
export function wholeNumber(text: string, empty: number | null): number | null | 'invalid' {
  const value = text.trim();
  if (value === '') return empty;
  return WHOLE.test(value) ? Number(value) : 'invalid';
}

/** Both languages' texts as the API's locale text (a language left empty is not sent). */
export function localeText(en: string, pl: string): { en?: { value: string }; pl?: { value: string } } {
  const text: { en?: { value: string }; pl?: { value: string } } = {};
  if (en.trim()) text.en = { value: en.trim() };
  if (pl.trim()) text.pl = { value: pl.trim() };
  return text;
}

/** A collector of mapping problems: `problem(path, key)` adds one; `fields` holds them by path. */
export function problemCollector(): { fields: FieldProblems; problem: Problem } {
  const fields: FieldProblems = {};
  return { fields, problem: (path, key) => void (fields[path] ??= []).push(key) };
}

/**
 * The shared fields as their payload parts, each problem reported through `problem` (the keys
 * `errors.nameRequired`, `errors.price`, `errors.serviceTypes`, and the time windows' own). The
 * price is 0 when it cannot be read (a problem was reported then).
 */
export function sellablePayload(values: SellableFormValues, problem: Problem) {
  const name = localeText(values.nameEn, values.namePl);
  if (!name.en && !name.pl) problem('name', 'errors.nameRequired');
  const price = parsePriceInput(values.price);
  if (price === null || price < 0) problem('price', 'errors.price');
  if (values.serviceTypes.length === 0) problem('serviceTypes', 'errors.serviceTypes');
  const timeWindows = timeWindowsPayload(values.timeWindows, problem);
  return {
    name,
    description: localeText(values.descriptionEn, values.descriptionPl),
    price: price ?? 0,
    serviceTypes: [...values.serviceTypes],
    restrictions: {
      classServiceIds: [...values.classServiceIds],
      locationIds: [...values.locationIds],
      tagIds: [...values.tagIds],
      timeWindows,
    },
    sellAtDesk: values.sellAtDesk,
    sellOnline: values.sellOnline,
  };
}
