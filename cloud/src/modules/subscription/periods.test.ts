import { describe, expect, it } from 'vitest';
import { nextPeriod, periodBounds, periodOf, previousPeriod, renewalPeriod } from './periods';

describe('subscription period identifiers', () => {
  it('is the month in the studio’s time zone', () => {
    // 23:30 UTC on 31 December is already January in Warsaw.
    expect(periodOf(new Date('2026-12-31T23:30:00Z'), 'Europe/Warsaw')).toBe('2027-01');
    expect(periodOf(new Date('2026-12-31T23:30:00Z'), 'UTC')).toBe('2026-12');
  });
  it('steps over year ends and knows month lengths', () => {
    expect(nextPeriod('2026-12')).toBe('2027-01');
    expect(previousPeriod('2027-01')).toBe('2026-12');
    expect(periodBounds('2028-02')).toEqual({ startsOn: '2028-02-01', endsOn: '2028-02-29' });
  });
  it('renews the current month when unpaid, else the month after the last paid', () => {
    expect(renewalPeriod('2026-11', null)).toBe('2026-11');
    expect(renewalPeriod('2026-11', '2026-09')).toBe('2026-11');
    expect(renewalPeriod('2026-11', '2026-11')).toBe('2026-12');
    expect(renewalPeriod('2026-11', '2027-01')).toBe('2027-02');
  });
});
