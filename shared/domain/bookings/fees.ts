import type { FeeKind } from '../../contracts/api/bookings';

export interface FeeSettings {
  lateCancelFee: number;
  noShowFee: number;
  forgiveFirstOffence: boolean;
}

/** The fee a status change brings: late cancels (5, 6) and absence (2); null for every other. */
export function feeKindOf(status: number): FeeKind | null {
  if (status === 5 || status === 6) return 'lateCancel';
  if (status === 2) return 'noShow';
  return null;
}

/**
 * The fee row to record for an offence, or null when the studio charges nothing for it. With
 * first-offence forgiveness, a client's first offence (of any kind, counting only offences not
 * voided) is recorded as forgiven: it shows in the history and is never charged.
 */
export function feeFor(
  kind: FeeKind,
  settings: FeeSettings,
  earlierOffences: number,
): { amount: number; forgiven: boolean } | null {
  const amount = kind === 'lateCancel' ? settings.lateCancelFee : settings.noShowFee;
  if (amount <= 0) return null;
  return { amount, forgiven: settings.forgiveFirstOffence && earlierOffences === 0 };
}
