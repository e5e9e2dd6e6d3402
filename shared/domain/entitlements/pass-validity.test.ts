import { describe, expect, it } from 'vitest';
import {
  ClientPricingOptionStatus as S,
  PricingOptionExpirationType as E,
} from '../../enums/pricing-options';
import { ClientVisitStatus as V } from '../../enums/visits';
import { endOfMonthsExclusive } from './local-dates';
import { derivePassState, type PassChange, type PassTerms, type PassVisit } from './pass-validity';

const WAW = 'Europe/Warsaw';
const terms = (t: Partial<PassTerms>): PassTerms => ({
  expirationType: E.saleDate,
  validityCount: 30,
  validityUnit: 'day',
  validUntil: null,
  entries: null,
  ...t,
});

describe('validity end by expiration type (studio calendar, exclusive end → last valid day)', () => {
  it.each([
    // [case, soldAt, zone, terms, last valid day, expiresAt (UTC)]
    [
      '30 days from a sale',
      '2026-01-15T09:00:00Z',
      WAW,
      { validityCount: 30 },
      '2026-02-13',
      '2026-02-13T23:00:00.000Z',
    ],
    [
      '1 day: through the day of sale',
      '2026-05-05T20:00:00Z',
      WAW,
      { validityCount: 1 },
      '2026-05-05',
      '2026-05-05T22:00:00.000Z',
    ],
    [
      '2 weeks',
      '2026-03-02T10:00:00Z',
      WAW,
      { validityCount: 2, validityUnit: 'week' as const },
      '2026-03-15',
      '2026-03-15T23:00:00.000Z',
    ],
    [
      '1 month from the 15th',
      '2026-01-15T09:00:00Z',
      WAW,
      { validityCount: 1, validityUnit: 'month' as const },
      '2026-02-14',
      '2026-02-14T23:00:00.000Z',
    ],
    [
      '1 month from 31 Jan: through February’s last day',
      '2026-01-31T09:00:00Z',
      WAW,
      { validityCount: 1, validityUnit: 'month' as const },
      '2026-02-28',
      '2026-02-28T23:00:00.000Z',
    ],
    [
      '1 month from 31 Jan in a leap year',
      '2028-01-31T09:00:00Z',
      WAW,
      { validityCount: 1, validityUnit: 'month' as const },
      '2028-02-29',
      '2028-02-29T23:00:00.000Z',
    ],
    [
      '1 month from 29 Jan in a leap year: the day before 29 Feb',
      '2028-01-29T09:00:00Z',
      WAW,
      { validityCount: 1, validityUnit: 'month' as const },
      '2028-02-28',
      '2028-02-28T23:00:00.000Z',
    ],
    [
      '12 months from 29 Feb',
      '2028-02-29T09:00:00Z',
      WAW,
      { validityCount: 12, validityUnit: 'month' as const },
      '2029-02-28',
      '2029-02-28T23:00:00.000Z',
    ],
    [
      '3 months from 30 Nov across the year end',
      '2026-11-30T09:00:00Z',
      WAW,
      { validityCount: 3, validityUnit: 'month' as const },
      '2027-02-28',
      '2027-02-28T23:00:00.000Z',
    ],
    [
      'days across spring DST: ends at local midnight (+02:00)',
      '2026-03-28T11:00:00Z',
      WAW,
      { validityCount: 2 },
      '2026-03-29',
      '2026-03-29T22:00:00.000Z',
    ],
    [
      'days across autumn DST: ends at local midnight (+01:00)',
      '2026-10-24T11:00:00Z',
      WAW,
      { validityCount: 2 },
      '2026-10-25',
      '2026-10-25T23:00:00.000Z',
    ],
    [
      'sold 00:30 in Warsaw: already the next day there',
      '2026-01-31T23:30:00Z',
      WAW,
      { validityCount: 1 },
      '2026-02-01',
      '2026-02-01T23:00:00.000Z',
    ],
    [
      'the same instant in New York is still 31 Jan',
      '2026-01-31T23:30:00Z',
      'America/New_York',
      { validityCount: 1 },
      '2026-01-31',
      '2026-02-01T05:00:00.000Z',
    ],
    [
      'calendar month: through the month’s end',
      '2026-02-10T09:00:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: null, validityUnit: null },
      '2026-02-28',
      '2026-02-28T23:00:00.000Z',
    ],
    [
      'calendar month in a leap February',
      '2028-02-10T09:00:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: null, validityUnit: null },
      '2028-02-29',
      '2028-02-29T23:00:00.000Z',
    ],
    [
      'calendar month in December, summer time long gone',
      '2026-12-15T09:00:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: 1, validityUnit: null },
      '2026-12-31',
      '2026-12-31T23:00:00.000Z',
    ],
    [
      'two calendar months',
      '2026-12-15T09:00:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: 2, validityUnit: null },
      '2027-01-31',
      '2027-01-31T23:00:00.000Z',
    ],
    [
      'calendar month of the studio’s day, not UTC’s',
      '2026-01-31T23:30:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: 1, validityUnit: null },
      '2026-02-28',
      '2026-02-28T23:00:00.000Z',
    ],
    [
      'calendar month ending in March (DST starts on the 29th)',
      '2026-03-03T09:00:00Z',
      WAW,
      { expirationType: E.calendarMonth, validityCount: 1, validityUnit: null },
      '2026-03-31',
      '2026-03-31T22:00:00.000Z',
    ],
    [
      'specific date',
      '2026-01-10T09:00:00Z',
      WAW,
      { expirationType: E.specificDate, validUntil: '2026-06-30' },
      '2026-06-30',
      '2026-06-30T22:00:00.000Z',
    ],
  ])('%s', (_case, soldAt, zone, t, lastValid, expiresAt) => {
    const state = derivePassState(
      { soldAt: new Date(soldAt), terms: terms(t), changes: [], visits: [] },
      new Date(soldAt),
      zone,
    );
    expect(state.activatedAt?.toISOString()).toBe(new Date(soldAt).toISOString());
    expect(state.lastValidDate).toBe(lastValid);
    expect(state.expiresAt?.toISOString()).toBe(expiresAt);
  });

  it('"always" never expires', () => {
    const state = derivePassState(
      {
        soldAt: new Date('2020-01-01T00:00:00Z'),
        terms: terms({ expirationType: E.always }),
        changes: [],
        visits: [],
      },
      new Date('2035-01-01T00:00:00Z'),
      WAW,
    );
    expect(state).toMatchObject({ status: S.active, expiresAt: null, lastValidDate: null });
  });

  it.each([
    ['2026-01-31', 1, '2026-03-01'],
    ['2026-01-30', 1, '2026-03-01'],
    ['2028-01-30', 1, '2028-03-01'],
    ['2028-01-29', 1, '2028-02-29'],
    ['2026-08-31', 1, '2026-10-01'],
    ['2026-12-31', 2, '2027-03-01'],
    ['2026-05-15', 0, '2026-05-15'],
  ])('months from %s + %i end (exclusive) on %s', (start, months, end) => {
    expect(endOfMonthsExclusive(start, months)).toBe(end);
  });
});

