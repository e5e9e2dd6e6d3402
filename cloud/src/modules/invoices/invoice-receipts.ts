import type { ReceiptTotals } from '../../../../shared/domain/receipts';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * Invoices for receipted sales (faktura do paragonu; ustawa o VAT art. 106b ust. 5–7, art. 106h).
 *
 * An order is on at most one fiscal receipt (`retail_receipt_orders`); whether that receipt was
 * printed is its fiscal document's status (the station's report). The rules:
 * - printed: the sale is already registered on the fiscal printer. An invoice for it is issued only
 *   when the receipt covers this order alone (its per-rate totals are the invoice's), and, when the
 *   receipt carries the buyer's NIP or the invoice names a tax id, only when the two are the same
 *   (art. 106b ust. 5: an invoice for a receipt to a taxpayer needs the receipt to carry the NIP).
 *   The invoice references the receipt (number, date, printer) and is FP in the VAT records.
 * - needs attention, or a print was requested and no outcome came back yet: nobody knows whether it
 *   was printed; the invoice waits until the desk settles it (409).
 * - to print or not printed: the invoice replaces the receipt; the receipt is never printed
 *   afterwards (`receipt.orderInvoiced` on every print request).
 */

export interface OrderReceipt {
  id: string;
  status: 'toPrint' | 'printed' | 'notPrinted' | 'needsAttention';
  printRequests: number;
  orders: number;
  buyerNip: string | null;
  totals: ReceiptTotals;
  receiptNumber: number | null;
  printedAt: Date | null;
  printerName: string | null;
  stationSlug: string | null;
}

/** What an invoice prints of the receipt it was issued for. */
export interface ReceiptReference {
  receiptId: string;
  number: number;
  date: string;
  printerName: string | null;
  stationSlug: string | null;
}

export async function receiptOfOrder(
  db: Db,
  studioId: string,
  orderId: string,
  lock = false,
): Promise<OrderReceipt | null> {
  const link: { receiptId: string } | undefined = await db('retail_receipt_orders')
    .where({ studioId, orderId })
    .first('receiptId');
  // A desk sale synced with `recordSale@1` has its receipt row too, under the station's receipt id.
  if (!link) return null;
  // The print request path locks the receipt row too: issuing and printing queue on it.
  if (lock) await db('retail_receipts').where({ id: link.receiptId }).forUpdate().first('id');
  const row: (Omit<OrderReceipt, 'status'> & { documentStatus: OrderReceipt['status'] | null }) | undefined =
    await db('retail_receipts as r')
      .leftJoin('fiscal_documents as fd', function () {
        this.on('fd.studio_id', '=', 'r.studio_id').andOn('fd.sale_id', '=', 'r.id');
      })
      .leftJoin('studio_fiscal_printers as p', 'p.id', 'fd.printer_id')
      .where({ 'r.id': link.receiptId, 'r.studio_id': studioId })
      .first(
        'r.id',
        db.raw('coalesce(fd.buyer_nip, r.buyer_nip) as buyer_nip'),
        'r.totals',
        'r.print_requests',
        'fd.status as document_status',
        'fd.receipt_number',
        'fd.printed_at',
        'p.name as printer_name',
        db.raw('coalesce(fd.station_slug, r.station_slug) as station_slug'),
        db.raw('(select count(*) from retail_receipt_orders o where o.receipt_id = r.id)::int as orders'),
      );
  if (!row) return null;
  const { documentStatus, ...rest } = row;
  return { ...rest, status: documentStatus ?? 'toPrint' } as OrderReceipt;
}

/** A tax id as compared across documents: letters and digits, upper case, without a "PL" prefix. */
export function comparableTaxId(taxId: string | null | undefined): string | null {
  if (!taxId) return null;
  const plain = taxId.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return plain.replace(/^PL(?=\d{10}$)/, '') || null;
}

/** Why an order's receipt blocks an invoice whoever the buyer is, or null. */
export function receiptBlock(
  receipt: OrderReceipt | null,
): 'receiptUnresolved' | 'receiptCoversOtherOrders' | null {
  if (!receipt) return null;
  if (receipt.status === 'needsAttention' || (receipt.status === 'toPrint' && receipt.printRequests > 0))
    return 'receiptUnresolved';
  if (receipt.status === 'printed' && receipt.orders > 1) return 'receiptCoversOtherOrders';
  return null;
}

/**
 * Checks the order's receipt against the invoice about to be issued; answers the reference the
 * invoice carries (a printed receipt) or null (no receipt, or one that will now never be printed).
 */
export function receiptForInvoice(
  studio: Studio,
  receipt: OrderReceipt | null,
  buyerTaxId: string | null,
): ReceiptReference | null {
  const block = receiptBlock(receipt);
  if (block === 'receiptUnresolved')
    throw new AppError('invoice.receiptUnresolved', {
      message:
        "the order's fiscal receipt was sent to the printer and its outcome is not known: settle it at the desk first",
    });
  if (block === 'receiptCoversOtherOrders')
    throw new AppError('invoice.receiptCoversOtherOrders', {
      message:
        "the order's fiscal receipt covers other orders too: an invoice for it would not match the receipt",
    });
  if (!receipt || receipt.status !== 'printed') return null;
  const onReceipt = comparableTaxId(receipt.buyerNip);
  const onInvoice = comparableTaxId(buyerTaxId);
  if (onReceipt !== onInvoice)
    throw new AppError('invoice.receiptBuyerNipMismatch', {
      message: onReceipt
        ? "the buyer's tax id must be the NIP printed on the receipt"
        : "the receipt does not carry the buyer's NIP: an invoice for it cannot name a tax id",
      fields: {
        'buyer.taxId': [
          onReceipt ? 'must be the NIP printed on the receipt' : "the receipt does not carry the buyer's NIP",
        ],
      },
    });
  return {
    receiptId: receipt.id,
    number: receipt.receiptNumber ?? 0,
    date: localDateOf(new Date(receipt.printedAt!), studio.timeZone),
    printerName: receipt.printerName,
    stationSlug: receipt.stationSlug,
  };
}

/**
 * Receipts whose orders have an issued invoice, by receipt id: such a receipt is never printed (the
 * invoice registered the sale). For the retail module's print requests.
 */
export async function invoicedReceipts(db: Db, studioId: string, receiptIds: string[]): Promise<Set<string>> {
  if (receiptIds.length === 0) return new Set();
  const rows: { receiptId: string }[] = await db('retail_receipt_orders as ro')
    .join('invoices as i', function () {
      this.on('i.order_id', '=', 'ro.order_id').andOnVal('i.status', '=', 'issued');
    })
    .where('ro.studio_id', studioId)
    .whereIn('ro.receipt_id', receiptIds)
    .distinct('ro.receipt_id');
  return new Set(rows.map((r) => r.receiptId));
}
