import { z } from 'zod';
import { MyVisitSchema } from '../api/bookings';
import {
  DeskCoveringOptionsQuerySchema,
  DeskCoveringOptionsSchema,
  VisitPayOptionsInputSchema,
  VisitPayOptionsSchema,
  VisitPayWithPassInputSchema,
} from '../api/visit-payment';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });

export const VisitPaymentApi = contractGroup('visitPayment', {
  postClientVisitsPayOptions: {
    method: 'post',
    path: '/v4/:uuid/client-visits/pay-options',
    access: 'client',
    params: StudioParams,
    body: VisitPayOptionsInputSchema,
    response: VisitPayOptionsSchema,
  },
  postClientVisitsPayWithPass: {
    method: 'post',
    path: '/v4/:uuid/client-visits/pay-with-pass',
    access: 'client',
    params: StudioParams,
    body: VisitPayWithPassInputSchema,
    response: MyVisitSchema,
  },
  /** Staff enrolling a client without a covering pass: what the desk could sell them for the class. */
  getScheduleEventCoveringPricingOptions: {
    method: 'get',
    path: '/v4/:uuid/schedule-event/:scheduleEvent/covering-pricing-options',
    access: 'staff',
    ability: 'schedule.book',
    params: z.object({ uuid: z.string(), scheduleEvent: z.uuid() }),
    query: DeskCoveringOptionsQuerySchema,
    response: DeskCoveringOptionsSchema,
  },
});
