import type { PaymentCardView, PaymentProviderName } from '../../../../../shared/contracts/api/sales';
import { AppError } from '../../../../../shared/errors';
import type { ClientPaymentCardsRow } from '../../../db/generated/tables';
import type { Db } from '../../../db/knex';
import type { SavedCard } from '../payment-provider';
import { PROVIDERS, isProviderName, providerViews } from '../providers';

/**
 * Saved payment cards: the client's own list and removal (spec §7 `me/payment-cards`), and the card
 * staff charge for an order (bulk charge). A card is saved by its provider when a paid checkout asked
 * for it (see stripe-provider.ts); every query is scoped by studio and client.
 */

function presentCard(row: ClientPaymentCardsRow): PaymentCardView {
  return {
    id: row.id,
    provider: row.provider as PaymentProviderName,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function listCards(db: Db, studioId: string, clientId: string): Promise<PaymentCardView[]> {
  const rows = await db('client_payment_cards').where({ studioId, clientId }).orderBy('id', 'desc');
  return rows.map(presentCard);
}

/** Removes the client's card here and at the provider. Another client's or studio's card: 404. */
export async function deleteCard(db: Db, studioId: string, clientId: string, cardId: string): Promise<void> {
  const card = await db('client_payment_cards').where({ studioId, clientId, id: cardId }).forUpdate().first();
  if (!card) throw AppError.notFound('paymentCard');
  if (isProviderName(card.provider)) await PROVIDERS[card.provider].detachCard?.(db, card);
  await db('client_payment_cards').where({ id: card.id }).delete();
}

/**
 * The card to charge for a client, if any: the most recently saved one whose provider is enabled in
 * the studio, can charge saved cards, and has not expired (by the end of its expiry month).
 */
export async function chargeableCard(
  db: Db,
  studioId: string,
  clientId: string,
  now: Date,
): Promise<SavedCard | null> {
  const enabled = (await providerViews(db, studioId))
    .filter((p) => p.enabled && PROVIDERS[p.provider].chargeSavedCard)
    .map((p) => p.provider);
  if (enabled.length === 0) return null;
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  const card = await db('client_payment_cards')
    .where({ studioId, clientId })
    .whereIn('provider', enabled)
    .whereRaw('exp_year * 12 + exp_month >= ?', [month])
    .orderBy('id', 'desc')
    .first();
  return card ?? null;
}
