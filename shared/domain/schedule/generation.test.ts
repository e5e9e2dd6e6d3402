import { describe, expect, it } from 'vitest';
import { planGeneration, type ExistingEvent } from './generation';
import { occurrencesOf } from './occurrences';

const WAW = 'Europe/Warsaw';
const NOW = new Date('2026-06-02T12:00:00Z');
const mondaysWednesdays = occurrencesOf(
  { daysOfWeek: [1, 3], startTime: '10:00', durationMinutes: 60, firstDate: '2026-06-01', lastDate: null },
  { from: '2026-06-01', to: '2026-06-14' },
  WAW,
);
// 1 Jun (past), 3, 8, 10 Jun (future)
const at = (date: string) => mondaysWednesdays.find((o) => o.date === date)!;
const event = (id: string, date: string, over: Partial<ExistingEvent> = {}): ExistingEvent => ({
  id,
  date,
  startsAt: at(date)?.startsAt ?? new Date(`${date}T08:00:00Z`),
  status: 'scheduled',
  edited: false,
  ...over,
});

describe('planGeneration', () => {
  it('first generation creates future occurrences only (never back-fills the past)', () => {
    const plan = planGeneration(mondaysWednesdays, [], NOW, { resync: false });
    expect(plan.create.map((o) => o.date)).toEqual(['2026-06-03', '2026-06-08', '2026-06-10']);
    expect(plan.update).toEqual([]);
    expect(plan.delete).toEqual([]);
  });

  it('generating again creates nothing: one event per occurrence date', () => {
    const existing = ['2026-06-03', '2026-06-08', '2026-06-10'].map((d, i) => event(`e${i}`, d));
    expect(planGeneration(mondaysWednesdays, existing, NOW, { resync: false })).toEqual({
      create: [],
      update: [],
      delete: [],
    });
  });

  it('a removed occurrence is not brought back, a cancelled one not duplicated', () => {
    const existing = [
      event('a', '2026-06-03', { status: 'removed' }),
      event('b', '2026-06-08', { status: 'cancelled' }),
    ];
    expect(
      planGeneration(mondaysWednesdays, existing, NOW, { resync: false }).create.map((o) => o.date),
    ).toEqual(['2026-06-10']);
  });

  it.each([
    ['untouched future event follows the meta', {}, 'update'],
    ['edited event is kept as edited', { edited: true }, 'keep'],
    ['cancelled event is kept', { status: 'cancelled' as const }, 'keep'],
    ['removed event is kept', { status: 'removed' as const }, 'keep'],
    ['started event is kept', { startsAt: new Date('2026-06-02T11:00:00Z') }, 'keep'],
  ])('resync after a meta change: %s', (_name, over, expected) => {
    const plan = planGeneration(mondaysWednesdays, [event('x', '2026-06-08', over)], NOW, { resync: true });
    expect(plan.update.map((u) => u.id)).toEqual(expected === 'update' ? ['x'] : []);
    expect(plan.create.map((o) => o.date)).toEqual(['2026-06-03', '2026-06-10']);
  });

  it('resync deletes untouched future events on days the meta no longer has, and keeps the rest', () => {
    const existing = [
      event('tue', '2026-06-09'),
      event('tue-edited', '2026-06-16', { edited: true }),
      event('tue-cancelled', '2026-06-23', { status: 'cancelled' }),
      event('past-tue', '2026-05-26', { startsAt: new Date('2026-05-26T08:00:00Z') }),
    ];
    const plan = planGeneration(mondaysWednesdays, existing, NOW, { resync: true });
    expect(plan.delete).toEqual(['tue']);
    expect(planGeneration(mondaysWednesdays, existing, NOW, { resync: false }).delete).toEqual([]);
  });
});
