import { addLocalDays, type LocalDate } from '../entitlements/local-dates';
import { periodEnd, periodIndexOn, type ContractPeriod } from './periods';
import type { InstalmentKind, InstalmentStatus } from './schedule';

/** An instalment as stored: the schedule rules read and rewrite these. */
export interface ScheduledInstalment {
  id: string;
  kind: InstalmentKind;
  periodIndex: number | null;
  periodStartsOn: LocalDate | null;
  periodEndsOn: LocalDate | null;
  dueOn: LocalDate;
  amount: number;
  status: InstalmentStatus;
}

/** Not yet turned into an order: the schedule may still change these. */
export const OPEN_INSTALMENT_STATUSES: ReadonlySet<InstalmentStatus> = new Set([
  'scheduled',
  'due',
  'suspended',
]);

export interface TerminationPlan {
  /** Last day of the contract. */
  endsOn: LocalDate;
  /** Last period the client still pays for (−1: none). */
  lastPeriodIndex: number;
  /** Instalments that will not be charged. */
  cancel: string[];
  /** Instalments that remain to be charged (not yet ordered), in due order. */
  remaining: string[];
}

/**
 * Terminating with notice. The notice runs in whole periods after the period the client terminates
 * in: terminated on day D with N periods of notice, the client pays for the period holding D and the
 * N periods after it, and the contract ends on the last day of the last of them (never later than a
 * fixed duration's end). Terminated before the first period starts, the N periods count from the
 * first one (N = 0: no period is charged; a pro-rata part already sold stays). While the contract is
 * suspended, notice runs during the suspension: every suspended instalment is cancelled and the
 * contract ends the day before the suspension began.
 */
export function planTermination(input: {
  anchor: LocalDate;
  period: ContractPeriod;
  instalments: readonly ScheduledInstalment[];
  requestedOn: LocalDate;
  noticePeriods: number;
  /** A fixed-duration contract (every period is planned); false when open-ended. */
  fixedDuration: boolean;
  /** First day of an open suspension, when the contract is suspended now. */
  suspendedFrom: LocalDate | null;
}): TerminationPlan {
  const { anchor, period, instalments } = input;
  const periods = instalments.filter((i) => i.kind === 'period' && i.status !== 'cancelled');
  const lastPlanned = periods.reduce((max, i) => Math.max(max, i.periodIndex ?? -1), -1);
  let lastPeriodIndex: number;
  let endsOn: LocalDate;
  if (input.suspendedFrom !== null) {
    const charged = periods.filter((i) => i.status !== 'suspended');
    lastPeriodIndex = charged.reduce((max, i) => Math.max(max, i.periodIndex ?? -1), -1);
    endsOn = addLocalDays(input.suspendedFrom, -1);
  } else {
    const current = Math.max(periodIndexOn(anchor, period, input.requestedOn), -1);
    lastPeriodIndex = current + input.noticePeriods;
    endsOn = periodEnd(anchor, period, lastPeriodIndex);
    // A fixed duration (its last period, after any suspension shifted it) caps the notice.
    const lastPlannedEnd = periods.find((i) => i.periodIndex === lastPlanned)?.periodEndsOn ?? null;
    if (input.fixedDuration && lastPlannedEnd !== null && lastPlanned < lastPeriodIndex) {
      lastPeriodIndex = lastPlanned;
      endsOn = lastPlannedEnd;
    }
  }
  const cancel: string[] = [];
  const remaining: string[] = [];
  for (const i of [...instalments].sort((a, b) => (a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : 0))) {
    if (!OPEN_INSTALMENT_STATUSES.has(i.status)) continue;
    const beyond =
      i.kind === 'period' && (i.status === 'suspended' || (i.periodIndex ?? -1) > lastPeriodIndex);
    if (beyond) cancel.push(i.id);
    else remaining.push(i.id);
  }
  return { endsOn, lastPeriodIndex, cancel, remaining };
}
