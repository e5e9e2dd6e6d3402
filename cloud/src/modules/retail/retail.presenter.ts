import type {
  FiscalPaymentType,
  ReceiptStatus,
  ReceiptTotalsView,
  ReceiptView,
} from '../../../../shared/contracts/api/retail';
import {
  DEFAULT_VAT_SLOTS,
  formatQuantity,
  mapRatesToSlots,
  vatRateKey,
  type ReceiptTotals,
  type VatSlotRate,
} from '../../../../shared/domain/receipts';

/** Receipt totals for the screen: quantities as decimals, each rate with its printer slot letter. */
export function presentTotals(
  totals: ReceiptTotals,
  slots: readonly VatSlotRate[] = DEFAULT_VAT_SLOTS,
): ReceiptTotalsView {
  const mapping = mapRatesToSlots(
    slots,
    totals.vatGroups.map((g) => g.vatRate),
  );
  return {
    lines: totals.lines.map((l) => ({
      name: l.name,
      vatRate: l.vatRate,
      unitPrice: l.unitPrice,
      quantity: formatQuantity(l.quantityThousandths),
      gross: l.gross,
      discount: l.discount,
      total: l.total,
    })),
    vatGroups: totals.vatGroups.map((g) => ({
      vatRate: g.vatRate,
      slot: mapping.find((m) => vatRateKey(m.rate) === vatRateKey(g.vatRate))?.slot ?? null,
      gross: g.gross,
      discount: g.discount,
      total: g.total,
      vat: g.vat,
    })),
    subtotal: totals.subtotal,
    discount: totals.discount,
    total: totals.total,
    vat: totals.vat,
  };
}

export interface ReceiptRow {
  id: string;
  studioId: string;
  clientId: string | null;
  stationSlug: string | null;
  lines: unknown;
  discount: number;
  payments: Array<{ type: FiscalPaymentType; amount: number }>;
  change: number;
  totals: ReceiptTotals;
  subtotal: number;
  total: number;
  vat: number;
  currency: string;
  printRequests: number;
  lastPrintRequestedAt: Date | null;
  createdAt: Date;
  documentStatus: 'printed' | 'notPrinted' | 'needsAttention' | null;
  documentReceiptNumber: number | null;
  clientFirstName: string | null;
  clientLastName: string | null;
}

export const receiptStatusOf = (row: Pick<ReceiptRow, 'documentStatus'>): ReceiptStatus =>
  row.documentStatus ?? 'toPrint';

/** `slots`: the VAT table of the receipt's station printer (the default table when it has none). */
export function presentReceipt(
  row: ReceiptRow,
  orderIds: string[],
  slots: readonly VatSlotRate[] = DEFAULT_VAT_SLOTS,
): ReceiptView {
  return {
    id: row.id,
    status: receiptStatusOf(row),
    receiptNumber: row.documentStatus === 'printed' ? row.documentReceiptNumber : null,
    orders: orderIds.map((id) => ({ id, reference: id.slice(-8).toUpperCase() })),
    client: row.clientId
      ? { id: row.clientId, firstName: row.clientFirstName ?? '', lastName: row.clientLastName ?? '' }
      : null,
    stationSlug: row.stationSlug,
    currency: row.currency,
    totals: presentTotals(row.totals, slots),
    payments: row.payments,
    change: row.change,
    printRequests: row.printRequests,
    lastPrintRequestedAt: row.lastPrintRequestedAt ? new Date(row.lastPrintRequestedAt).toISOString() : null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
