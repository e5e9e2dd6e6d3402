import type { ReceiptLineInput, ReceiptTotals } from '../../../../shared/domain/receipts';
import { StudioScopedModel } from '../../db/base.model';

/** A sale's fiscal receipt outcome, with the totals of the shared receipt-totals function. */
export class FiscalDocument extends StudioScopedModel {
  static override tableName = 'fiscal_documents';
  saleId!: string;
  printerId!: string | null;
  stationSlug!: string;
  status!: 'printed' | 'notPrinted' | 'needsAttention';
  receiptNumber!: number | null;
  recovered!: boolean;
  reason!: string | null;
  messageKey!: string | null;
  printerError!: number | null;
  pending!: { completedBefore: number; total: number; endToken?: string } | null;
  lines!: ReceiptLineInput[];
  payments!: Array<{ type: string; amount: number }>;
  totals!: ReceiptTotals;
  subtotal!: number;
  discount!: number;
  total!: number;
  vat!: number;
  currency!: string;
  printedAt!: Date;

  static override get jsonAttributes() {
    return ['pending', 'lines', 'payments', 'totals'];
  }
}
