import { registerScheduleBookingHooks } from '../schedule/index';
import { registerSalesVisitHooks } from '../sales/index';
import {
  cancelVisitsOfEvents,
  eventsWithVisits,
  markVisitsPaid,
  promoteAfterCapacityChange,
} from './bookings.service';
import { checkOptionForVisit, payVisitWithBoughtPass } from './visit-payment.service';

/**
 * The bookings module answers what the lower modules ask of it about visits, without them importing
 * bookings (no import cycle): the schedule (events cancelled, removed or given more places) and sales
 * (visits in the cart, paid by an order or by a pass bought for them). Loaded with bookings.routes.ts.
 */
registerScheduleBookingHooks({ cancelVisitsOfEvents, eventsWithVisits, promoteAfterCapacityChange });
registerSalesVisitHooks({ checkOptionForVisit, payVisitWithBoughtPass, markVisitsPaid });
