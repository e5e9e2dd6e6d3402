import { OrderStatus } from '../../enums';
import { isVatRate, type VatRate } from '../receipts/vat-rate';

export const ORDER_SOURCES = [
  'contract_instalment',
  'desk',
  'online',
  'visit',
  'top_up',
  'donation',
] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const ORDER_LINE_KINDS = [
  'pass',
  'contract_instalment',
  'product',
  'visit',
  'top_up',
  'donation',
  'fee',
  'appointment',
  'video',
  'entry',
] as const;
export type OrderLineKind = (typeof ORDER_LINE_KINDS)[number];

export interface OrderLineInput {
  kind: OrderLineKind;
  refId?: string;
  name: string;
  quantity: number;
  unitPriceMinor: number;
  vatRate: string;
}

export interface OrderLineProblem {
  path: string;
  message: string;
}

/**
 * A VAT rate as callers write it: basis points (`'2300'`), a percentage (`'23%'`, `'8 %'`, `'5.5%'`),
 * or exempt (`'exempt'`, `'zw'`, `'zw.'`). Null when it is none of these.
 */
export function parseVatRate(text: string): VatRate | null {
  const value = text.trim().toLowerCase();
  if (value === 'exempt' || value === 'zw' || value === 'zw.') return 'exempt';
  const percent = /^(\d{1,2})(?:[.,](\d{1,2}))?\s*%$/.exec(value);
  if (percent) {
    const bp = Number(percent[1]) * 100 + Number((percent[2] ?? '').padEnd(2, '0'));
    return isVatRate(bp) ? bp : null;
  }
  if (/^\d{1,4}$/.test(value)) {
    const bp = Number(value);
    return isVatRate(bp) ? bp : null;
  }
  return null;
}

/** The stored text of a rate: basis points or 'exempt'. */
export function vatRateText(rate: VatRate): string {
  return rate === 'exempt' ? 'exempt' : String(rate);
}

/** Every problem of an order's lines, with paths like `lines.2.quantity`. */
export function orderLineProblems(lines: readonly OrderLineInput[]): OrderLineProblem[] {
  const problems: OrderLineProblem[] = [];
  if (lines.length === 0) problems.push({ path: 'lines', message: 'an order needs at least one line' });
  lines.forEach((line, i) => {
    const at = (field: string, message: string) => problems.push({ path: `lines.${i}.${field}`, message });
    if (!(ORDER_LINE_KINDS as readonly string[]).includes(line.kind)) at('kind', 'unknown line kind');
    if (!line.name || !line.name.trim()) at('name', 'a line needs a name');
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
      at('quantity', 'quantity must be a positive whole number');
    if (!Number.isSafeInteger(line.unitPriceMinor)) at('unitPriceMinor', 'price must be whole minor units');
    else if (line.unitPriceMinor < 0 && line.kind !== 'fee')
      at('unitPriceMinor', 'only a fee line may be negative');
    if (parseVatRate(line.vatRate) === null) at('vatRate', 'unknown VAT rate');
  });
  return problems;
}

export interface OrderTotals {
  subtotal: number;
  discount: number;
  total: number;
}

/** Σ quantity × unit price, less a discount capped at that sum. Never below zero. */
export function orderTotals(
  lines: ReadonlyArray<Pick<OrderLineInput, 'quantity' | 'unitPriceMinor'>>,
  discount = 0,
): OrderTotals {
  const subtotal = Math.max(
    0,
    lines.reduce((sum, l) => sum + l.quantity * l.unitPriceMinor, 0),
  );
  const applied = Math.min(Math.max(0, discount), subtotal);
  return { subtotal, discount: applied, total: subtotal - applied };
}

/** A status written by name (`'paid'`, `'scheduled'`) or number (`'7'`); null when unknown. */
export function orderStatusFromText(text: string): OrderStatus | null {
  if (text in OrderStatus) return OrderStatus[text as keyof typeof OrderStatus];
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return (Object.values(OrderStatus) as number[]).includes(n) ? (n as OrderStatus) : null;
  }
  return null;
}

export function orderStatusName(status: OrderStatus): keyof typeof OrderStatus {
  return (Object.keys(OrderStatus) as Array<keyof typeof OrderStatus>).find(
    (k) => OrderStatus[k] === status,
  )!;
}
