import { addLocalDays, type LocalDate } from '../entitlements/local-dates';
import { firstPeriodOnOrAfter, periodEnd, periodStart, type ContractPeriod } from './periods';
import type { ScheduledInstalment } from './termination';

export type SuspensionRefusal = 'nothingToSuspend' | 'notSuspended';

/**
 * Suspending from day F: billing pauses at the first period boundary on or after F (the period
 * running on F was charged and stays usable to its end). Every period instalment not yet ordered
 * from that boundary on becomes `suspended`. Refused when no such instalment exists.
 */
export function planSuspension(
  instalments: readonly ScheduledInstalment[],
  from: LocalDate,
): { ok: true; startsOn: LocalDate; suspend: string[] } | { ok: false; reason: SuspensionRefusal } {
  const open = instalments
    .filter(
      (i) =>
        i.kind === 'period' &&
        (i.status === 'scheduled' || i.status === 'due') &&
        i.periodStartsOn !== null &&
        i.periodStartsOn >= from,
    )
    .sort((a, b) => (a.periodIndex ?? 0) - (b.periodIndex ?? 0));
  if (open.length === 0) return { ok: false, reason: 'nothingToSuspend' };
  return { ok: true, startsOn: open[0]!.periodStartsOn!, suspend: open.map((i) => i.id) };
}

export interface ResumePlan {
  /** Last day of the suspension: the day before billing starts again. */
  suspensionEndsOn: LocalDate;
  /** Whole periods the remaining schedule moves later. */
  shiftPeriods: number;
  /** The suspended instalments with their new period, dates and status `scheduled`. */
  moved: Array<Pick<ScheduledInstalment, 'id' | 'periodIndex' | 'periodStartsOn' | 'periodEndsOn' | 'dueOn'>>;
  /** New last day of a fixed-duration contract (its last period moved too); null when open-ended. */
  endsOn: LocalDate | null;
}

/**
 * Resuming on day R: billing restarts at the first period boundary on or after R (and never before
 * the suspension began), counted on the contract's own anchor so the day of the month stays. Every
 * suspended instalment moves later by the same whole number of periods; a fixed duration keeps its
 * number of periods, so its end moves too. The client is not entitled during the suspension.
 */
export function planResume(input: {
  anchor: LocalDate;
  period: ContractPeriod;
  instalments: readonly ScheduledInstalment[];
  suspensionStartsOn: LocalDate;
  resumeOn: LocalDate;
  fixedDuration: boolean;
}): ResumePlan | { ok: false; reason: SuspensionRefusal } {
  const suspended = input.instalments
    .filter((i) => i.kind === 'period' && i.status === 'suspended')
    .sort((a, b) => (a.periodIndex ?? 0) - (b.periodIndex ?? 0));
  const restart = input.resumeOn > input.suspensionStartsOn ? input.resumeOn : input.suspensionStartsOn;
  const first = suspended[0];
  if (!first) {
    // Nothing was waiting (e.g. the schedule had no more periods): the suspension simply ends.
    const boundary = firstPeriodOnOrAfter(input.anchor, input.period, restart);
    return {
      suspensionEndsOn: addLocalDays(periodStart(input.anchor, input.period, boundary), -1),
      shiftPeriods: 0,
      moved: [],
      endsOn: null,
    };
  }
  const firstIndex = first.periodIndex!;
  const newFirst = Math.max(firstPeriodOnOrAfter(input.anchor, input.period, restart), firstIndex);
  const shift = newFirst - firstIndex;
  const moved = suspended.map((i) => {
    const index = i.periodIndex! + shift;
    const startsOn = periodStart(input.anchor, input.period, index);
    return {
      id: i.id,
      periodIndex: index,
      periodStartsOn: startsOn,
      periodEndsOn: periodEnd(input.anchor, input.period, index),
      dueOn: startsOn,
    };
  });
  return {
    suspensionEndsOn: addLocalDays(periodStart(input.anchor, input.period, newFirst), -1),
    shiftPeriods: shift,
    moved,
    endsOn: input.fixedDuration ? moved[moved.length - 1]!.periodEndsOn : null,
  };
}
