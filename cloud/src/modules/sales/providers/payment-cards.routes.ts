import type Router from '@koa/router';
import type { PaymentCardView } from '../../../../../shared/contracts/api/sales';
import { PaymentCardsApi } from '../../../../../shared/contracts/http/payment-cards';
import { AppError } from '../../../../../shared/errors';
import type { Db, Knex } from '../../../db/knex';
import type { AppCustom, AppState } from '../../../http/context';
import { defineRoute } from '../../../http/route';
import { deleteCard, listCards } from './payment-cards';

async function assertClientOf(db: Db, studioId: string, userId: string): Promise<void> {
  const row = await db('memberships').where({ studioId, userId, isClient: true }).first('id');
  if (!row) throw AppError.notFound('client');
}

/**
 * The signed-in client's saved cards in this studio (spec §7 `GET me/payment-cards`) and removing one
 * (`DELETE me/payment-cards/{card}`, our addition: the spec lists no call for it). A card of another
 * client or studio is 404.
 */
export function registerPaymentCardRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...PaymentCardsApi.getMePaymentCards,
    handle: async ({ db, studio, auth }): Promise<{ items: PaymentCardView[]; next: null }> => ({
      items: await listCards(db, studio.id, auth.user.id),
      next: null,
    }),
  });

  defineRoute(router, {
    ...PaymentCardsApi.deleteMePaymentCard,
    handle: async ({ db, studio, auth, params }) => {
      await deleteCard(db as Knex.Transaction, studio.id, auth.user.id, params.card);
    },
  });

  /**
   * Staff see a client's saved cards on the client's profile (our addition: the spec names only the
   * client's own `me/payment-cards`) with `sales.view`, and remove one at the client's request with
   * `sales.sell` (detached at the provider, as when the client removes it). Never the card number.
   */
  defineRoute(router, {
    ...PaymentCardsApi.getClientPaymentCards,
    handle: async ({ db, studio, params }): Promise<{ items: PaymentCardView[]; next: null }> => {
      await assertClientOf(db, studio.id, params.user);
      return { items: await listCards(db, studio.id, params.user), next: null };
    },
  });

  defineRoute(router, {
    ...PaymentCardsApi.deleteClientPaymentCard,
    handle: async ({ db, studio, params }) => {
      await assertClientOf(db, studio.id, params.user);
      await deleteCard(db as Knex.Transaction, studio.id, params.user, params.card);
    },
  });
}
