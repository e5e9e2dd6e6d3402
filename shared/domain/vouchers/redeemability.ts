import { VoucherType } from '../../enums/payments';

/** Why a voucher cannot be redeemed now; each has its own error key and message for the cashier. */
export const VOUCHER_REFUSALS = [
  'archived',
  'notYetValid',
  'expired',
  'usedUp',
  'clientRequired',
  'clientLimitReached',
  'notApplicable',
] as const;
export type VoucherRefusal = (typeof VOUCHER_REFUSALS)[number];

export interface VoucherRules {
  type: VoucherType;
  archived: boolean;
  /** First and last day of validity, studio calendar days (YYYY-MM-DD), inclusive; null = open. */
  validFrom: string | null;
  validTo: string | null;
  /** Total redemptions allowed (multi use); null = unlimited. Single use is always 1. */
  usageLimitTotal: number | null;
  /** Redemptions allowed per client; null = unlimited. A limit needs the client named. */
  usageLimitPerClient: number | null;
}

export interface RedemptionFacts {
  /** Today in the studio's time zone, YYYY-MM-DD. */
  today: string;
  usesTotal: number;
  /** Redemptions by the client named in the sale (0 when none is named). */
  usesByClient: number;
  clientNamed: boolean;
  /** Total of the basket lines the voucher applies to, minor units. */
  eligibleTotal: number;
}

/** The total number of uses a voucher allows, or null for unlimited. */
export function usageLimitOf(rules: Pick<VoucherRules, 'type' | 'usageLimitTotal'>): number | null {
  return rules.type === VoucherType.singleUse ? 1 : rules.usageLimitTotal;
}

/**
 * Whether a voucher may be redeemed, checked in this order (the first refusal is the one the cashier
 * is told about): archived, before validity, after validity, used up, per-client limit (needs a
 * client), nothing in the basket it applies to. Callers count uses while holding the voucher's row
 * lock, so two sales at the same moment cannot both pass.
 */
export function voucherRefusal(rules: VoucherRules, facts: RedemptionFacts): VoucherRefusal | null {
  if (rules.archived) return 'archived';
  if (rules.validFrom !== null && facts.today < rules.validFrom) return 'notYetValid';
  if (rules.validTo !== null && facts.today > rules.validTo) return 'expired';
  const limit = usageLimitOf(rules);
  if (limit !== null && facts.usesTotal >= limit) return 'usedUp';
  if (rules.usageLimitPerClient !== null) {
    if (!facts.clientNamed) return 'clientRequired';
    if (facts.usesByClient >= rules.usageLimitPerClient) return 'clientLimitReached';
  }
  if (facts.eligibleTotal <= 0) return 'notApplicable';
  return null;
}

/** A voucher's standing for lists: what staff see at a glance. */
export type VoucherStatus = 'active' | 'scheduled' | 'expired' | 'usedUp' | 'archived';

export function voucherStatus(
  rules: Omit<VoucherRules, 'usageLimitPerClient'>,
  usesTotal: number,
  today: string,
): VoucherStatus {
  if (rules.archived) return 'archived';
  const limit = usageLimitOf(rules);
  if (limit !== null && usesTotal >= limit) return 'usedUp';
  if (rules.validTo !== null && today > rules.validTo) return 'expired';
  if (rules.validFrom !== null && today < rules.validFrom) return 'scheduled';
  return 'active';
}
