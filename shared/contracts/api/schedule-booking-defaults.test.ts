import { describe, expect, it } from 'vitest';
import { classBookingDefaults } from './schedule';

describe('classBookingDefaults', () => {
  it.each([
    [{ bookingWindowDays: 14, bookingCutoffMinutes: 30, cancellationCutoffMinutes: 720 }, [336, 30, 720]],
    [{ bookingWindowDays: 365, bookingCutoffMinutes: 0, cancellationCutoffMinutes: 0 }, [8760, 0, 0]],
    // Policies may allow 14 days of free cancellation; a class holds at most 7.
    [
      { bookingWindowDays: 1, bookingCutoffMinutes: 0, cancellationCutoffMinutes: 14 * 1440 },
      [24, 0, 7 * 1440],
    ],
  ])('%o → opens, closes, cut-off %o', (policies, [opens, closes, cutoff]) => {
    expect(classBookingDefaults(policies)).toEqual({
      bookingOpensHours: opens,
      bookingClosesMinutes: closes,
      cancellationCutoffMinutes: cutoff,
    });
  });
});
