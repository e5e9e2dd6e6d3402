import { describe, expect, it } from 'vitest';
import type { ServiceType } from '../../enums/services';
import { clientContractStatus, contractRejection, type ContractEntitlement } from './entitlement';

const contract = (over: Partial<ContractEntitlement> = {}): ContractEntitlement => ({
  id: 'c1',
  coverage: {
    serviceTypes: ['classroomPricingOption'],
    classServiceIds: [],
    locationIds: ['loc-a'],
    timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 6 * 60, toMinutes: 16 * 60 }],
    tagIds: [],
  },
  entitledFrom: '2026-12-01',
  endsOn: '2027-05-31',
  suspensions: [{ from: '2027-02-01', to: '2027-02-28' }],
  ...over,
});
const visit = (startsAt: string, over: { serviceType?: ServiceType; locationId?: string } = {}) => ({
  serviceType: over.serviceType ?? ('classroom' as ServiceType),
  serviceId: 'svc',
  locationId: over.locationId ?? 'loc-a',
  startsAt: new Date(startsAt),
  clientTagIds: [],
});

describe('contractRejection: coverage like a pass, validity from the contract', () => {
  it.each([
    ['a Monday morning class inside the contract', visit('2026-12-07T08:00:00Z'), null],
    [
      'an appointment (not covered)',
      visit('2026-12-07T08:00:00Z', { serviceType: 'appointment' }),
      'serviceNotCovered',
    ],
    ['another location', visit('2026-12-07T08:00:00Z', { locationId: 'loc-b' }), 'locationNotCovered'],
    ['an evening class (outside hours)', visit('2026-12-07T17:30:00Z'), 'timeNotCovered'],
    [
      '00:30 on 1 December in Warsaw (30 Nov 23:30 UTC): its first day, but outside the hours',
      visit('2026-11-30T23:30:00Z'),
      'timeNotCovered',
    ],
    ['the day before it starts', visit('2026-11-30T08:00:00Z'), 'notYetValid'],
    ['inside the suspension', visit('2027-02-15T08:00:00Z'), 'frozen'],
    ['after the last day', visit('2027-06-01T08:00:00Z'), 'expired'],
    ['on the last day (DST summer time)', visit('2027-05-31T07:00:00Z'), null],
  ] as const)('%s', (_name, v, expected) => {
    expect(contractRejection(contract(), v, 'Europe/Warsaw')).toBe(expected);
  });

  it('an open suspension blocks until resumed; an open-ended contract never expires', () => {
    const open = contract({ endsOn: null, suspensions: [{ from: '2027-03-01', to: null }] });
    expect(contractRejection(open, visit('2030-03-04T08:00:00Z'), 'Europe/Warsaw')).toBe('frozen');
    expect(
      contractRejection({ ...open, suspensions: [] }, visit('2030-03-04T08:00:00Z'), 'Europe/Warsaw'),
    ).toBe(null);
  });
});

describe('clientContractStatus', () => {
  const base = {
    entitledFrom: '2026-12-01',
    endsOn: null as string | null,
    suspensions: [],
    terminated: false,
  };
  it.each([
    [base, '2026-11-30', 'notStarted'],
    [base, '2026-12-01', 'active'],
    [{ ...base, suspensions: [{ from: '2027-01-01', to: null }] }, '2027-03-03', 'suspended'],
    [{ ...base, terminated: true, endsOn: '2027-01-31' }, '2027-01-31', 'ending'],
    [{ ...base, terminated: true, endsOn: '2027-01-31' }, '2027-02-01', 'ended'],
    [{ ...base, endsOn: '2027-11-30' }, '2027-12-01', 'ended'],
  ] as const)('%o on %s is %s', (c, today, status) => {
    expect(clientContractStatus(c, today)).toBe(status);
  });
});
