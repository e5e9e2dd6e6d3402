import { ContractActivationType } from '../../enums/pricing-options';
import { addLocalDays, localDaysBetween, parseLocalDate, type LocalDate } from '../entitlements/local-dates';
import { periodEnd, periodStart, type ContractPeriod } from './periods';

/** What a client contract promised when it was sold: a snapshot of its contract's terms. */
export interface ContractTerms {
  /** Price of one period in minor units. */
  price: number;
  period: ContractPeriod;
  /** Number of periods; null = open-ended (runs until terminated). */
  durationPeriods: number | null;
  activationType: ContractActivationType;
  /**
   * First-day-of-month contracts sold after the 1st: charge the days until the 1st pro rata and
   * entitle from the sale day (true), or start everything on the 1st (false).
   */
  proRata: boolean;
  /** One-off fee due on the sale day, minor units (0 = none). */
  signUpFee: number;
  /** Whole periods of notice after the period in which the client terminates. */
  noticePeriods: number;
}

export const INSTALMENT_KINDS = ['signUpFee', 'proRata', 'period'] as const;
export type InstalmentKind = (typeof INSTALMENT_KINDS)[number];

export const INSTALMENT_STATUSES = ['scheduled', 'due', 'ordered', 'paid', 'suspended', 'cancelled'] as const;
export type InstalmentStatus = (typeof INSTALMENT_STATUSES)[number];

/** One row of a client contract's instalment schedule. */
export interface PlannedInstalment {
  kind: InstalmentKind;
  /** Period number for `period` instalments (0 = the first period), null otherwise. */
  periodIndex: number | null;
  /** The days the instalment pays for (inclusive); null for the sign-up fee. */
  periodStartsOn: LocalDate | null;
  periodEndsOn: LocalDate | null;
  /** The studio's calendar day it falls due (its first instant in the studio's time zone). */
  dueOn: LocalDate;
  amount: number;
}

export interface ContractStart {
  /** Period 0 starts here; every later period is counted from it. */
  anchor: LocalDate;
  /** First day the client may use the contract. */
  entitledFrom: LocalDate;
  /** Last day of a fixed-duration contract (before any suspension); null when open-ended. */
  endsOn: LocalDate | null;
}

/** Open-ended contracts keep this many periods planned ahead; the daily job tops the schedule up. */
export const OPEN_ENDED_HORIZON = 12;

export function contractStart(terms: ContractTerms, soldOn: LocalDate): ContractStart {
  let anchor = soldOn;
  let entitledFrom = soldOn;
  if (terms.activationType === ContractActivationType.firstDayOfMonth) {
    const { day } = parseLocalDate(soldOn);
    if (day !== 1) {
      anchor = periodStart(soldOn.slice(0, 8) + '01', { unit: 'month', length: 1 }, 1);
      entitledFrom = terms.proRata ? soldOn : anchor;
    }
  }
  const endsOn =
    terms.durationPeriods === null ? null : periodEnd(anchor, terms.period, terms.durationPeriods - 1);
  return { anchor, entitledFrom, endsOn };
}

/**
 * The pro-rata share of one period's price for the days from the sale to the day before the anchor:
 * price × days ÷ days of the full period that ends where the contract's first period starts, rounded
 * half up to the minor unit.
 */
export function proRataAmount(terms: ContractTerms, soldOn: LocalDate, anchor: LocalDate): number {
  const days = localDaysBetween(soldOn, anchor);
  if (days <= 0) return 0;
  const fullPeriodDays = localDaysBetween(periodStart(anchor, terms.period, -1), anchor);
  return Math.floor((terms.price * days * 2 + fullPeriodDays) / (2 * fullPeriodDays));
}

/** Period instalments `from` … `from + count − 1` (capped at a fixed duration). */
export function periodInstalments(
  terms: ContractTerms,
  anchor: LocalDate,
  from: number,
  count: number,
): PlannedInstalment[] {
  const last =
    terms.durationPeriods === null ? from + count - 1 : Math.min(from + count, terms.durationPeriods) - 1;
  const out: PlannedInstalment[] = [];
  for (let index = from; index <= last; index += 1) {
    const startsOn = periodStart(anchor, terms.period, index);
    out.push({
      kind: 'period',
      periodIndex: index,
      periodStartsOn: startsOn,
      periodEndsOn: periodEnd(anchor, terms.period, index),
      dueOn: startsOn,
      amount: terms.price,
    });
  }
  return out;
}

/**
 * The instalment schedule of a contract sold on `soldOn` (the studio's calendar day of the sale):
 * the sign-up fee due on the sale day, a pro-rata instalment for first-day-of-month contracts sold
 * after the 1st when the contract says so, then one instalment per period, due on the period's first
 * day. A fixed duration plans every period; an open-ended contract the first `OPEN_ENDED_HORIZON`.
 */
export function buildSchedule(
  terms: ContractTerms,
  soldOn: LocalDate,
): {
  start: ContractStart;
  instalments: PlannedInstalment[];
} {
  const start = contractStart(terms, soldOn);
  const instalments: PlannedInstalment[] = [];
  if (terms.signUpFee > 0)
    instalments.push({
      kind: 'signUpFee',
      periodIndex: null,
      periodStartsOn: null,
      periodEndsOn: null,
      dueOn: soldOn,
      amount: terms.signUpFee,
    });
  if (start.entitledFrom < start.anchor) {
    const amount = proRataAmount(terms, soldOn, start.anchor);
    if (amount > 0)
      instalments.push({
        kind: 'proRata',
        periodIndex: null,
        periodStartsOn: soldOn,
        periodEndsOn: addLocalDays(start.anchor, -1),
        dueOn: soldOn,
        amount,
      });
  }
  instalments.push(...periodInstalments(terms, start.anchor, 0, terms.durationPeriods ?? OPEN_ENDED_HORIZON));
  return { start, instalments };
}
