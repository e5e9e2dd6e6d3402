import {
  choosePassForVisit,
  PASS_REJECTIONS,
  type PassCandidate,
  type PassRejection,
  type VisitToPay,
} from '../entitlements/pass-choice';
import { contractRejection, type ContractEntitlement } from './entitlement';

/** What pays for a visit: a client contract (membership) or a pass. */
export type VisitEntitlement =
  | { ok: true; kind: 'contract'; clientContractId: string }
  | { ok: true; kind: 'pass'; passId: string; expiresAt: Date | null }
  | {
      ok: false;
      /** 'noPasses' when the client holds neither; else the rejection of whichever came closest. */
      reason: 'noPasses' | PassRejection;
      rejected: Array<{ kind: 'contract' | 'pass'; id: string; reason: PassRejection }>;
    };

export interface EntitlementHoldings {
  contracts: readonly ContractEntitlement[];
  passes: readonly PassCandidate[];
}

const closeness = (reason: PassRejection) => PASS_REJECTIONS.indexOf(reason);

/**
 * Chooses what pays for a visit. A covering client contract comes first: its periods are paid
 * whether used or not, so spending a pass entry while a contract covers the visit would waste the
 * client's money. Among covering contracts the one ending first wins (open-ended last), then the one
 * that started first. Otherwise the pass rule (`choosePassForVisit`) picks a pass. When nothing fits,
 * the reason is the rejection that came closest across both (a frozen contract beats a pass for
 * another service), so the client hears why their membership did not count.
 */
export function chooseEntitlementForVisit(
  holdings: EntitlementHoldings,
  visit: VisitToPay,
  timeZone: string,
): VisitEntitlement {
  const rejected: Array<{ kind: 'contract' | 'pass'; id: string; reason: PassRejection }> = [];
  const covering: ContractEntitlement[] = [];
  for (const contract of holdings.contracts) {
    const reason = contractRejection(contract, visit, timeZone);
    if (reason) rejected.push({ kind: 'contract', id: contract.id, reason });
    else covering.push(contract);
  }
  if (covering.length > 0) {
    const end = (c: ContractEntitlement) => c.endsOn ?? '9999-12-31';
    covering.sort(
      (a, b) =>
        end(a).localeCompare(end(b)) ||
        a.entitledFrom.localeCompare(b.entitledFrom) ||
        (a.id < b.id ? -1 : 1),
    );
    return { ok: true, kind: 'contract', clientContractId: covering[0]!.id };
  }
  const pass = choosePassForVisit(holdings.passes, visit, timeZone);
  if (pass.ok) return { ok: true, kind: 'pass', passId: pass.passId, expiresAt: pass.expiresAt };
  rejected.push(...pass.rejected.map((r) => ({ kind: 'pass' as const, id: r.passId, reason: r.reason })));
  if (rejected.length === 0) return { ok: false, reason: 'noPasses', rejected };
  const closest = rejected.reduce((best, r) => (closeness(r.reason) > closeness(best.reason) ? r : best));
  return { ok: false, reason: closest.reason, rejected };
}
