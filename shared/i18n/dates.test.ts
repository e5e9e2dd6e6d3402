import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateLong,
  formatDateRange,
  formatDateTime,
  formatDateTimeLong,
  formatDayLabel,
  formatDayMonth,
  formatMonth,
  formatTime,
  formatWeekday,
} from './dates';

// 13:30 UTC on Friday 27 November 2026 is 14:30 in Warsaw.
const AT = '2026-11-27T13:30:00.000Z';
const WAW = 'Europe/Warsaw';

describe('the product’s one date format per language', () => {
  it('English: day, short month, year; 24-hour clock', () => {
    expect(formatDate(AT, 'en', WAW)).toBe('27 Nov 2026');
    expect(formatTime(AT, 'en', WAW)).toBe('14:30');
    expect(formatDateTime(AT, 'en', WAW)).toBe('27 Nov 2026, 14:30');
    expect(formatDateLong(AT, 'en', WAW)).toBe('Friday, 27 November 2026');
    expect(formatDateTimeLong(AT, 'en', WAW)).toBe('Friday, 27 November 2026 at 14:30');
    expect(formatDayLabel(AT, 'en', WAW)).toBe('Fri 27 Nov');
    expect(formatDayMonth('2026-11-27', 'en')).toBe('27 November');
    expect(formatMonth('2026-11-27', 'en')).toBe('November 2026');
  });

  it('Polish: dd.mm.yyyy; 24-hour clock; the genitive month in long forms', () => {
    expect(formatDate(AT, 'pl', WAW)).toBe('27.11.2026');
    expect(formatTime(AT, 'pl', WAW)).toBe('14:30');
    expect(formatDateTime(AT, 'pl', WAW)).toBe('27.11.2026, 14:30');
    expect(formatDateLong(AT, 'pl', WAW)).toBe('piątek, 27 listopada 2026');
    expect(formatDayLabel(AT, 'pl', WAW)).toBe('pt., 27.11');
    expect(formatDayMonth('2026-11-27', 'pl')).toBe('27 listopada');
    expect(formatMonth('2026-11-27', 'pl-PL')).toBe('listopad 2026');
  });

  it('a language with a region, or one the product does not speak, falls to its convention', () => {
    expect(formatDate(AT, 'pl-PL', WAW)).toBe('27.11.2026');
    expect(formatDate(AT, 'en-US', WAW)).toBe('27 Nov 2026');
    expect(formatDate(AT, 'de', WAW)).toBe('27 Nov 2026');
  });

  it('an instant is read on the studio’s clock; a calendar day is that day in any zone', () => {
    const lateEvening = '2026-11-27T23:30:00.000Z';
    expect(formatDate(lateEvening, 'pl', WAW)).toBe('28.11.2026');
    expect(formatDate(lateEvening, 'pl', 'UTC')).toBe('27.11.2026');
    expect(formatDateTime(new Date(lateEvening), 'en', 'America/New_York')).toBe('27 Nov 2026, 18:30');
    expect(formatDate('1990-07-04', 'en', 'Pacific/Kiritimati')).toBe('4 Jul 1990');
    expect(formatDate('1990-07-04', 'pl', 'Pacific/Honolulu')).toBe('04.07.1990');
  });

  it('weekdays by ISO number (7 and 0 are Sunday), ranges, and what cannot be read', () => {
    expect(formatWeekday(1, 'en')).toBe('Mon');
    expect(formatWeekday(7, 'en', 'long')).toBe('Sunday');
    expect(formatWeekday(0, 'pl')).toBe('niedz.');
    expect(formatWeekday('2026-11-27', 'pl', 'long')).toBe('piątek');
    expect(formatDateRange('2026-11-23', '2026-11-29', 'pl')).toBe('23.11.2026 – 29.11.2026');
    expect(formatDateRange('2026-11-23', '2026-11-23', 'en')).toBe('23 Nov 2026');
    expect(formatDate('soon', 'en')).toBe('soon');
    expect(formatTime(new Date(Number.NaN), 'en', WAW)).toBe('');
  });
});
