import { describe, expect, it } from 'vitest';
import { formatTime, groupByDay, shiftAnchor, todayIn, visibleDays, weekdayLabel } from './week';

describe('timetable calendar helpers', () => {
  it('a week runs Monday to Sunday around the anchor; the day view is the anchor alone', () => {
    expect(visibleDays('2026-03-26', 'week')).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    expect(visibleDays('2026-03-29', 'week')[0]).toBe('2026-03-23');
    expect(visibleDays('2026-03-26', 'day')).toEqual(['2026-03-26']);
    expect(shiftAnchor('2026-03-26', 'week', 1)).toBe('2026-04-02');
    expect(shiftAnchor('2026-03-01', 'day', -1)).toBe('2026-02-28');
  });

  it('groups by the studio day: 23:30 UTC on Saturday is Sunday in Warsaw', () => {
    const days = visibleDays('2026-03-23', 'week');
    const groups = groupByDay(
      [{ startsAt: '2026-03-28T23:30:00Z' }, { startsAt: '2026-03-29T16:00:00Z' }],
      days,
      'Europe/Warsaw',
    );
    expect(groups.get('2026-03-28')).toEqual([]);
    expect(groups.get('2026-03-29')).toHaveLength(2);
    expect(todayIn('Europe/Warsaw', new Date('2026-03-28T23:30:00Z'))).toBe('2026-03-29');
  });

  it('shows times on the studio clock, whatever the browser zone', () => {
    expect(formatTime('2026-03-29T16:00:00Z', 'pl', 'Europe/Warsaw')).toBe('18:00');
    expect(formatTime('2026-03-22T17:00:00Z', 'en', 'Europe/Warsaw')).toBe('18:00');
    expect(weekdayLabel(1, 'en')).toBe('Mon');
    expect(weekdayLabel(7, 'en')).toBe('Sun');
  });
});
