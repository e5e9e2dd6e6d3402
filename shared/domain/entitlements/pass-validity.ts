import { ClientPricingOptionStatus, PricingOptionExpirationType } from '../../enums/pricing-options';
import { ClientVisitStatus } from '../../enums/visits';
import {
  addLocalDays,
  endOfMonthsExclusive,
  firstOfMonthAfter,
  localDateOf,
  localDaysBetween,
  startOfLocalDate,
  type LocalDate,
} from './local-dates';

export const VALIDITY_UNITS = ['day', 'week', 'month'] as const;
export type ValidityUnit = (typeof VALIDITY_UNITS)[number];

/** What a pass promised when it was sold: a snapshot of its pricing option's rules. */
export interface PassTerms {
  expirationType: PricingOptionExpirationType;
  /** Length of validity for sale-date and first-visit passes; months of a calendar-month pass (default 1). */
  validityCount: number | null;
  validityUnit: ValidityUnit | null;
  /** Last valid day of a specific-date pass, in the studio's calendar. */
  validUntil: LocalDate | null;
  /** Entries granted at sale; null = unlimited. */
  entries: number | null;
}

/** Staff changes to a pass: each is an audit row and a fact the state is derived from. */
export type PassChange =
  | { kind: 'extend'; days: number }
  | { kind: 'freeze'; from: LocalDate; to: LocalDate }
  | { kind: 'entries'; delta: number };

/** A visit (class, appointment, entry …) paid with the pass. */
export interface PassVisit {
  startsAt: Date;
  status: ClientVisitStatus;
}

export interface PassFacts {
  soldAt: Date;
  terms: PassTerms;
  changes: readonly PassChange[];
  visits: readonly PassVisit[];
}

export type PassInactiveReason = 'expired' | 'noEntriesLeft';

export interface PassState {
  status: ClientPricingOptionStatus;
  inactiveReason: PassInactiveReason | null;
  /** When validity started to run; null while a first-visit pass has no visit yet. */
  activatedAt: Date | null;
  /** First instant the pass is no longer valid; null = never expires, or not activated yet. */
  expiresAt: Date | null;
  /** Last calendar day of validity in the studio (the day before `expiresAt`). */
  lastValidDate: LocalDate | null;
  entriesTotal: number | null;
  /** Every visit holding an entry, including booked future ones. */
  entriesUsed: number;
  /** What can still be booked; null = unlimited. */
  entriesLeft: number | null;
  freezes: Array<{ from: LocalDate; to: LocalDate }>;
  frozenNow: boolean;
}

/**
 * The visits that hold an entry. Early cancellations, cancelled classes and the waiting list give the
 * entry back; late cancellations and no-shows keep it (the studio's usual rule).
 */
const HOLDS_ENTRY: ReadonlySet<number> = new Set<number>([
  ClientVisitStatus.booked,
  ClientVisitStatus.present,
  ClientVisitStatus.absent,
  ClientVisitStatus.lateCancel,
  ClientVisitStatus.selfLateCancel,
  ClientVisitStatus.unconfirmed,
]);

export function visitHoldsEntry(status: number): boolean {
  return HOLDS_ENTRY.has(status);
}

/** When the pass starts to run: at sale, or at the start of its first visit holding an entry. */
export function activationOf(facts: Pick<PassFacts, 'soldAt' | 'terms' | 'visits'>): Date | null {
  if (facts.terms.expirationType !== PricingOptionExpirationType.firstVisit) return facts.soldAt;
  let first: Date | null = null;
  for (const visit of facts.visits)
    if (visitHoldsEntry(visit.status) && (!first || visit.startsAt < first)) first = visit.startsAt;
  return first;
}

/** The first calendar day after the validity that starts on `start`, before extensions and freezes. */
export function baseEndExclusive(terms: PassTerms, start: LocalDate): LocalDate | null {
  const count = terms.validityCount;
  switch (terms.expirationType) {
    case PricingOptionExpirationType.always:
      return null;
    case PricingOptionExpirationType.specificDate:
      return terms.validUntil ? addLocalDays(terms.validUntil, 1) : null;
    case PricingOptionExpirationType.calendarMonth:
      // Through the end of the month of activation (or `count` months counting that one).
      return firstOfMonthAfter(start, Math.max(1, count ?? 1));
    default:
      if (count === null || terms.validityUnit === null) return null;
      if (terms.validityUnit === 'day') return addLocalDays(start, count);
      if (terms.validityUnit === 'week') return addLocalDays(start, 7 * count);
      return endOfMonthsExclusive(start, count);
  }
}

/**
 * Derives everything about a pass from facts: its sale, staff changes and its visits. Nothing here is a
 * stored counter, so a cancelled visit gives its entry back without anyone fixing a number.
 */
export function derivePassState(facts: PassFacts, now: Date, timeZone: string): PassState {
  const { terms } = facts;
  const activatedAt = activationOf(facts);
  const freezes = facts.changes
    .filter((c): c is Extract<PassChange, { kind: 'freeze' }> => c.kind === 'freeze')
    .map(({ from, to }) => ({ from, to }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));

  let end: LocalDate | null = null;
  if (activatedAt) {
    end = baseEndExclusive(terms, localDateOf(activatedAt, timeZone));
    if (end !== null) {
      for (const change of facts.changes) if (change.kind === 'extend') end = addLocalDays(end, change.days);
      // A freeze that starts while the pass still runs pushes the end by its length.
      for (const freeze of freezes)
        if (freeze.from < end) end = addLocalDays(end, localDaysBetween(freeze.from, freeze.to) + 1);
    }
  }
  const expiresAt = end === null ? null : startOfLocalDate(end, timeZone);

  const entriesTotal =
    terms.entries === null
      ? null
      : terms.entries + facts.changes.reduce((sum, c) => (c.kind === 'entries' ? sum + c.delta : sum), 0);
  const holding = facts.visits.filter((v) => visitHoldsEntry(v.status));
  const entriesUsed = holding.length;
  const entriesLeft = entriesTotal === null ? null : entriesTotal - entriesUsed;
  const usedUpByNow =
    entriesTotal !== null && holding.filter((v) => v.startsAt <= now).length >= entriesTotal;

  const today = localDateOf(now, timeZone);
  const frozenNow = freezes.some((f) => f.from <= today && today <= f.to);

  let status: ClientPricingOptionStatus = ClientPricingOptionStatus.active;
  let inactiveReason: PassInactiveReason | null = null;
  if (expiresAt && expiresAt <= now) {
    status = ClientPricingOptionStatus.inactive;
    inactiveReason = 'expired';
  } else if (usedUpByNow) {
    status = ClientPricingOptionStatus.inactive;
    inactiveReason = 'noEntriesLeft';
  } else if (!activatedAt || activatedAt > now) {
    status = ClientPricingOptionStatus.notActivated;
  }

  return {
    status,
    inactiveReason,
    activatedAt,
    expiresAt,
    lastValidDate: end === null ? null : addLocalDays(end, -1),
    entriesTotal,
    entriesUsed,
    entriesLeft,
    freezes,
    frozenNow,
  };
}
