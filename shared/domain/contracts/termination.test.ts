import { describe, expect, it } from 'vitest';
import { ContractActivationType } from '../../enums/pricing-options';
import type { ContractPeriod } from './periods';
import { buildSchedule, type ContractTerms, type InstalmentStatus } from './schedule';
import { planResume, planSuspension } from './suspension';
import { planTermination, type ScheduledInstalment } from './termination';

const monthly: ContractPeriod = { unit: 'month', length: 1 };
const terms = (over: Partial<ContractTerms> = {}): ContractTerms => ({
  price: 10000,
  period: monthly,
  durationPeriods: 12,
  activationType: ContractActivationType.saleDate,
  proRata: false,
  signUpFee: 0,
  noticePeriods: 1,
  ...over,
});

/** A stored schedule: ids `fee`, `pro`, `p0`, `p1` …; instalments due on or before `orderedThrough` are ordered. */
function stored(t: ContractTerms, soldOn: string, orderedThrough: string | null): ScheduledInstalment[] {
  return buildSchedule(t, soldOn).instalments.map((i) => ({
    ...i,
    id: i.kind === 'period' ? `p${i.periodIndex}` : i.kind === 'signUpFee' ? 'fee' : 'pro',
    status: (orderedThrough !== null && i.dueOn <= orderedThrough
      ? 'ordered'
      : 'scheduled') as InstalmentStatus,
  }));
}

describe('planTermination: which instalments remain', () => {
  const cases = [
    {
      name: 'one period of notice mid-period: the current and the next remain',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      requestedOn: '2026-03-20',
      notice: 1,
      endsOn: '2026-05-14',
      remaining: ['p3'],
      cancelled: 8,
    },
    {
      name: 'terminated on the first day of a period: that period counts as the current one',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      requestedOn: '2026-03-15',
      notice: 1,
      endsOn: '2026-05-14',
      remaining: ['p3'],
      cancelled: 8,
    },
    {
      name: 'no notice: ends with the current period, nothing more is charged',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      requestedOn: '2026-03-20',
      notice: 0,
      endsOn: '2026-04-14',
      remaining: [],
      cancelled: 9,
    },
    {
      name: 'notice longer than the rest of a fixed duration: ends at the planned end',
      terms: terms({ durationPeriods: 3 }),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      requestedOn: '2026-03-20',
      notice: 2,
      endsOn: '2026-04-14',
      remaining: [],
      cancelled: 0,
    },
    {
      name: 'open-ended, two periods of notice, 31st anchor through February',
      terms: terms({ durationPeriods: null }),
      soldOn: '2027-01-31',
      orderedThrough: '2027-01-31',
      requestedOn: '2027-02-10',
      notice: 2,
      endsOn: '2027-04-29',
      remaining: ['p1', 'p2'],
      cancelled: 9,
    },
    {
      name: 'before a first-of-month start: notice counts from the first period; the sign-up fee stays',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, signUpFee: 4900 }),
      soldOn: '2026-11-23',
      orderedThrough: '2026-11-23',
      requestedOn: '2026-11-25',
      notice: 1,
      endsOn: '2026-12-31',
      remaining: ['p0'],
      cancelled: 11,
    },
    {
      name: 'before the start with no notice: no period is charged, the pro-rata days stay',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, proRata: true }),
      soldOn: '2026-11-23',
      orderedThrough: '2026-11-23',
      requestedOn: '2026-11-24',
      notice: 0,
      endsOn: '2026-11-30',
      remaining: [],
      cancelled: 12,
    },
  ];

  it.each(cases)('$name', (c) => {
    const instalments = stored(c.terms, c.soldOn, c.orderedThrough);
    const anchor = buildSchedule(c.terms, c.soldOn).start.anchor;
    const plan = planTermination({
      anchor,
      period: c.terms.period,
      instalments,
      requestedOn: c.requestedOn,
      noticePeriods: c.notice,
      fixedDuration: c.terms.durationPeriods !== null,
      suspendedFrom: null,
    });
    expect(plan.endsOn).toBe(c.endsOn);
    expect(plan.remaining).toEqual(c.remaining);
    expect(plan.cancel).toHaveLength(c.cancelled);
    // Ordered instalments are never cancelled.
    const ordered = instalments.filter((i) => i.status === 'ordered').map((i) => i.id);
    expect(plan.cancel.filter((id) => ordered.includes(id))).toEqual([]);
  });

  it('while suspended: every suspended instalment is cancelled, the contract ends before the suspension', () => {
    const t = terms({ durationPeriods: null });
    const instalments = stored(t, '2026-01-10', '2026-03-10');
    const suspension = planSuspension(instalments, '2026-03-20');
    if (!suspension.ok) throw new Error('expected a suspension');
    const suspended = instalments.map((i) =>
      suspension.suspend.includes(i.id) ? { ...i, status: 'suspended' as const } : i,
    );
    const plan = planTermination({
      anchor: '2026-01-10',
      period: monthly,
      instalments: suspended,
      requestedOn: '2026-05-01',
      noticePeriods: 1,
      fixedDuration: false,
      suspendedFrom: suspension.startsOn,
    });
    expect(plan.endsOn).toBe('2026-04-09');
    expect(plan.remaining).toEqual([]);
    expect(plan.cancel).toEqual(suspension.suspend);
  });
});

