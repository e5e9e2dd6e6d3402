import { PaymentCardListSchema } from '../api/sales-views';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

/**
 * Saved payment cards (spec §7 `GET me/payment-cards`): the signed-in client's own, and removing one
 * (our addition); staff see a client's cards on the profile with `sales.view` and remove one at the
 * client's request with `sales.sell`. Never the card number.
 */
export const PaymentCardsApi = contractGroup('paymentCards', {
  getMePaymentCards: {
    method: 'get',
    path: '/v4/:uuid/me/payment-cards',
    access: 'client',
    params: StudioParams,
    response: PaymentCardListSchema,
  },
  deleteMePaymentCard: {
    method: 'delete',
    path: '/v4/:uuid/me/payment-cards/:card',
    access: 'client',
    status: 204,
    params: studioParams('card'),
    responseKind: 'empty',
  },
  getClientPaymentCards: {
    method: 'get',
    path: '/v4/:uuid/client/:user/payment-cards',
    access: 'staff',
    ability: 'sales.view',
    params: studioParams('user'),
    response: PaymentCardListSchema,
  },
  deleteClientPaymentCard: {
    method: 'delete',
    path: '/v4/:uuid/client/:user/payment-cards/:card',
    access: 'staff',
    ability: 'sales.sell',
    status: 204,
    params: studioParams('user', 'card'),
    responseKind: 'empty',
  },
});
