import type { Occurrence } from './occurrences';
import type { ScheduleEventStatus } from './event-actions';

/**
 * Idempotent generation and re-synchronisation of a meta's events.
 *
 * An event is identified within its meta by its occurrence date. Decisions:
 * - Generating again never duplicates: a date that already has an event (in any state, removed
 *   included) is skipped, so a removed occurrence is not brought back by the next generation.
 * - Events edited one by one (`edited`), cancelled or removed ones, and events that have started are
 *   never overwritten: they belong to their history, not to the recurring definition.
 * - When the meta changes, the other (untouched, scheduled, future) events follow it: their times,
 *   room and sizes are updated, and those whose date no longer occurs are deleted.
 */
export interface ExistingEvent {
  id: string;
  date: string;
  startsAt: Date;
  status: ScheduleEventStatus;
  edited: boolean;
}

export interface GenerationPlan {
  create: Occurrence[];
  update: Array<{ id: string; occurrence: Occurrence }>;
  delete: string[];
}

function followsMeta(event: ExistingEvent, now: Date): boolean {
  return event.status === 'scheduled' && !event.edited && event.startsAt.getTime() > now.getTime();
}

/**
 * What to do so the events of one meta match its occurrences inside the generation window.
 * `existing` must hold every event of the meta on the window's days; `resync` also updates and deletes
 * untouched future events (after a meta change), plain generation only creates.
 */
export function planGeneration(
  occurrences: readonly Occurrence[],
  existing: readonly ExistingEvent[],
  now: Date,
  options: { resync: boolean },
): GenerationPlan {
  const byDate = new Map(existing.map((e) => [e.date, e]));
  const wanted = new Set(occurrences.map((o) => o.date));
  const plan: GenerationPlan = { create: [], update: [], delete: [] };
  for (const occurrence of occurrences) {
    const event = byDate.get(occurrence.date);
    if (!event) {
      // Only future classes are created: generating never back-fills the past.
      if (occurrence.startsAt.getTime() > now.getTime()) plan.create.push(occurrence);
    } else if (options.resync && followsMeta(event, now)) {
      plan.update.push({ id: event.id, occurrence });
    }
  }
  if (options.resync) {
    for (const event of existing)
      if (!wanted.has(event.date) && followsMeta(event, now)) plan.delete.push(event.id);
  }
  return plan;
}
