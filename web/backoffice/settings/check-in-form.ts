import type { BookingSettings, BookingSettingsPatch } from '../../../shared/contracts/api/bookings';
import { BOOKING_LIMITS } from '../../../shared/contracts/api/bookings';

/**
 * Settings → Check-in: when check-in opens before a class and until when staff may add a walk-in
 * after its start. The form holds text (what the inputs hold); "until the class ends" is the
 * walk-in window's `null`.
 */
export interface CheckInFormValues {
  checkInOpensMinutes: string;
  walkInUntilEnd: boolean;
  walkInMinutes: string;
}

/** The walk-in minutes offered when a manager turns "until the class ends" off. */
export const DEFAULT_WALK_IN_MINUTES = 15;

export const CHECK_IN_LIMITS = {
  checkInOpensMinutes: BOOKING_LIMITS.checkInOpensMinutes,
  walkInMinutes: BOOKING_LIMITS.walkInMinutes,
} as const;

export function checkInFormValues(settings: BookingSettings): CheckInFormValues {
  return {
    checkInOpensMinutes: String(settings.checkInOpensMinutes),
    walkInUntilEnd: settings.walkInMinutes === null,
    walkInMinutes: String(settings.walkInMinutes ?? DEFAULT_WALK_IN_MINUTES),
  };
}

/** The patch the form sends: only the two check-in settings (fees and rules live on Policies). */
export function checkInPatch(values: CheckInFormValues): BookingSettingsPatch {
  return {
    checkInOpensMinutes: Number(values.checkInOpensMinutes),
    walkInMinutes: values.walkInUntilEnd ? null : Number(values.walkInMinutes),
  };
}
