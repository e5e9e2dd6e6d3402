import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * What the schedule asks of the bookings module. Bookings sits above the schedule (it reads events,
 * places and services), so the schedule never imports it: bookings registers these at load
 * (`bookings/module-hooks.ts`, loaded with `bookings.routes.ts`). A call before that is a wiring bug
 * and throws rather than silently skipping the visits.
 */
export interface ScheduleBookingHooks {
  /** Events cancelled or removed: everyone on them becomes "class cancelled", entries return, clients are told. */
  cancelVisitsOfEvents(trx: Db, studio: Studio, eventIds: string[], now: Date): Promise<void>;
  /** Which of these events have ever had a visit: history the schedule keeps (cancel, not delete). */
  eventsWithVisits(db: Db, studioId: string, eventIds: string[]): Promise<Set<string>>;
  /** Events got more places: their waiting lists fill them. Returns how many moved up. */
  promoteAfterCapacityChange(trx: Db, studio: Studio, eventIds: string[], now: Date): Promise<number>;
}

let registered: ScheduleBookingHooks | null = null;

export function registerScheduleBookingHooks(hooks: ScheduleBookingHooks): void {
  registered = hooks;
}

function hooks(): ScheduleBookingHooks {
  if (!registered) throw new Error('the bookings module has not registered its schedule hooks');
  return registered;
}

export const cancelVisitsOfEvents: ScheduleBookingHooks['cancelVisitsOfEvents'] = (...args) =>
  hooks().cancelVisitsOfEvents(...args);
export const eventsWithVisits: ScheduleBookingHooks['eventsWithVisits'] = (...args) =>
  hooks().eventsWithVisits(...args);
export const promoteAfterCapacityChange: ScheduleBookingHooks['promoteAfterCapacityChange'] = (...args) =>
  hooks().promoteAfterCapacityChange(...args);
