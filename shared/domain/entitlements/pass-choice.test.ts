import { describe, expect, it } from 'vitest';
import { PricingOptionExpirationType as E } from '../../enums/pricing-options';
import { PricingOptionServiceType as P } from '../../enums/services';
import { ClientVisitStatus as V } from '../../enums/visits';
import { choosePassForVisit, type PassCandidate, type VisitToPay } from './pass-choice';
import type { PassChange, PassTerms } from './pass-validity';

const WAW = 'Europe/Warsaw';
const YOGA = 'svc-yoga';
const PILATES = 'svc-pilates';
const CENTRUM = 'loc-centrum';
const MOKOTOW = 'loc-mokotow';
const STUDENT = 'tag-student';

interface PassSpec {
  id: string;
  soldAt?: string;
  terms?: Partial<PassTerms>;
  changes?: PassChange[];
  visits?: Array<[iso: string, status: number]>;
  serviceTypes?: string[];
  classServiceIds?: string[];
  locationIds?: string[];
  timeWindows?: Array<{ weekdays: number[]; fromMinutes: number; toMinutes: number }>;
  tagIds?: string[];
}

function pass(spec: PassSpec): PassCandidate {
  return {
    id: spec.id,
    facts: {
      soldAt: new Date(spec.soldAt ?? '2026-03-01T09:00:00Z'),
      terms: {
        expirationType: E.saleDate,
        validityCount: 30,
        validityUnit: 'day',
        validUntil: null,
        entries: null,
        ...spec.terms,
      },
      changes: spec.changes ?? [],
      visits: (spec.visits ?? []).map(([iso, status]) => ({
        startsAt: new Date(iso),
        status: status as (typeof V)[keyof typeof V],
      })),
    },
    coverage: {
      serviceTypes: (spec.serviceTypes ?? [P.classroom]) as PassCandidate['coverage']['serviceTypes'],
      classServiceIds: spec.classServiceIds ?? [],
      locationIds: spec.locationIds ?? [],
      timeWindows: spec.timeWindows ?? [],
      tagIds: spec.tagIds ?? [],
    },
  };
}

/** Monday 16 March 2026, 18:00 in Warsaw (17:00 UTC). */
const yogaClass: VisitToPay = {
  serviceType: 'classroom',
  serviceId: YOGA,
  locationId: CENTRUM,
  startsAt: new Date('2026-03-16T17:00:00Z'),
  clientTagIds: [],
};

const MORNINGS_WEEKDAYS = [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 6 * 60, toMinutes: 16 * 60 }];

