import type { PricingOptionView } from '../../../../shared/contracts/api/catalog';
import type { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * What sales asks of the bookings module about visits (a visit bought in the cart, a pass bought to
 * pay a visit, a paid visit order). Bookings sits above sales (its fee orders and visit payments use
 * sales), so sales never imports it: bookings registers these at load (`bookings/module-hooks.ts`,
 * loaded with `bookings.routes.ts`). A call before that is a wiring bug and throws.
 */
export interface SalesVisitHooks {
  /** Whether this option can pay this client's visit; the refusal names `field`'s keys. */
  checkOptionForVisit(
    db: Db,
    studio: Studio,
    clientId: string,
    visitId: string,
    option: PricingOptionView,
    field: { visit: string; option: string },
    now: Date,
  ): Promise<{
    visit: { id: string; startsAt: Date; className: Record<string, { value: string }> };
    refusal: AppError | null;
  }>;
  /** A pass bought to pay a visit pays it now, if it still can; false when it could not. */
  payVisitWithBoughtPass(
    trx: Db,
    studio: Studio,
    clientId: string,
    visitId: string,
    passId: string,
    now: Date,
  ): Promise<boolean>;
  /** Visits paid by an order: unconfirmed → booked, with their paid time. */
  markVisitsPaid(trx: Db, studio: Studio, ids: string[], now: Date): Promise<void>;
}

let registered: SalesVisitHooks | null = null;

export function registerSalesVisitHooks(hooks: SalesVisitHooks): void {
  registered = hooks;
}

function hooks(): SalesVisitHooks {
  if (!registered) throw new Error('the bookings module has not registered its sales hooks');
  return registered;
}

export const checkOptionForVisit: SalesVisitHooks['checkOptionForVisit'] = (...args) =>
  hooks().checkOptionForVisit(...args);
export const payVisitWithBoughtPass: SalesVisitHooks['payVisitWithBoughtPass'] = (...args) =>
  hooks().payVisitWithBoughtPass(...args);
export const markVisitsPaid: SalesVisitHooks['markVisitsPaid'] = (...args) => hooks().markVisitsPaid(...args);
