import { describe, expect, it } from 'vitest';
import { unitOf } from './CutoffInput';

describe('the cancellation window in hours or days (issue 26)', () => {
  it('starts at the largest whole unit: 720 minutes are 12 hours, 2880 are 2 days, 90 stay minutes', () => {
    expect(unitOf(720)).toBe('hours');
    expect(unitOf(2880)).toBe('days');
    expect(unitOf(1440)).toBe('days');
    expect(unitOf(90)).toBe('minutes');
    expect(unitOf(0)).toBe('hours');
  });
});
