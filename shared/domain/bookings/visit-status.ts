import { ClientVisitStatus } from '../../enums/visits';

/**
 * Where a client stands on a class (spec §3 client visit status 0–9) and how it may change. A visit is
 * one booking of one client; cancelling it and booking again makes a new visit, so history stays.
 *
 *   (none) ──book──▶ 0 booked | 9 unconfirmed (pay at the desk) | 8 waiting list
 *   8 ──promote──▶ 0 | 9          8 ──leave──▶ 3 (staff) | 4 (self): left the list, no entry held
 *   0, 9 ──cancel before the cut-off──▶ 3 staff | 4 self      ──after──▶ 5 staff | 6 self
 *   0, 9, 2 ──present──▶ 1        0, 9, 1 ──absent──▶ 2        1, 2 ──reset──▶ 0 | 9 (undo)
 *   9 ──pay──▶ 0                  0, 1, 2, 8, 9 ──class cancelled──▶ 7
 */
export type VisitStatus = ClientVisitStatus;
export const V = ClientVisitStatus;

/** Visits that take one of the class's places. */
export const TAKES_PLACE: ReadonlySet<number> = new Set([V.booked, V.present, V.absent, V.unconfirmed]);
/** Visits that stand on the class (a client has at most one of these per event). */
export const ON_CLASS: ReadonlySet<number> = new Set([...TAKES_PLACE, V.waitingList]);
/** Visits still ahead of the client: booked, unpaid or on the waiting list (not attended, not cancelled). */
export const UPCOMING: ReadonlySet<number> = new Set([V.booked, V.waitingList, V.unconfirmed]);
/** Cancellations of any kind (terminal). */
export const CANCELLED: ReadonlySet<number> = new Set([
  V.earlyCancel,
  V.selfEarlyCancel,
  V.lateCancel,
  V.selfLateCancel,
  V.classCancelled,
]);

export const takesPlace = (s: number): boolean => TAKES_PLACE.has(s);
export const isOnClass = (s: number): boolean => ON_CLASS.has(s);
export const isCancelled = (s: number): boolean => CANCELLED.has(s);

/** Who acts: staff at the desk, the client online, a partner through the public API (acts for the client). */
export type Actor = 'staff' | 'self' | 'api';
export const actsAsClient = (actor: Actor): boolean => actor !== 'staff';

export type VisitAction =
  | 'present'
  | 'absent'
  | 'reset'
  | 'pay'
  | 'classCancel'
  | 'earlyCancel'
  | 'lateCancel'
  | 'leaveWaitingList'
  | 'promote';

export type TransitionRefusal = 'notAllowed';

/**
 * The status a visit moves to, or a refusal. `paid` says whether the visit is paid for (a pass, a free
 * class, or paid at the desk): promote and reset land on 0 when paid, else on 9.
 */
export function nextStatus(
  from: VisitStatus,
  action: VisitAction,
  actor: Actor,
  paid: boolean,
): { ok: true; status: VisitStatus } | { ok: false; reason: TransitionRefusal } {
  const byStaff = actor === 'staff';
  const to = ((): VisitStatus | null => {
    switch (action) {
      case 'present':
        return from === V.booked || from === V.unconfirmed || from === V.absent || from === V.present
          ? V.present
          : null;
      case 'absent':
        return from === V.booked || from === V.unconfirmed || from === V.present || from === V.absent
          ? V.absent
          : null;
      case 'reset':
        return from === V.present || from === V.absent ? (paid ? V.booked : V.unconfirmed) : null;
      case 'pay':
        return from === V.unconfirmed ? V.booked : null;
      case 'classCancel':
        return isOnClass(from) ? V.classCancelled : null;
      case 'earlyCancel':
        return from === V.booked || from === V.unconfirmed
          ? byStaff
            ? V.earlyCancel
            : V.selfEarlyCancel
          : null;
      case 'lateCancel':
        return from === V.booked || from === V.unconfirmed
          ? byStaff
            ? V.lateCancel
            : V.selfLateCancel
          : null;
      case 'leaveWaitingList':
        return from === V.waitingList ? (byStaff ? V.earlyCancel : V.selfEarlyCancel) : null;
      case 'promote':
        return from === V.waitingList ? (paid ? V.booked : V.unconfirmed) : null;
    }
  })();
  return to === null ? { ok: false, reason: 'notAllowed' } : { ok: true, status: to };
}

/**
 * Why a visit has nothing for its client to pay, or null when it is owed: booked to pay at the desk,
 * not paid yet, holding a place. Cancelled and waiting-list visits are `notPayable`; one paid by a
 * pass, a membership, a free class or at the desk is `alreadyPaid`.
 */
export function visitPayRefusal(visit: {
  status: number;
  payment: string;
  paidAt: Date | string | null;
}): 'notPayable' | 'alreadyPaid' | null {
  if (!takesPlace(visit.status)) return 'notPayable';
  if (visit.payment !== 'desk' || visit.paidAt !== null) return 'alreadyPaid';
  return null;
}
