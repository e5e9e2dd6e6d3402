import { compareVatRates, vatRateKey, type VatRate } from './vat-rate';

/**
 * A fiscal printer's VAT table as the studio configures and the station reports it: seven slots
 * A–G, each holding a rate (basis points), 'exempt' ("zw.") or 'inactive'. The POSNET driver reads
 * the real table at start-up (`vatget`) and maps rates to slots by value, never by letter; this is
 * the same rule, pure, so the back office can tell before the first sale which of the studio's
 * rates a printer cannot print.
 */
export const VAT_SLOT_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type VatSlotLetter = (typeof VAT_SLOT_LETTERS)[number];
export type VatSlotRate = VatRate | 'inactive';

/** Usual, not fixed (docs/fiscal-printers.md): A 23 %, B 8 %, C 5 %, D 0 %, E exempt, F and G inactive. */
export const DEFAULT_VAT_SLOTS: readonly VatSlotRate[] = [
  2300,
  800,
  500,
  0,
  'exempt',
  'inactive',
  'inactive',
];

export interface VatRateSlot {
  rate: VatRate;
  /** The first active slot holding the rate, or null: the printer would refuse a sale at it. */
  slot: VatSlotLetter | null;
}

/**
 * Each rate (deduplicated, higher rate first, exempt last) with the first active slot of `slots`
 * holding the same value. A table must have seven slots.
 */
export function mapRatesToSlots(slots: readonly VatSlotRate[], rates: Iterable<VatRate>): VatRateSlot[] {
  if (slots.length !== VAT_SLOT_LETTERS.length) throw new RangeError('a VAT table has seven slots');
  const unique = new Map<string, VatRate>();
  for (const rate of rates) unique.set(vatRateKey(rate), rate);
  return [...unique.values()].sort(compareVatRates).map((rate) => {
    const index = slots.findIndex((s) => s !== 'inactive' && vatRateKey(s) === vatRateKey(rate));
    return { rate, slot: index === -1 ? null : VAT_SLOT_LETTERS[index]! };
  });
}
