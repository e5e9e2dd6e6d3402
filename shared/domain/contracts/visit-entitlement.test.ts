import { describe, expect, it } from 'vitest';
import { PricingOptionExpirationType as E } from '../../enums/pricing-options';
import { PricingOptionServiceType as P } from '../../enums/services';
import type { PassCandidate, VisitToPay } from '../entitlements/pass-choice';
import type { ContractEntitlement } from './entitlement';
import { chooseEntitlementForVisit } from './visit-entitlement';

const WAW = 'Europe/Warsaw';
const MON_FRI_6_12 = [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 6 * 60, toMinutes: 12 * 60 }];

function contract(id: string, over: Partial<ContractEntitlement> = {}): ContractEntitlement {
  return {
    id,
    coverage: {
      serviceTypes: [P.classroom],
      classServiceIds: [],
      locationIds: [],
      timeWindows: [],
      tagIds: [],
    },
    entitledFrom: '2026-12-01',
    endsOn: null,
    suspensions: [],
    ...over,
  };
}
const restricted = (id: string, over: Partial<ContractEntitlement> = {}) =>
  contract(id, { coverage: { ...contract(id).coverage, timeWindows: MON_FRI_6_12 }, ...over });

function pass(id: string, over: { entries?: number | null; serviceTypes?: string[] } = {}): PassCandidate {
  return {
    id,
    facts: {
      soldAt: new Date('2026-12-01T09:00:00Z'),
      terms: {
        expirationType: E.saleDate,
        validityCount: 3,
        validityUnit: 'month',
        validUntil: null,
        entries: over.entries === undefined ? 10 : over.entries,
      },
      changes: [],
      visits: [],
    },
    coverage: {
      serviceTypes: (over.serviceTypes ?? [P.classroom]) as PassCandidate['coverage']['serviceTypes'],
      classServiceIds: [],
      locationIds: [],
      timeWindows: [],
      tagIds: [],
    },
  };
}

/** Wednesday 9 December 2026 09:00 Warsaw (08:00 UTC); Saturday 12 December 09:00 Warsaw. */
const WEDNESDAY_9 = '2026-12-09T08:00:00Z';
const SATURDAY_9 = '2026-12-12T08:00:00Z';
const visit = (startsAt: string, over: Partial<VisitToPay> = {}): VisitToPay => ({
  serviceType: 'classroom',
  serviceId: 'svc-yoga',
  locationId: 'loc-a',
  startsAt: new Date(startsAt),
  clientTagIds: [],
  ...over,
});

describe('chooseEntitlementForVisit', () => {
  it.each<
    [
      string,
      { contracts: ContractEntitlement[]; passes: PassCandidate[] },
      VisitToPay,
      { kind: 'contract' | 'pass'; id: string } | { reason: string },
    ]
  >([
    ['holds nothing', { contracts: [], passes: [] }, visit(WEDNESDAY_9), { reason: 'noPasses' }],
    [
      'a contract alone pays',
      { contracts: [contract('c1')], passes: [] },
      visit(WEDNESDAY_9),
      { kind: 'contract', id: 'c1' },
    ],
    [
      'a covering contract before a pass (entries are kept)',
      { contracts: [contract('c1')], passes: [pass('p1')] },
      visit(WEDNESDAY_9),
      { kind: 'contract', id: 'c1' },
    ],
    [
      'a suspended contract does not entitle: frozen',
      { contracts: [contract('c1', { suspensions: [{ from: '2026-12-05', to: null }] })], passes: [] },
      visit(WEDNESDAY_9),
      { reason: 'frozen' },
    ],
    [
      'a suspended contract: the pass pays instead',
      {
        contracts: [contract('c1', { suspensions: [{ from: '2026-12-05', to: '2026-12-20' }] })],
        passes: [pass('p1')],
      },
      visit(WEDNESDAY_9),
      { kind: 'pass', id: 'p1' },
    ],
    [
      'after the suspension ended the contract pays again',
      {
        contracts: [contract('c1', { suspensions: [{ from: '2026-12-01', to: '2026-12-08' }] })],
        passes: [],
      },
      visit(WEDNESDAY_9),
      { kind: 'contract', id: 'c1' },
    ],
    [
      'Mon–Fri 6–12: Wednesday 9:00 is covered',
      { contracts: [restricted('c1')], passes: [] },
      visit(WEDNESDAY_9),
      { kind: 'contract', id: 'c1' },
    ],
    [
      'Mon–Fri 6–12: Saturday 9:00 is refused with timeNotCovered',
      { contracts: [restricted('c1')], passes: [] },
      visit(SATURDAY_9),
      { reason: 'timeNotCovered' },
    ],
    [
      'Mon–Fri 6–12: Wednesday 12:00 (end is exclusive) refused',
      { contracts: [restricted('c1')], passes: [] },
      visit('2026-12-09T11:00:00Z'),
      { reason: 'timeNotCovered' },
    ],
    [
      'Mon–Fri 6–12 on Saturday: a pass covers it',
      { contracts: [restricted('c1')], passes: [pass('p1')] },
      visit(SATURDAY_9),
      { kind: 'pass', id: 'p1' },
    ],
    [
      'service not covered by the contract, nor by the pass',
      { contracts: [contract('c1')], passes: [pass('p1')] },
      visit(WEDNESDAY_9, { serviceType: 'appointment' }),
      { reason: 'serviceNotCovered' },
    ],
    [
      'the closest reason wins across both: frozen contract over an uncovered pass',
      {
        contracts: [contract('c1', { suspensions: [{ from: '2026-12-01', to: null }] })],
        passes: [pass('p1', { serviceTypes: [P.appointment] })],
      },
      visit(WEDNESDAY_9),
      { reason: 'frozen' },
    ],
    [
      'before the contract starts',
      { contracts: [contract('c1', { entitledFrom: '2027-01-01' })], passes: [] },
      visit(WEDNESDAY_9),
      { reason: 'notYetValid' },
    ],
    [
      'after a terminated contract ended',
      { contracts: [contract('c1', { endsOn: '2026-12-08' })], passes: [] },
      visit(WEDNESDAY_9),
      { reason: 'expired' },
    ],
    [
      'two covering contracts: the one ending first',
      {
        contracts: [
          contract('open'),
          contract('fixed-late', { endsOn: '2027-11-30' }),
          contract('fixed-soon', { endsOn: '2027-05-31' }),
        ],
        passes: [],
      },
      visit(WEDNESDAY_9),
      { kind: 'contract', id: 'fixed-soon' },
    ],
  ])('%s', (_name, holdings, v, expected) => {
    const result = chooseEntitlementForVisit(holdings, v, WAW);
    if ('reason' in expected) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toBe(expected.reason);
    } else if (!result.ok) {
      expect.fail(`expected ${expected.kind} ${expected.id}, refused: ${result.reason}`);
    } else {
      expect(result.kind).toBe(expected.kind);
      expect(result.kind === 'contract' ? result.clientContractId : result.passId).toBe(expected.id);
    }
  });

  it('lists every rejection with its kind', () => {
    const result = chooseEntitlementForVisit(
      { contracts: [restricted('c1')], passes: [pass('p1', { entries: 0 })] },
      visit(SATURDAY_9),
      WAW,
    );
    expect(result).toEqual({
      ok: false,
      reason: 'noEntriesLeft',
      rejected: [
        { kind: 'contract', id: 'c1', reason: 'timeNotCovered' },
        { kind: 'pass', id: 'p1', reason: 'noEntriesLeft' },
      ],
    });
  });
});