describe('status and activation (sale date or first visit)', () => {
  const sold = new Date('2026-03-01T09:00:00Z');
  const firstVisitTerms = terms({ expirationType: E.firstVisit, validityCount: 10 });
  const visit = (iso: string, status: number = V.booked): PassVisit => ({
    startsAt: new Date(iso),
    status: status as PassVisit['status'],
  });

  it.each([
    ['sale-date pass, in validity', terms({}), [], '2026-03-10T12:00:00Z', S.active, null, '2026-03-30'],
    [
      'sale-date pass, the last valid day 23:59 local',
      terms({}),
      [],
      '2026-03-30T21:59:00Z',
      S.active,
      null,
      '2026-03-30',
    ],
    [
      'sale-date pass, local midnight after the last day',
      terms({}),
      [],
      '2026-03-30T22:00:00Z',
      S.inactive,
      'expired',
      '2026-03-30',
    ],
    [
      'first-visit pass without visits',
      firstVisitTerms,
      [],
      '2026-03-10T12:00:00Z',
      S.notActivated,
      null,
      null,
    ],
    [
      'first-visit pass with an early-cancelled visit only',
      firstVisitTerms,
      [visit('2026-03-05T17:00:00Z', V.selfEarlyCancel)],
      '2026-03-10T12:00:00Z',
      S.notActivated,
      null,
      null,
    ],
    [
      'first-visit pass with a future booking: not yet',
      firstVisitTerms,
      [visit('2026-03-12T17:00:00Z')],
      '2026-03-10T12:00:00Z',
      S.notActivated,
      null,
      '2026-03-21',
    ],
    [
      'first-visit pass after its first visit',
      firstVisitTerms,
      [visit('2026-03-12T17:00:00Z', V.present)],
      '2026-03-13T12:00:00Z',
      S.active,
      null,
      '2026-03-21',
    ],
    [
      'first-visit pass: the earliest visit counts',
      firstVisitTerms,
      [visit('2026-03-20T17:00:00Z'), visit('2026-03-12T17:00:00Z', V.present)],
      '2026-03-13T12:00:00Z',
      S.active,
      null,
      '2026-03-21',
    ],
    [
      'first-visit pass expired 10 days after the first visit',
      firstVisitTerms,
      [visit('2026-03-12T17:00:00Z', V.present)],
      '2026-03-22T12:00:00Z',
      S.inactive,
      'expired',
      '2026-03-21',
    ],
    [
      '1 entry, used in the past',
      terms({ entries: 1 }),
      [visit('2026-03-02T17:00:00Z', V.present)],
      '2026-03-10T12:00:00Z',
      S.inactive,
      'noEntriesLeft',
      '2026-03-30',
    ],
    [
      '1 entry, booked for later: still active',
      terms({ entries: 1 }),
      [visit('2026-03-12T17:00:00Z')],
      '2026-03-10T12:00:00Z',
      S.active,
      null,
      '2026-03-30',
    ],
  ] as const)('%s', (_case, t, visits, now, status, reason, lastValid) => {
    const state = derivePassState(
      { soldAt: sold, terms: t, changes: [], visits: [...visits] },
      new Date(now),
      WAW,
    );
    expect(state.status).toBe(status);
    expect(state.inactiveReason).toBe(reason);
    expect(state.lastValidDate).toBe(lastValid);
  });
});

