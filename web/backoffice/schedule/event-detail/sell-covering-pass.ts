import type { BookingResult } from '../../../../shared/contracts/api/bookings';
import type { RetailCheckoutInput, RetailCheckoutResult } from '../../../../shared/contracts/api/retail';
import { PaymentMethod } from '../../../../shared/enums';
import { ApiError } from '../../../lib/api-client';

/**
 * Issue 26: enrolling a client at the desk refused because no pass of theirs covers the class turns
 * into an offer to sell one there and then. The sale is the POS's checkout (paid in full, one
 * Idempotency-Key per attempt); the class is booked only once the sale went through.
 */

/** The refusal that offers the sale (a full class or a closed booking does not). */
export function offersCoveringSale(error: unknown): boolean {
  return error instanceof ApiError && error.key === 'visit.noPass';
}

/** What the desk takes for the pass at the class: the money is handed over now. */
export const COVERING_SALE_METHODS = [PaymentMethod.cash, PaymentMethod.terminal] as const;
export type CoveringSaleMethod = (typeof COVERING_SALE_METHODS)[number];

export function coveringSaleInput(
  clientId: string,
  option: { id: string; price: number },
  method: CoveringSaleMethod,
): RetailCheckoutInput {
  return {
    clientId,
    items: [{ type: 'pricingOption', id: option.id }],
    payments: option.price > 0 ? [{ method, amount: option.price }] : [],
    note: '',
  };
}

export type CoveringSaleOutcome =
  | { stage: 'booked'; sale: RetailCheckoutResult; booking: BookingResult }
  /** The pass is sold (and paid) but booking failed (the class filled meanwhile): the pass stays theirs. */
  | { stage: 'soldNotBooked'; sale: RetailCheckoutResult; error: unknown };

/**
 * Sells, then books. A failed sale throws (nothing was charged, nothing is booked); a failed booking
 * after a sale is reported, not thrown, so the screen says the pass is theirs.
 */
export async function sellAndEnrol(calls: {
  checkout(): Promise<RetailCheckoutResult>;
  enroll(): Promise<BookingResult>;
}): Promise<CoveringSaleOutcome> {
  const sale = await calls.checkout();
  try {
    return { stage: 'booked', sale, booking: await calls.enroll() };
  } catch (error) {
    return { stage: 'soldNotBooked', sale, error };
  }
}
