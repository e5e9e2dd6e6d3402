import type { BookingOutcome, BookingRefusal } from '../../contracts/api/bookings';
import { BookingAccessibility } from '../../enums/visits';
import { actsAsClient, type Actor } from './visit-status';
import { bookingWindowState, isLateCancel, walkInUntil, type BookingRules } from './timing';

/** Who may book a class online (spec §3 booking accessibility), by the client's tags. */
export function isAccessible(
  accessibility: number,
  bookingTagIds: readonly string[],
  clientTagIds: readonly string[],
): boolean {
  const tagged = bookingTagIds.some((t) => clientTagIds.includes(t));
  switch (accessibility) {
    case BookingAccessibility.disabledForAll:
      return false;
    case BookingAccessibility.enabledForAll:
      return true;
    case BookingAccessibility.disabledForTags:
      return !tagged;
    case BookingAccessibility.enabledForTags:
      return tagged;
    default:
      return false;
  }
}

export interface EventForBooking extends BookingRules {
  status: 'scheduled' | 'cancelled' | 'removed';
  bookableOnline: boolean;
  capacity: number;
  waitingListSize: number;
  bookingAccessibility: number;
  bookingTagIds: readonly string[];
}

/** How the visit would be paid: a covering pass, a free class, at the desk later, or not at all. */
export type Payment = 'pass' | 'free' | 'desk' | 'none';

export interface BookingAttempt {
  event: EventForBooking;
  actor: Actor;
  /** Staff skip the conflict, capacity and ended-class rules (needs `schedule.overrideRules`). */
  override: boolean;
  now: Date;
  timeZone: string;
  clientTagIds: readonly string[];
  /** The client already stands on this class (booked, attended, unconfirmed or waiting). */
  alreadyOnClass: boolean;
  /** Another class of the client's overlaps this one. */
  hasConflict: boolean;
  payment: Payment;
  /** Places taken and people waiting now (read under the event's row lock). */
  taken: number;
  waiting: number;
  /** Full class: may the attempt end on the waiting list. */
  waitingListWanted: boolean;
  /** The studio's walk-in window: staff add people until this many minutes after the start (null or
   * absent: until the class ends). */
  walkInMinutes?: number | null;
}

export type BookingDecision = { ok: true; outcome: BookingOutcome } | { ok: false; refusal: BookingRefusal };

/**
 * Whether a booking attempt gets a place, a place to pay at the desk, the waiting list, or a refusal
 * (the first reason in BOOKING_REFUSALS order). Online rules (bookable online, accessibility, the
 * booking window) bind clients and the public API; staff book at the desk regardless of them.
 * Conflicts, capacity and a class that has ended bind staff unless they override.
 */
export function decideBooking(a: BookingAttempt): BookingDecision {
  const refuse = (refusal: BookingRefusal): BookingDecision => ({ ok: false, refusal });
  const client = actsAsClient(a.actor);
  const { event, now } = a;
  if (event.status !== 'scheduled') return refuse('classCancelled');
  if (client ? now >= event.startsAt : now >= walkInUntil(event, a.walkInMinutes ?? null) && !a.override)
    return refuse('classStarted');
  if (client) {
    if (!event.bookableOnline) return refuse('notBookableOnline');
    if (!isAccessible(event.bookingAccessibility, event.bookingTagIds, a.clientTagIds))
      return refuse('notAccessible');
    const window = bookingWindowState(event, now, a.timeZone);
    if (window === 'notOpen') return refuse('bookingNotOpen');
    if (window === 'closed') return refuse('bookingClosed');
  }
  if (a.alreadyOnClass) return refuse('alreadyBooked');
  if (a.hasConflict && !(a.override && !client)) return refuse('conflict');
  if (a.payment === 'none') return refuse('noPass');
  const placeOutcome: BookingOutcome = a.payment === 'desk' ? 'unconfirmed' : 'booked';
  if (a.taken < event.capacity || (a.override && !client)) return { ok: true, outcome: placeOutcome };
  if (a.waitingListWanted && a.waiting < event.waitingListSize) return { ok: true, outcome: 'waitingList' };
  return refuse('classFull');
}

export type CancelDecision =
  | { ok: true; kind: 'earlyCancel' | 'lateCancel' | 'leaveWaitingList' }
  | { ok: false; refusal: 'classStarted' | 'classCancelled' | 'notCancellable' };

/**
 * What cancelling a visit at `now` is: leaving the waiting list (any time before the end), an early
 * cancel before the cut-off (entry returned), a late one after it (entry kept). Clients cannot cancel
 * once the class has started; staff can until it ends (later they mark absence).
 */
export function decideCancel(
  status: number,
  event: BookingRules & { status: 'scheduled' | 'cancelled' | 'removed' },
  actor: Actor,
  now: Date,
): CancelDecision {
  if (event.status !== 'scheduled') return { ok: false, refusal: 'classCancelled' };
  const client = actsAsClient(actor);
  if (status === 8) {
    if (now >= event.endsAt) return { ok: false, refusal: 'classStarted' };
    return { ok: true, kind: 'leaveWaitingList' };
  }
  if (status !== 0 && status !== 9) return { ok: false, refusal: 'notCancellable' };
  if (client ? now >= event.startsAt : now >= event.endsAt) return { ok: false, refusal: 'classStarted' };
  return { ok: true, kind: isLateCancel(event, now) ? 'lateCancel' : 'earlyCancel' };
}
