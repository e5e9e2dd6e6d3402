import { z } from 'zod';
import { MyVisitSchema } from '../api/bookings';
import {
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
});
