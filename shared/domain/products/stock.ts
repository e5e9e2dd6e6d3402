/**
 * Stock of a product is the sum of its stock movements (deliveries, sales, counts, losses), never a
 * counter that drifts. A tracked product cannot go below zero; an untracked one has no stock at all.
 */
export const STOCK_MOVEMENT_REASONS = [
  'initial',
  'delivery',
  'adjustment',
  'loss',
  'sale',
  'return',
] as const;
export type StockMovementReason = (typeof STOCK_MOVEMENT_REASONS)[number];

/** Reasons staff may record by hand; `initial` comes with a new product, `sale`/`return` from retail. */
export const MANUAL_STOCK_REASONS = ['delivery', 'adjustment', 'loss'] as const;

/** Largest quantity one movement may carry (either direction): a typo guard, not a business rule. */
export const STOCK_MOVEMENT_MAX = 1_000_000;

export type StockChange =
  { ok: true; stock: number } | { ok: false; reason: 'untracked' | 'negative'; stock: number | null };

/** What stock a movement of `quantity` would leave, or why it is refused. */
export function applyStockMovement(
  product: { trackStock: boolean; stock: number },
  quantity: number,
): StockChange {
  if (!product.trackStock) return { ok: false, reason: 'untracked', stock: null };
  const stock = product.stock + quantity;
  if (stock < 0) return { ok: false, reason: 'negative', stock: product.stock };
  return { ok: true, stock };
}
