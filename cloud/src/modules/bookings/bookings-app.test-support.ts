import { ManualClock, useTestApp } from '../../../../tests/support/test-app';

/** The bookings tests' "now": Monday 1 June 2026, 12:00 in Warsaw. */
export const NOW = new Date('2026-06-01T10:00:00Z');
/** The class `bookingStudio` schedules: Wednesday 3 June 2026, 18:00 in Warsaw. */
export const START = new Date('2026-06-03T16:00:00Z');
export const v4 = (s: { id: string }, path: string) => `/api/v4/${s.id}/${path}`;

/** The file's app on a manual clock set at NOW, started before its tests and closed after them. */
export function useBookingsApp(timeout?: number) {
  const clock = new ManualClock(NOW);
  return { app: useTestApp({ clock }, timeout), clock };
}
