import { TZDate } from '@date-fns/tz';

/**
 * When a downloaded update may be installed (issue 29): an update never interrupts a sale or a
 * shift. It installs when the till's shift is closed, or at night in the studio's time zone, and
 * never while the outbox holds changes the cloud has not confirmed — except on a desk the cloud no
 * longer accepts (too old): its outbox cannot drain until it updates, and station.db (the outbox
 * with it) is kept across the install, so the new version pushes it.
 */
export interface InstallState {
  /** A cash shift is open on this desk's till (StationShifts). */
  shiftOpen: boolean;
  /** Outbox rows not confirmed by the cloud. */
  pending: number;
  /** The cloud refused this version (desktop.tooOld). */
  tooOld: boolean;
  /** A sale is being recorded or printed right now. */
  saleInProgress?: boolean;
}

export type InstallVerdict =
  | { install: true; why: 'shiftClosed' | 'night' | 'tooOld' }
  | { install: false; why: 'pendingChanges' | 'shiftOpen' | 'saleInProgress' };

/** Night: from 23:00 to 05:00 in the studio's time zone (nobody sells; the desk restarts unseen). */
export const NIGHT = { from: 23, to: 5 } as const;

export function isNight(now: Date, timeZone: string): boolean {
  const hour = new TZDate(now, timeZone).getHours();
  return hour >= NIGHT.from || hour < NIGHT.to;
}

export function installVerdict(state: InstallState, now: Date, timeZone: string): InstallVerdict {
  if (state.saleInProgress) return { install: false, why: 'saleInProgress' };
  if (state.tooOld) return { install: true, why: 'tooOld' };
  if (state.pending > 0) return { install: false, why: 'pendingChanges' };
  if (!state.shiftOpen) return { install: true, why: 'shiftClosed' };
  if (isNight(now, timeZone)) return { install: true, why: 'night' };
  return { install: false, why: 'shiftOpen' };
}
