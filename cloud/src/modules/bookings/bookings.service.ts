/**
 * What other modules use of the booking rules (the schedule, sales, kiosk and sync modules and the
 * job tests import from here); inside this folder, import the file of the seam itself. The code
 * lives in files along its seams:
 * - `booking-facts.service.ts`: the event and its rules, the locks, settings, what pays, refusals;
 * - `book.service.ts`: booking a class;
 * - `cancel-and-fees.service.ts`: cancelling, late-cancel and no-show fees, classes cancelled;
 * - `waiting-list.service.ts`: joining, promotion, reordering;
 * - `attendance.service.ts`: check-in, absence, paying at the desk.
 */
export {
  clientTagIds,
  eventsWithVisits,
  readEvent,
  settingsOf,
  standingVisit,
  type BookingEventRow,
} from './booking-facts.service';
export { bookVisit, type BookRequest } from './book.service';
export { cancelVisit, cancelVisitsOfEvents } from './cancel-and-fees.service';
export { promoteAfterCapacityChange } from './waiting-list.service';
export { changeEnrollmentStatus, markVisitsPaid } from './attendance.service';
