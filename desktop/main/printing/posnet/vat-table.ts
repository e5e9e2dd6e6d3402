import { describeVatRate, vatRateKey, type VatRate } from '../../../../shared/domain/receipts';
import type { VatSlot, VatTable } from '../fiscal-printer';
import { fieldValue, type PosnetField } from './frame';
import { parseVatPercent, VAT_SLOT_LETTERS } from './text';

export class VatRateNotOnPrinterError extends Error {
  readonly rates: VatRate[];

  constructor(rates: VatRate[]) {
    super(`no active VAT slot on the printer for ${rates.map(describeVatRate).join(', ')}`);
    this.name = 'VatRateNotOnPrinterError';
    this.rates = rates;
  }
}

/** The `vatget` reply: va..vg, "23,00", 100,00 = exempt, 101,00 = inactive. */
export function parseVatTable(fields: PosnetField[]): VatTable | null {
  const table: VatTable = [];
  for (const [index, letter] of VAT_SLOT_LETTERS.entries()) {
    const text = fieldValue({ fields }, `v${letter.toLowerCase()}`);
    const rate = text === undefined ? null : parseVatPercent(text);
    if (rate === null) return null;
    table.push({ letter, index, rate });
  }
  return table;
}

/**
 * Maps the studio's rates to the printer's slots by value, never by letter (23 % is usually A, but
 * not on every printer). When a rate has two active slots the first one is used. Throws
 * VatRateNotOnPrinterError naming every rate without an active slot.
 */
export function slotsForRates(table: VatTable, rates: Iterable<VatRate>): Map<string, VatSlot> {
  const slots = new Map<string, VatSlot>();
  const missing: VatRate[] = [];
  for (const rate of rates) {
    const key = vatRateKey(rate);
    if (slots.has(key)) continue;
    const slot = table.find((s) => s.rate !== 'inactive' && vatRateKey(s.rate) === key);
    if (slot) slots.set(key, slot);
    else if (!missing.some((m) => vatRateKey(m) === key)) missing.push(rate);
  }
  if (missing.length > 0) throw new VatRateNotOnPrinterError(missing);
  return slots;
}
