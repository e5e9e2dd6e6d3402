import { PricingOptionExpirationType } from '../../enums/pricing-options';
import {
  passRejection,
  type PassCoverage,
  type PassRejection,
  type VisitToPay,
} from '../entitlements/pass-choice';
import { localDateOf, type LocalDate } from '../entitlements/local-dates';

/** What a client contract entitles to, and when. */
export interface ContractEntitlement {
  id: string;
  /** The same coverage model as a pricing option: service types and restrictions. */
  coverage: PassCoverage;
  entitledFrom: LocalDate;
  /** Last day; null = open-ended and not terminated. */
  endsOn: LocalDate | null;
  /** Inclusive days without entitlement; `to` null = suspended until resumed. */
  suspensions: ReadonlyArray<{ from: LocalDate; to: LocalDate | null }>;
}

const EPOCH = new Date(0);

/**
 * Why a client contract cannot pay for a visit, or null when it can. Coverage (service type, class
 * service, location, weekday and hours, client tags) is the pass rule itself (`passRejection` on an
 * always-valid, unlimited pass), so contracts and passes never disagree on what they cover. Contracts
 * have no entry limit; validity is the contract's days minus its suspensions (reported as `frozen`).
 */
export function contractRejection(
  contract: ContractEntitlement,
  visit: VisitToPay,
  timeZone: string,
): PassRejection | null {
  const coverage = passRejection(
    {
      id: contract.id,
      coverage: contract.coverage,
      facts: {
        soldAt: EPOCH,
        terms: {
          expirationType: PricingOptionExpirationType.always,
          validityCount: null,
          validityUnit: null,
          validUntil: null,
          entries: null,
        },
        changes: [],
        visits: [],
      },
    },
    visit,
    timeZone,
  );
  if (coverage) return coverage;
  const day = localDateOf(visit.startsAt, timeZone);
  if (day < contract.entitledFrom) return 'notYetValid';
  if (contract.endsOn !== null && day > contract.endsOn) return 'expired';
  if (contract.suspensions.some((s) => s.from <= day && (s.to === null || day <= s.to))) return 'frozen';
  return null;
}

export const CLIENT_CONTRACT_STATUSES = ['notStarted', 'active', 'suspended', 'ending', 'ended'] as const;
export type ClientContractStatus = (typeof CLIENT_CONTRACT_STATUSES)[number];

/**
 * A client contract's status on a studio day: not started (before it entitles), suspended (inside a
 * suspension), ending (terminated, notice still running), ended (after its last day), else active.
 */
export function clientContractStatus(
  contract: Pick<ContractEntitlement, 'entitledFrom' | 'endsOn' | 'suspensions'> & { terminated: boolean },
  today: LocalDate,
): ClientContractStatus {
  if (contract.endsOn !== null && today > contract.endsOn) return 'ended';
  if (contract.suspensions.some((s) => s.from <= today && (s.to === null || today <= s.to)))
    return 'suspended';
  if (today < contract.entitledFrom) return contract.terminated ? 'ending' : 'notStarted';
  return contract.terminated ? 'ending' : 'active';
}
