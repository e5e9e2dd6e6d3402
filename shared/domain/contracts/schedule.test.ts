import { describe, expect, it } from 'vitest';
import { ContractActivationType } from '../../enums/pricing-options';
import { localDateOf } from '../entitlements/local-dates';
import { periodIndexOn, periodStart, type ContractPeriod } from './periods';
import { buildSchedule, OPEN_ENDED_HORIZON, proRataAmount, type ContractTerms } from './schedule';

const monthly: ContractPeriod = { unit: 'month', length: 1 };
const terms = (over: Partial<ContractTerms> = {}): ContractTerms => ({
  price: 19900,
  period: monthly,
  durationPeriods: 12,
  activationType: ContractActivationType.saleDate,
  proRata: false,
  signUpFee: 0,
  noticePeriods: 1,
  ...over,
});

describe('periodStart: month ends and leap years keep the anchor day', () => {
  it.each([
    ['2027-01-31', monthly, 1, '2027-02-28'],
    ['2027-01-31', monthly, 2, '2027-03-31'],
    ['2027-01-31', monthly, 3, '2027-04-30'],
    ['2028-01-31', monthly, 1, '2028-02-29'],
    ['2028-02-29', monthly, 12, '2029-02-28'],
    ['2028-02-29', monthly, 48, '2032-02-29'],
    ['2026-11-30', monthly, 3, '2027-02-28'],
    ['2026-12-15', monthly, 1, '2027-01-15'],
    ['2026-12-15', { unit: 'month', length: 3 } as ContractPeriod, 1, '2027-03-15'],
    ['2026-12-15', monthly, -1, '2026-11-15'],
    ['2026-12-28', { unit: 'week', length: 1 } as ContractPeriod, 1, '2027-01-04'],
    ['2026-12-28', { unit: 'week', length: 2 } as ContractPeriod, 2, '2027-01-25'],
  ] as const)('anchor %s, %o, period %i starts %s', (anchor, period, index, expected) => {
    expect(periodStart(anchor, period, index)).toBe(expected);
  });

  it.each([
    ['2027-01-31', '2027-02-27', 0],
    ['2027-01-31', '2027-02-28', 1],
    ['2027-01-31', '2027-03-30', 1],
    ['2027-01-31', '2027-03-31', 2],
    ['2027-01-31', '2027-01-30', -1],
    ['2026-12-15', '2027-12-14', 11],
  ])('anchor %s: %s is in period %i', (anchor, date, index) => {
    expect(periodIndexOn(anchor, monthly, date)).toBe(index);
  });
});

