import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

describe('client screen dates', () => {
  it('a birth date is the same day whatever the zone', () => {
    expect(formatDate('1990-07-04', 'en', 'Pacific/Kiritimati')).toBe('4 Jul 1990');
    expect(formatDate('1990-07-04', 'pl')).toBe('04.07.1990');
  });

  it('an instant is the studio’s day', () => {
    expect(formatDate('2026-11-21T23:30:00.000Z', 'en', 'Europe/Warsaw')).toBe('22 Nov 2026');
    expect(formatDate('2026-11-21T23:30:00.000Z', 'en', 'UTC')).toBe('21 Nov 2026');
    expect(formatDateTime('2026-11-21T23:30:00.000Z', 'en', 'Europe/Warsaw')).toBe('22 Nov 2026, 00:30');
  });

  it('shows what it cannot read as it came', () => {
    expect(formatDate('soon', 'en')).toBe('soon');
  });
});
