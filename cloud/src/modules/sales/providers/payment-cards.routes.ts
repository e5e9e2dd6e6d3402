import type Router from '@koa/router';
import { z } from 'zod';
import type { PaymentCardView } from '../../../../../shared/contracts/api/sales';
import type { Knex } from '../../../db/knex';
import type { AppCustom, AppState } from '../../../http/context';
import { defineRoute } from '../../../http/route';
import { deleteCard, listCards } from './payment-cards';

const StudioParams = z.object({ uuid: z.string() });
const CardParams = z.object({ uuid: z.string(), card: z.uuid() });

/**
 * The signed-in client's saved cards in this studio (spec §7 `GET me/payment-cards`) and removing one
 * (`DELETE me/payment-cards/{card}`, our addition: the spec lists no call for it). A card of another
 * client or studio is 404.
 */
export function registerPaymentCardRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/me/payment-cards',
    access: 'client',
    params: StudioParams,
    handle: async ({ db, studio, auth }): Promise<{ items: PaymentCardView[]; next: null }> => ({
      items: await listCards(db, studio.id, auth.user.id),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/me/payment-cards/:card',
    access: 'client',
    params: CardParams,
    status: 204,
    handle: async ({ db, studio, auth, params }) => {
      await deleteCard(db as Knex.Transaction, studio.id, auth.user.id, params.card);
    },
  });
}