describe('buildSchedule', () => {
  const cases: Array<{
    name: string;
    terms: ContractTerms;
    soldOn: string;
    entitledFrom: string;
    endsOn: string | null;
    first: Array<[kind: string, dueOn: string, amount: number, periodEndsOn: string | null]>;
    count: number;
  }> = [
    {
      name: 'sale date, 12 months from 31 January (leap year)',
      terms: terms(),
      soldOn: '2028-01-31',
      entitledFrom: '2028-01-31',
      endsOn: '2029-01-30',
      first: [
        ['period', '2028-01-31', 19900, '2028-02-28'],
        ['period', '2028-02-29', 19900, '2028-03-30'],
        ['period', '2028-03-31', 19900, '2028-04-29'],
      ],
      count: 12,
    },
    {
      name: 'sale date with a sign-up fee',
      terms: terms({ signUpFee: 5000, durationPeriods: 3 }),
      soldOn: '2026-11-23',
      entitledFrom: '2026-11-23',
      endsOn: '2027-02-22',
      first: [
        ['signUpFee', '2026-11-23', 5000, null],
        ['period', '2026-11-23', 19900, '2026-12-22'],
      ],
      count: 4,
    },
    {
      name: 'first day of month, no pro rata: starts on the next 1st',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, durationPeriods: 6 }),
      soldOn: '2026-11-23',
      entitledFrom: '2026-12-01',
      endsOn: '2027-05-31',
      first: [
        ['period', '2026-12-01', 19900, '2026-12-31'],
        ['period', '2027-01-01', 19900, '2027-01-31'],
      ],
      count: 6,
    },
    {
      name: 'first day of month with pro rata: 8 of 30 November days',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, proRata: true, price: 30000 }),
      soldOn: '2026-11-23',
      entitledFrom: '2026-11-23',
      endsOn: '2027-11-30',
      first: [
        ['proRata', '2026-11-23', 8000, '2026-11-30'],
        ['period', '2026-12-01', 30000, '2026-12-31'],
      ],
      count: 13,
    },
    {
      name: 'first day of month with pro rata in a leap February: 1 of 29 days, rounded half up',
      terms: terms({ activationType: ContractActivationType.firstDayOfMonth, proRata: true, price: 14500 }),
      soldOn: '2028-02-29',
      entitledFrom: '2028-02-29',
      endsOn: '2029-02-28',
      first: [
        ['proRata', '2028-02-29', 500, '2028-02-29'],
        ['period', '2028-03-01', 14500, '2028-03-31'],
      ],
      count: 13,
    },
    {
      name: 'first day of month sold on the 1st: no pro rata, starts that day',
      terms: terms({
        activationType: ContractActivationType.firstDayOfMonth,
        proRata: true,
        durationPeriods: 2,
      }),
      soldOn: '2027-03-01',
      entitledFrom: '2027-03-01',
      endsOn: '2027-04-30',
      first: [['period', '2027-03-01', 19900, '2027-03-31']],
      count: 2,
    },
    {
      name: 'open-ended weekly: a horizon of periods planned',
      terms: terms({ durationPeriods: null, period: { unit: 'week', length: 1 }, price: 4900 }),
      soldOn: '2026-12-30',
      entitledFrom: '2026-12-30',
      endsOn: null,
      first: [
        ['period', '2026-12-30', 4900, '2027-01-05'],
        ['period', '2027-01-06', 4900, '2027-01-12'],
      ],
      count: OPEN_ENDED_HORIZON,
    },
  ];

  it.each(cases)('$name', (c) => {
    const { start, instalments } = buildSchedule(c.terms, c.soldOn);
    expect(start.entitledFrom).toBe(c.entitledFrom);
    expect(start.endsOn).toBe(c.endsOn);
    expect(instalments).toHaveLength(c.count);
    expect(
      instalments.slice(0, c.first.length).map((i) => [i.kind, i.dueOn, i.amount, i.periodEndsOn]),
    ).toEqual(c.first);
    // Periods are contiguous and never overlap.
    const periods = instalments.filter((i) => i.kind === 'period');
    for (let k = 1; k < periods.length; k += 1)
      expect(periods[k]!.periodStartsOn! > periods[k - 1]!.periodEndsOn!).toBe(true);
    if (c.endsOn) expect(periods[periods.length - 1]!.periodEndsOn).toBe(c.endsOn);
  });

  it('uses the studio day of the sale: 23:30 UTC on 31 January is 1 February in Warsaw', () => {
    const soldOn = localDateOf(new Date('2027-01-31T23:30:00Z'), 'Europe/Warsaw');
    expect(soldOn).toBe('2027-02-01');
    const { start, instalments } = buildSchedule(
      terms({ activationType: ContractActivationType.firstDayOfMonth, proRata: true }),
      soldOn,
    );
    expect(start.anchor).toBe('2027-02-01');
    expect(instalments[0]).toMatchObject({ kind: 'period', dueOn: '2027-02-01' });
    // The same instant is still 31 January in New York: pro rata for one day of January.
    const ny = buildSchedule(
      terms({ activationType: ContractActivationType.firstDayOfMonth, proRata: true, price: 31000 }),
      localDateOf(new Date('2027-01-31T23:30:00Z'), 'America/New_York'),
    );
    expect(ny.instalments[0]).toMatchObject({ kind: 'proRata', amount: 1000, dueOn: '2027-01-31' });
  });

  it.each([
    [30000, '2026-11-16', '2026-12-01', 15000],
    [10000, '2026-11-30', '2026-12-01', 333],
    [9999, '2026-02-15', '2026-03-01', 5000],
  ])('pro rata of %i from %s to %s is %i', (price, soldOn, anchor, amount) => {
    expect(proRataAmount(terms({ price }), soldOn, anchor)).toBe(amount);
  });
});
