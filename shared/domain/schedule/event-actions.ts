/**
 * What staff may do to one schedule event (spec §4: shown, hidden, restored, cancelled, removed, made
 * bookable or unbookable online, singly or in bulk; the statuses and allowed changes are not shown).
 *
 * Our state: a status (scheduled → cancelled or removed), plus two flags (hidden from the timetable,
 * bookable online). Decisions:
 * - Repeating an action already in effect is allowed and changes nothing, so a bulk action over a
 *   mixed selection does not fail on the events that are already there.
 * - A removed event is gone from every timetable: only restore applies to it.
 * - Cancelling, removing and restoring change a class's history, so they are refused once it has
 *   ended; so is making it bookable online (nothing is left to book). Hiding, showing, making it
 *   unbookable and editing stay possible (e.g. fixing the instructor for payroll).
 * - A cancelled event stays on the timetable marked cancelled (clients see it was called off) and
 *   cannot be bookable online: cancelling makes it unbookable, restoring does not make it bookable
 *   again (staff decide).
 */
export const SCHEDULE_EVENT_STATUSES = ['scheduled', 'cancelled', 'removed'] as const;
export type ScheduleEventStatus = (typeof SCHEDULE_EVENT_STATUSES)[number];

export const SCHEDULE_EVENT_ACTIONS = [
  'show',
  'hide',
  'cancel',
  'restore',
  'remove',
  'bookableOnline',
  'unbookableOnline',
] as const;
export type ScheduleEventAction = (typeof SCHEDULE_EVENT_ACTIONS)[number];

/** The actions by their path segment (`schedule-events/{action}/bulk`). */
export const ACTION_BY_SEGMENT: Record<string, ScheduleEventAction> = {
  show: 'show',
  hide: 'hide',
  cancel: 'cancel',
  restore: 'restore',
  remove: 'remove',
  'bookable-online': 'bookableOnline',
  'unbookable-online': 'unbookableOnline',
};

export interface ScheduleEventState {
  status: ScheduleEventStatus;
  hidden: boolean;
  bookableOnline: boolean;
}

export type ActionRefusal = 'removed' | 'cancelled' | 'ended';
export type ActionOutcome = { ok: true; state: ScheduleEventState } | { ok: false; reason: ActionRefusal };

export function applyEventAction(
  state: ScheduleEventState,
  action: ScheduleEventAction,
  event: { endsAt: Date },
  now: Date,
): ActionOutcome {
  const ended = event.endsAt.getTime() <= now.getTime();
  const refuse = (reason: ActionRefusal): ActionOutcome => ({ ok: false, reason });
  const ok = (change: Partial<ScheduleEventState>): ActionOutcome => ({
    ok: true,
    state: { ...state, ...change },
  });
  if (state.status === 'removed' && action !== 'restore') return refuse('removed');
  switch (action) {
    case 'show':
      return ok({ hidden: false });
    case 'hide':
      return ok({ hidden: true });
    case 'unbookableOnline':
      return ok({ bookableOnline: false });
    case 'bookableOnline':
      if (state.status === 'cancelled') return refuse('cancelled');
      if (ended) return refuse('ended');
      return ok({ bookableOnline: true });
    case 'cancel':
      if (state.status === 'cancelled') return ok({});
      if (ended) return refuse('ended');
      return ok({ status: 'cancelled', bookableOnline: false });
    case 'remove':
      if (ended) return refuse('ended');
      return ok({ status: 'removed', bookableOnline: false });
    case 'restore':
      if (state.status === 'scheduled') return ok({});
      if (ended) return refuse('ended');
      return ok({ status: 'scheduled' });
  }
}

/** Editing one event (times, room, instructors, sizes, livestream link): anything not removed. */
export function canEditEvent(state: ScheduleEventState): boolean {
  return state.status !== 'removed';
}
