import { v7 as uuidv7 } from 'uuid';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { registerCartItemResolver, registerLineFulfiller } from '../sales/index';

/**
 * One-off purchase of a video course (issue 22): a course with a price goes in the front office's
 * cart as `{ type: 'videoService', id }`, becomes a `video` order line at checkout, and the paid line
 * records a `client_video_purchases` row — access for good, checked before contracts and passes
 * (`courseAccess`). Not for sale (no price, unpublished) or bought already: the cart shows the item's
 * problem and checkout refuses it, as for any other item.
 */
registerCartItemResolver('videoService', async (db: Db, studio: Studio, clientId, id, locale) => {
  const row = (await db('video_services')
    .where({ studioId: studio.id, id })
    .first('id', 'name', 'price', 'vatRate', 'published')) as
    { id: string; name: LocaleText; price: number | null; vatRate: string; published: boolean } | undefined;
  if (!row) return null;
  const bought = await db('client_video_purchases')
    .where({ studioId: studio.id, clientId, videoServiceId: id })
    .first('id');
  return {
    name: resolveLocaleText(row.name, locale, studio.defaultLocale),
    nameTexts: row.name,
    unitPrice: row.price ?? 0,
    vatRate: row.vatRate,
    // Bought already: the course is open for good, a second purchase would only take money.
    problem: row.price === null || !row.published || bought ? 'cart.problem.unavailable' : null,
    lineKind: 'video' as const,
  };
});

registerLineFulfiller('video', async ({ trx, studio, order }, line) => {
  if (!order.clientId || !line.refId) return null;
  const id = uuidv7();
  const inserted = await trx('client_video_purchases')
    .insert({
      id,
      studioId: studio.id,
      clientId: order.clientId,
      videoServiceId: line.refId,
      orderId: order.id,
      price: line.unitPrice,
    })
    .onConflict(['studio_id', 'client_id', 'video_service_id'])
    .ignore()
    .returning('id');
  return inserted[0]?.id ?? null;
});