describe('entries and staff changes derive from facts', () => {
  const sold = new Date('2026-01-15T09:00:00Z');
  const now = new Date('2026-01-20T12:00:00Z');
  const v = (status: number) => ({
    startsAt: new Date('2026-01-16T17:00:00Z'),
    status: status as PassVisit['status'],
  });

  it.each([
    ['no visits', 4, [], [], 4, 0, 4],
    [
      'present, absent and late cancels hold entries; early cancels give them back',
      4,
      [
        v(V.present),
        v(V.absent),
        v(V.selfLateCancel),
        v(V.selfEarlyCancel),
        v(V.classCancelled),
        v(V.waitingList),
      ],
      [],
      4,
      3,
      1,
    ],
    ['staff adds two entries', 4, [v(V.present)], [{ kind: 'entries', delta: 2 }], 6, 1, 5],
    ['staff takes one entry away', 4, [v(V.present)], [{ kind: 'entries', delta: -1 }], 3, 1, 2],
    ['unlimited', null, [v(V.present), v(V.present)], [], null, 2, null],
  ] as const)('%s', (_case, entries, visits, changes, total, used, left) => {
    const state = derivePassState(
      { soldAt: sold, terms: terms({ entries }), changes: [...changes] as PassChange[], visits: [...visits] },
      now,
      WAW,
    );
    expect([state.entriesTotal, state.entriesUsed, state.entriesLeft]).toEqual([total, used, left]);
  });

  it.each([
    ['extend by 7 days', [{ kind: 'extend', days: 7 }], '2026-02-20', false],
    [
      'freeze 1–10 Feb pushes the end by 10 days',
      [{ kind: 'freeze', from: '2026-02-01', to: '2026-02-10' }],
      '2026-02-23',
      false,
    ],
    ['frozen today', [{ kind: 'freeze', from: '2026-01-19', to: '2026-01-21' }], '2026-02-16', true],
    [
      'a freeze after the end changes nothing',
      [{ kind: 'freeze', from: '2026-03-01', to: '2026-03-10' }],
      '2026-02-13',
      false,
    ],
    [
      'extend then freeze',
      [
        { kind: 'extend', days: 5 },
        { kind: 'freeze', from: '2026-02-15', to: '2026-02-16' },
      ],
      '2026-02-20',
      false,
    ],
  ] as const)('%s', (_case, changes, lastValid, frozen) => {
    const state = derivePassState(
      { soldAt: sold, terms: terms({}), changes: [...changes] as PassChange[], visits: [] },
      now,
      WAW,
    );
    expect(state.lastValidDate).toBe(lastValid);
    expect(state.frozenNow).toBe(frozen);
  });
});