describe('choosePassForVisit', () => {
  it.each<[string, PassSpec[], Partial<VisitToPay>, string | null, string | null]>([
    // [case, passes, visit overrides, chosen pass, reason when none]
    ['no passes at all', [], {}, null, 'noPasses'],
    ['the one fitting pass', [{ id: 'a' }], {}, 'a', null],
    [
      'earliest expiry first',
      [
        { id: 'later', soldAt: '2026-03-10T09:00:00Z' },
        { id: 'sooner', soldAt: '2026-03-02T09:00:00Z' },
        { id: 'never', terms: { expirationType: E.always } },
      ],
      {},
      'sooner',
      null,
    ],
    [
      'a never-expiring pass when it is the only fit',
      [{ id: 'never', terms: { expirationType: E.always } }],
      {},
      'never',
      null,
    ],
    [
      'same expiry: fewer entries left first',
      [
        { id: 'ten', terms: { entries: 10 } },
        { id: 'two', terms: { entries: 2 } },
      ],
      {},
      'two',
      null,
    ],
    [
      'a first-visit pass runs from this visit, so a sale-date pass ending sooner goes first',
      [
        {
          id: 'first-visit',
          soldAt: '2026-01-01T09:00:00Z',
          terms: { expirationType: E.firstVisit, validityCount: 30 },
        },
        { id: 'sale-date', soldAt: '2026-03-01T09:00:00Z' },
      ],
      {},
      'sale-date',
      null,
    ],
    [
      'a pass for appointments does not pay for a class',
      [{ id: 'a', serviceTypes: [P.appointment] }],
      {},
      null,
      'serviceNotCovered',
    ],
    [
      'a pass for courses and classes pays for a course',
      [{ id: 'a', serviceTypes: [P.classroom, P.course] }],
      { serviceType: 'course' },
      'a',
      null,
    ],
    [
      'a pass for entries pays for an entry',
      [{ id: 'a', serviceTypes: [P.entry] }],
      { serviceType: 'entry', serviceId: 'gym' },
      'a',
      null,
    ],
    [
      'a pass restricted to pilates does not pay for yoga',
      [{ id: 'a', classServiceIds: [PILATES] }],
      {},
      null,
      'serviceNotCovered',
    ],
    [
      'a pass restricted to yoga pays for yoga',
      [{ id: 'a', classServiceIds: [YOGA, PILATES] }],
      {},
      'a',
      null,
    ],
    ['another location', [{ id: 'a', locationIds: [MOKOTOW] }], {}, null, 'locationNotCovered'],
    [
      'weekday mornings only: an 18:00 class',
      [{ id: 'a', timeWindows: MORNINGS_WEEKDAYS }],
      {},
      null,
      'timeNotCovered',
    ],
    [
      'weekday mornings only: 15:59 local fits',
      [{ id: 'a', timeWindows: MORNINGS_WEEKDAYS }],
      { startsAt: new Date('2026-03-16T14:59:00Z') },
      'a',
      null,
    ],
    [
      'weekday mornings only: 16:00 local is outside',
      [{ id: 'a', timeWindows: MORNINGS_WEEKDAYS }],
      { startsAt: new Date('2026-03-16T15:00:00Z') },
      null,
      'timeNotCovered',
    ],
    // 30 March 2026 is after the switch to summer time: 07:00 local is 05:00 UTC.
    [
      'weekday mornings after DST: 07:00 local',
      [{ id: 'a', timeWindows: MORNINGS_WEEKDAYS }],
      { startsAt: new Date('2026-03-30T05:00:00Z') },
      'a',
      null,
    ],
    [
      'weekday mornings: a Saturday',
      [{ id: 'a', timeWindows: MORNINGS_WEEKDAYS }],
      { startsAt: new Date('2026-03-21T09:00:00Z') },
      null,
      'timeNotCovered',
    ],
    ['students only: client without the tag', [{ id: 'a', tagIds: [STUDENT] }], {}, null, 'tagRequired'],
    [
      'students only: client with the tag',
      [{ id: 'a', tagIds: [STUDENT] }],
      { clientTagIds: [STUDENT] },
      'a',
      null,
    ],
    ['sold after the class', [{ id: 'a', soldAt: '2026-03-17T09:00:00Z' }], {}, null, 'notYetValid'],
    ['expired before the class', [{ id: 'a', soldAt: '2026-02-01T09:00:00Z' }], {}, null, 'expired'],
    [
      'specific date passed',
      [{ id: 'a', terms: { expirationType: E.specificDate, validUntil: '2026-03-15' } }],
      {},
      null,
      'expired',
    ],
    [
      'specific date is the class day',
      [{ id: 'a', terms: { expirationType: E.specificDate, validUntil: '2026-03-16' } }],
      {},
      'a',
      null,
    ],
    [
      'calendar month: the class next month',
      [
        {
          id: 'a',
          soldAt: '2026-02-20T09:00:00Z',
          terms: { expirationType: E.calendarMonth, validityCount: 1, validityUnit: null },
        },
      ],
      {},
      null,
      'expired',
    ],
    [
      'frozen on the class day',
      [{ id: 'a', changes: [{ kind: 'freeze', from: '2026-03-14', to: '2026-03-18' }] }],
      {},
      null,
      'frozen',
    ],
    [
      'extended past the class',
      [{ id: 'a', soldAt: '2026-02-01T09:00:00Z', changes: [{ kind: 'extend', days: 14 }] }],
      {},
      'a',
      null,
    ],
    [
      'the last entry is booked already',
      [{ id: 'a', terms: { entries: 1 }, visits: [['2026-03-20T17:00:00Z', V.booked]] }],
      {},
      null,
      'noEntriesLeft',
    ],
    [
      'an early-cancelled visit gave its entry back',
      [{ id: 'a', terms: { entries: 1 }, visits: [['2026-03-20T17:00:00Z', V.selfEarlyCancel]] }],
      {},
      'a',
      null,
    ],
    [
      'says the closest reason: expired beats not covered',
      [
        { id: 'appointments', serviceTypes: [P.appointment] },
        { id: 'old', soldAt: '2026-01-01T09:00:00Z' },
      ],
      {},
      null,
      'expired',
    ],
    [
      'skips the unfit and takes the fit',
      [
        { id: 'old', soldAt: '2026-01-01T09:00:00Z' },
        { id: 'used', terms: { entries: 1 }, visits: [['2026-03-02T17:00:00Z', V.present]] },
        { id: 'good', soldAt: '2026-03-12T09:00:00Z' },
      ],
      {},
      'good',
      null,
    ],
  ])('%s', (_case, specs, overrides, chosen, reason) => {
    const result = choosePassForVisit(specs.map(pass), { ...yogaClass, ...overrides }, WAW);
    if (chosen) {
      expect(result).toMatchObject({ ok: true, passId: chosen });
    } else {
      expect(result).toMatchObject({ ok: false, reason });
      if (!result.ok) expect(result.rejected.map((r) => r.passId)).toEqual(specs.map((s) => s.id));
    }
  });
});
