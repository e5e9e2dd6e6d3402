/**
 * A client appointment's life (issue 21). `reserved`: a time reservation holding the slot while the
 * client pays (until `held_until`); `pending`: waiting for staff to confirm (manual confirmation);
 * `booked`: confirmed; then `present` / `absent`. Ends: `cancelled` (early, the entry or money comes
 * back), `lateCancelled` (after the cut-off: the entry is kept, as for classes), `rejected` (staff
 * refused a pending one), `calledOff` (staff cancelled it), `expired` (a reservation never paid).
 */
export const APPOINTMENT_STATUSES = [
  'reserved',
  'pending',
  'booked',
  'present',
  'absent',
  'cancelled',
  'lateCancelled',
  'rejected',
  'calledOff',
  'expired',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Statuses that hold the staff member's (and room's) time: the database's exclusion constraint's set. */
export const HOLDING_STATUSES = ['reserved', 'pending', 'booked', 'present', 'absent'] as const;

/** Statuses that use a pass entry (as a visit 0/1/2/5 does). */
export const ENTRY_STATUSES = ['pending', 'booked', 'present', 'absent', 'lateCancelled'] as const;

export function holdsTime(status: AppointmentStatus): boolean {
  return (HOLDING_STATUSES as readonly string[]).includes(status);
}

export type AppointmentAction = 'confirm' | 'reject' | 'callOff' | 'cancel' | 'present' | 'absent' | 'move';

/** Which statuses each staff or client action may start from. */
const FROM: Record<AppointmentAction, readonly AppointmentStatus[]> = {
  confirm: ['pending'],
  reject: ['pending'],
  callOff: ['pending', 'booked', 'reserved'],
  cancel: ['pending', 'booked'],
  present: ['booked', 'absent'],
  absent: ['booked', 'present'],
  move: ['pending', 'booked'],
};

export function canApply(action: AppointmentAction, status: AppointmentStatus): boolean {
  return FROM[action].includes(status);
}

/**
 * A client's own cancellation: early before `startsAt − cutoff` (the entry or money comes back),
 * late from then until the start; after the start it is refused (null).
 */
export function clientCancellation(
  startsAt: Date,
  cancellationCutoffMinutes: number,
  now: Date,
): 'cancelled' | 'lateCancelled' | null {
  if (now >= startsAt) return null;
  return now.getTime() >= startsAt.getTime() - cancellationCutoffMinutes * 60_000
    ? 'lateCancelled'
    : 'cancelled';
}