describe('suspend and resume shift the remaining instalments', () => {
  const cases = [
    {
      name: 'monthly, suspended mid-period, resumed two months later on a boundary',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      suspendFrom: '2026-03-20',
      startsOn: '2026-04-15',
      resumeOn: '2026-06-15',
      shift: 2,
      suspensionEndsOn: '2026-06-14',
      firstMoved: ['p3', 5, '2026-06-15'],
      endsOn: '2027-03-14',
    },
    {
      name: 'resumed mid-period: billing restarts at the next boundary',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      suspendFrom: '2026-03-20',
      startsOn: '2026-04-15',
      resumeOn: '2026-05-02',
      shift: 1,
      suspensionEndsOn: '2026-05-14',
      firstMoved: ['p3', 4, '2026-05-15'],
      endsOn: '2027-02-14',
    },
    {
      name: 'resumed before the suspension began: nothing moves',
      terms: terms(),
      soldOn: '2026-01-15',
      orderedThrough: '2026-03-15',
      suspendFrom: '2026-03-20',
      startsOn: '2026-04-15',
      resumeOn: '2026-03-25',
      shift: 0,
      suspensionEndsOn: '2026-04-14',
      firstMoved: ['p3', 3, '2026-04-15'],
      endsOn: '2027-01-14',
    },
    {
      name: 'anchor on the 31st keeps its day after the shift (leap February)',
      terms: terms({ durationPeriods: null }),
      soldOn: '2027-12-31',
      orderedThrough: '2027-12-31',
      suspendFrom: '2028-01-01',
      startsOn: '2028-01-31',
      resumeOn: '2028-02-20',
      shift: 1,
      suspensionEndsOn: '2028-02-28',
      firstMoved: ['p1', 2, '2028-02-29'],
      endsOn: null,
    },
    {
      name: 'first-of-month contract resumes on a 1st',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, durationPeriods: 6 }),
      soldOn: '2026-10-20',
      orderedThrough: '2026-12-01',
      suspendFrom: '2026-12-10',
      startsOn: '2027-01-01',
      resumeOn: '2027-02-14',
      shift: 2,
      suspensionEndsOn: '2027-02-28',
      firstMoved: ['p2', 4, '2027-03-01'],
      endsOn: '2027-06-30',
    },
  ];

  it.each(cases)('$name', (c) => {
    const instalments = stored(c.terms, c.soldOn, c.orderedThrough);
    const anchor = buildSchedule(c.terms, c.soldOn).start.anchor;
    const suspension = planSuspension(instalments, c.suspendFrom);
    if (!suspension.ok) throw new Error('expected a suspension');
    expect(suspension.startsOn).toBe(c.startsOn);
    const suspended = instalments.map((i) =>
      suspension.suspend.includes(i.id) ? { ...i, status: 'suspended' as const } : i,
    );
    const plan = planResume({
      anchor,
      period: c.terms.period,
      instalments: suspended,
      suspensionStartsOn: suspension.startsOn,
      resumeOn: c.resumeOn,
      fixedDuration: c.terms.durationPeriods !== null,
    });
    if ('ok' in plan) throw new Error('expected a plan');
    expect(plan.shiftPeriods).toBe(c.shift);
    expect(plan.suspensionEndsOn).toBe(c.suspensionEndsOn);
    const [id, index, dueOn] = c.firstMoved;
    expect(plan.moved[0]).toMatchObject({ id, periodIndex: index, dueOn });
    expect(plan.moved).toHaveLength(suspension.suspend.length);
    expect(plan.endsOn).toBe(c.endsOn);
  });

  it('refuses to suspend when every period is already ordered', () => {
    const instalments = stored(terms({ durationPeriods: 2 }), '2026-01-15', '2026-02-15');
    expect(planSuspension(instalments, '2026-02-20')).toEqual({ ok: false, reason: 'nothingToSuspend' });
  });
});
