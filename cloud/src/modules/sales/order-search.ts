import { escapeLike, foldSearchText } from '../../../../shared/domain/clients';
import type { Db, Knex } from '../../db/knex';

/** Matching clients gathered before their orders are read; more than this, and the list walks. */
const MATCHING_CLIENTS_MAX = 500;

/**
 * The orders list's search term: orders of the studio's clients whose record matches it (name, e-mail,
 * phone; contains, any case, diacritics folded — the clients' `search_text`, trigram-indexed by
 * studio where pg_trgm exists), or the order whose number (the id's last 8 characters) it is.
 *
 * The matching clients are found first, so the cost follows the matches, not the studio's orders: a
 * term matching a few clients reads their orders (by client) and the numbered order (by number) and
 * sorts that handful; a term matching many (a common name) keeps the newest-first walk, which finds a
 * page of them at once. (Filtering the walk was 1.4 s for a term matching nothing at 200,000 orders.)
 */
export async function applyOrderSearch(
  db: Db,
  studioId: string,
  q: Knex.QueryBuilder,
  term: string,
  cursor: string | undefined,
): Promise<void> {
  const contains = `%${escapeLike(foldSearchText(term.trim()))}%`;
  const number = term.trim().toUpperCase();
  const matchingClients = () =>
    db('clients as m').where('m.studio_id', studioId).where('m.search_text', 'like', contains);
  const clientIds = (await matchingClients()
    .limit(MATCHING_CLIENTS_MAX + 1)
    .pluck('m.user_id')) as string[];
  const byNumber = (qb: Knex.QueryBuilder) => qb.whereRaw('upper(right(o.id::text, 8)) = ?', [number]);
  if (clientIds.length > MATCHING_CLIENTS_MAX) {
    q.where((w) =>
      w
        .whereIn('o.client_id', matchingClients().select('m.user_id'))
        .orWhereRaw('upper(right(o.id::text, 8)) = ?', [number]),
    );
    return;
  }
  const ordersOf = (narrow: (qb: Knex.QueryBuilder) => Knex.QueryBuilder) => {
    const qb = narrow(db('client_orders as o').where('o.studio_id', studioId).select('o.id'));
    if (cursor) qb.where('o.id', '<', cursor);
    return qb;
  };
  const matches = clientIds.length
    ? db.union(
        [ordersOf(byNumber), ordersOf((qb) => qb.whereRaw('o.client_id = any(?::uuid[])', [clientIds]))],
        true,
      )
    : ordersOf(byNumber);
  // Materialized: the page is cut from these few ids, never from a walk probing them.
  q.withMaterialized('order_matches', matches).whereIn('o.id', db('order_matches').select('id'));
}
