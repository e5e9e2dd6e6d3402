import { ClientVisitStatus } from '../../enums/visits';
import {
  pricingOptionServiceTypeOf,
  type PricingOptionServiceType,
  type ServiceType,
} from '../../enums/services';
import { localClockOf, localDateOf } from './local-dates';
import { derivePassState, type PassFacts } from './pass-validity';

/** When in the studio's week a pass may be used: weekdays (0 Sunday … 6 Saturday) and [from, to) minutes. */
export interface PassTimeWindow {
  weekdays: number[];
  fromMinutes: number;
  toMinutes: number;
}

/** What a pass pays for (from its pricing option). Empty lists mean "no restriction". */
export interface PassCoverage {
  serviceTypes: readonly PricingOptionServiceType[];
  classServiceIds: readonly string[];
  locationIds: readonly string[];
  timeWindows: readonly PassTimeWindow[];
  /** The client must hold one of these tags. */
  tagIds: readonly string[];
}

export interface PassCandidate {
  id: string;
  facts: PassFacts;
  coverage: PassCoverage;
}

export interface VisitToPay {
  serviceType: ServiceType;
  /** The class, course, appointment, entry or video service; null when the caller has none. */
  serviceId: string | null;
  locationId: string | null;
  startsAt: Date;
  clientTagIds: readonly string[];
}

/** Why a pass cannot pay, in the order they are checked (later = closer to fitting). */
export const PASS_REJECTIONS = [
  'serviceNotCovered',
  'locationNotCovered',
  'timeNotCovered',
  'tagRequired',
  'notYetValid',
  'expired',
  'frozen',
  'noEntriesLeft',
] as const;
export type PassRejection = (typeof PASS_REJECTIONS)[number];

export type PassChoice =
  | { ok: true; passId: string; expiresAt: Date | null }
  | {
      ok: false;
      /** The most telling reason: 'noPasses', or the rejection of the pass that came closest. */
      reason: 'noPasses' | PassRejection;
      rejected: Array<{ passId: string; reason: PassRejection }>;
    };

/** Why this pass cannot pay for the visit, or null when it can. */
export function passRejection(
  pass: PassCandidate,
  visit: VisitToPay,
  timeZone: string,
): PassRejection | null {
  const { coverage } = pass;
  if (!coverage.serviceTypes.includes(pricingOptionServiceTypeOf(visit.serviceType)))
    return 'serviceNotCovered';
  if (
    coverage.classServiceIds.length > 0 &&
    (visit.serviceId === null || !coverage.classServiceIds.includes(visit.serviceId))
  )
    return 'serviceNotCovered';
  if (
    coverage.locationIds.length > 0 &&
    (visit.locationId === null || !coverage.locationIds.includes(visit.locationId))
  )
    return 'locationNotCovered';
  if (coverage.timeWindows.length > 0) {
    const { weekday, minutes } = localClockOf(visit.startsAt, timeZone);
    const inside = coverage.timeWindows.some(
      (w) => w.weekdays.includes(weekday) && w.fromMinutes <= minutes && minutes < w.toMinutes,
    );
    if (!inside) return 'timeNotCovered';
  }
  if (coverage.tagIds.length > 0 && !coverage.tagIds.some((t) => visit.clientTagIds.includes(t)))
    return 'tagRequired';

  // The pass as it would stand with this visit on it: a first-visit pass activates at this visit when
  // it is its first; the visit takes one entry.
  const withVisit: PassFacts = {
    ...pass.facts,
    visits: [...pass.facts.visits, { startsAt: visit.startsAt, status: ClientVisitStatus.booked }],
  };
  const state = derivePassState(withVisit, visit.startsAt, timeZone);
  if (state.activatedAt && state.activatedAt > visit.startsAt) return 'notYetValid';
  if (state.expiresAt && state.expiresAt <= visit.startsAt) return 'expired';
  const day = localDateOf(visit.startsAt, timeZone);
  if (state.freezes.some((f) => f.from <= day && day <= f.to)) return 'frozen';
  if (state.entriesLeft !== null && state.entriesLeft < 0) return 'noEntriesLeft';
  return null;
}

/**
 * Chooses the pass that pays for a visit: one that covers the service and is valid at the visit's
 * time, the earliest to expire first (never-expiring last); ties go to the pass with fewer entries
 * left, then the one sold first. When none fits it says why.
 */
export function choosePassForVisit(
  passes: readonly PassCandidate[],
  visit: VisitToPay,
  timeZone: string,
): PassChoice {
  if (passes.length === 0) return { ok: false, reason: 'noPasses', rejected: [] };
  const fitting: Array<{ pass: PassCandidate; expiresAt: Date | null; entriesLeft: number | null }> = [];
  const rejected: Array<{ passId: string; reason: PassRejection }> = [];
  for (const pass of passes) {
    const reason = passRejection(pass, visit, timeZone);
    if (reason) {
      rejected.push({ passId: pass.id, reason });
      continue;
    }
    const state = derivePassState(pass.facts, visit.startsAt, timeZone);
    const withVisit = derivePassState(
      {
        ...pass.facts,
        visits: [...pass.facts.visits, { startsAt: visit.startsAt, status: ClientVisitStatus.booked }],
      },
      visit.startsAt,
      timeZone,
    );
    fitting.push({ pass, expiresAt: withVisit.expiresAt, entriesLeft: state.entriesLeft });
  }
  if (fitting.length === 0) {
    const closest = rejected.reduce((best, r) =>
      PASS_REJECTIONS.indexOf(r.reason) > PASS_REJECTIONS.indexOf(best.reason) ? r : best,
    );
    return { ok: false, reason: closest.reason, rejected };
  }
  const time = (d: Date | null) => (d === null ? Number.POSITIVE_INFINITY : d.getTime());
  const left = (n: number | null) => (n === null ? Number.POSITIVE_INFINITY : n);
  fitting.sort(
    (a, b) =>
      time(a.expiresAt) - time(b.expiresAt) ||
      left(a.entriesLeft) - left(b.entriesLeft) ||
      a.pass.facts.soldAt.getTime() - b.pass.facts.soldAt.getTime() ||
      (a.pass.id < b.pass.id ? -1 : 1),
  );
  const best = fitting[0]!;
  return { ok: true, passId: best.pass.id, expiresAt: best.expiresAt };
}
