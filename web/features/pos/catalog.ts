/**
 * The POS's catalog as both points of sale show it (the browser's and the desk's): one tile per
 * product, pass or contract, filtered by a category group or found by name or barcode.
 */
export interface PosTileItem {
  type: 'product' | 'pricingOption' | 'contract';
  id: string;
  name: string;
  price: number;
  stock: number | null;
  barcode: string | null;
  needsClient: boolean;
  category: { id: string; name: string } | null;
}

/** The groups above the tiles: everything, each product category, other products, passes, contracts. */
export interface PosGroup {
  value: string;
  label: string;
}

export const ALL_GROUP = 'all';

export function posGroups(
  items: readonly PosTileItem[],
  labels: { all: string; other: string; passes: string; contracts: string },
): PosGroup[] {
  const seen = new Map<string, string>();
  for (const item of items) if (item.category) seen.set(item.category.id, item.category.name);
  return [
    { value: ALL_GROUP, label: labels.all },
    ...[...seen.entries()].map(([value, label]) => ({ value, label })),
    ...(items.some((i) => i.type === 'product' && !i.category)
      ? [{ value: 'other', label: labels.other }]
      : []),
    ...(items.some((i) => i.type === 'pricingOption') ? [{ value: 'passes', label: labels.passes }] : []),
    ...(items.some((i) => i.type === 'contract') ? [{ value: 'contracts', label: labels.contracts }] : []),
  ];
}

/** The tiles shown: a search (name contains, or a barcode's start) looks in every group. */
export function filterTiles<T extends PosTileItem>(items: readonly T[], search: string, group: string): T[] {
  const q = search.trim().toLowerCase();
  return items.filter((i) => {
    if (q) return i.name.toLowerCase().includes(q) || (i.barcode ?? '').startsWith(q);
    if (group === ALL_GROUP) return true;
    if (group === 'passes') return i.type === 'pricingOption';
    if (group === 'contracts') return i.type === 'contract';
    if (group === 'other') return i.type === 'product' && !i.category;
    return i.category?.id === group;
  });
}

/** The item whose barcode is exactly `code` (a scanner's keyboard wedge, or Enter in the search). */
export function findByBarcode<T extends PosTileItem>(items: readonly T[], code: string): T | null {
  const wanted = code.trim();
  if (!wanted) return null;
  return items.find((i) => i.barcode !== null && i.barcode === wanted) ?? null;
}

/** A payment as the tender entry keeps it: the method and the amount as typed. */
export interface PosPaymentLine {
  key: string;
  method: number;
  text: string;
}

/** What the result panel lists after a sale: each tender with its amount (minor units). */
export interface PosPaid {
  method: number;
  amount: number;
}

/** The payments as taken (same method summed, in the order first used), zero amounts left out. */
export function paymentSplit(payments: readonly PosPaid[]): PosPaid[] {
  const byMethod = new Map<number, number>();
  for (const p of payments)
    if (p.amount > 0) byMethod.set(p.method, (byMethod.get(p.method) ?? 0) + p.amount);
  return [...byMethod.entries()].map(([method, amount]) => ({ method, amount }));
}
