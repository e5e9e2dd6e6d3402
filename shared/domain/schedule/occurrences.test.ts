import { describe, expect, it } from 'vitest';
import { instantOfLocalTime, isoWeekdayOf, occurrencesOf, type MetaRecurrence } from './occurrences';

const WAW = 'Europe/Warsaw';
const meta = (over: Partial<MetaRecurrence> = {}): MetaRecurrence => ({
  daysOfWeek: [7],
  startTime: '18:00',
  durationMinutes: 60,
  firstDate: '2026-01-01',
  lastDate: null,
  ...over,
});
const iso = (d: Date) => d.toISOString();

describe('instantOfLocalTime in Europe/Warsaw', () => {
  it.each([
    // [date, local time, UTC instant, what it shows]
    ['2026-03-28', '18:00', '2026-03-28T17:00:00.000Z', 'winter time (UTC+1) the day before spring forward'],
    ['2026-03-29', '01:59', '2026-03-29T00:59:00.000Z', 'just before the gap'],
    ['2026-03-29', '02:00', '2026-03-29T01:00:00.000Z', 'start of the gap shifts forward to 03:00 CEST'],
    ['2026-03-29', '02:30', '2026-03-29T01:30:00.000Z', 'inside the gap shifts forward to 03:30 CEST'],
    ['2026-03-29', '03:00', '2026-03-29T01:00:00.000Z', '03:00 CEST exists'],
    ['2026-03-29', '18:00', '2026-03-29T16:00:00.000Z', 'summer time (UTC+2) the same evening'],
    ['2026-10-25', '01:30', '2026-10-24T23:30:00.000Z', 'before the repeated hour'],
    ['2026-10-25', '02:30', '2026-10-25T00:30:00.000Z', 'the repeated 02:30 is the first one (CEST)'],
    ['2026-10-25', '03:00', '2026-10-25T02:00:00.000Z', 'after the repeated hour: CET'],
    ['2026-10-25', '18:00', '2026-10-25T17:00:00.000Z', 'winter time again'],
  ])('%s %s → %s (%s)', (date, time, expected) => {
    const [h, m] = time.split(':').map(Number);
    expect(iso(instantOfLocalTime(date, h! * 60 + m!, WAW))).toBe(expected);
  });

  it('works in a zone without DST and across the date line', () => {
    expect(iso(instantOfLocalTime('2026-03-29', 150, 'UTC'))).toBe('2026-03-29T02:30:00.000Z');
    expect(iso(instantOfLocalTime('2026-01-01', 9 * 60, 'Pacific/Auckland'))).toBe(
      '2025-12-31T20:00:00.000Z',
    );
  });
});

describe('occurrencesOf', () => {
  it('keeps 18:00 on the studio clock across both Warsaw switches (last Sundays of March and October)', () => {
    const found = occurrencesOf(meta(), { from: '2026-03-22', to: '2026-11-01' }, WAW);
    const byDate = new Map(found.map((o) => [o.date, iso(o.startsAt)]));
    expect(byDate.get('2026-03-22')).toBe('2026-03-22T17:00:00.000Z');
    expect(byDate.get('2026-03-29')).toBe('2026-03-29T16:00:00.000Z');
    expect(byDate.get('2026-10-18')).toBe('2026-10-18T16:00:00.000Z');
    expect(byDate.get('2026-10-25')).toBe('2026-10-25T17:00:00.000Z');
    expect(byDate.get('2026-11-01')).toBe('2026-11-01T17:00:00.000Z');
    expect(found.every((o) => isoWeekdayOf(o.date) === 7)).toBe(true);
    expect(found).toHaveLength(33);
  });

  it('a 02:30 class on spring-forward day happens at 03:30 and lasts its full duration', () => {
    const [o] = occurrencesOf(
      meta({ startTime: '02:30', durationMinutes: 45 }),
      { from: '2026-03-29', to: '2026-03-29' },
      WAW,
    );
    expect(iso(o!.startsAt)).toBe('2026-03-29T01:30:00.000Z');
    expect(o!.endsAt.getTime() - o!.startsAt.getTime()).toBe(45 * 60_000);
  });

  it('a class spanning the repeated autumn hour lasts its real duration', () => {
    const [o] = occurrencesOf(
      meta({ startTime: '02:00', durationMinutes: 90 }),
      { from: '2026-10-25', to: '2026-10-25' },
      WAW,
    );
    expect(iso(o!.startsAt)).toBe('2026-10-25T00:00:00.000Z');
    expect(iso(o!.endsAt)).toBe('2026-10-25T01:30:00.000Z');
  });

  it.each([
    [
      'window inside the meta',
      { firstDate: '2026-01-01', lastDate: null },
      ['2026-06-01', '2026-06-03', '2026-06-08'],
    ],
    ['clipped by the first date', { firstDate: '2026-06-03', lastDate: null }, ['2026-06-03', '2026-06-08']],
    [
      'clipped by the last date (inclusive)',
      { firstDate: '2026-01-01', lastDate: '2026-06-03' },
      ['2026-06-01', '2026-06-03'],
    ],
    ['meta over before the window', { firstDate: '2026-01-01', lastDate: '2026-05-31' }, []],
    ['meta starts after the window', { firstDate: '2026-07-01', lastDate: null }, []],
  ])('Monday and Wednesday, 1–8 June: %s', (_name, dates, expected) => {
    const found = occurrencesOf(
      meta({ daysOfWeek: [1, 3], ...dates }),
      { from: '2026-06-01', to: '2026-06-08' },
      WAW,
    );
    expect(found.map((o) => o.date)).toEqual(expected);
  });

  it('refuses a window longer than a year and a malformed start time', () => {
    expect(() => occurrencesOf(meta(), { from: '2026-01-01', to: '2027-01-02' }, WAW)).toThrow(RangeError);
    expect(() =>
      occurrencesOf(meta({ startTime: '24:00' }), { from: '2026-01-01', to: '2026-01-07' }, WAW),
    ).toThrow(RangeError);
  });
});
