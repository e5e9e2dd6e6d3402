import type {
  ClientInvoice,
  InvoiceLineView,
  InvoiceListItem,
  InvoiceSettingsView,
  InvoiceView,
  PaymentSplit,
} from '../../../../shared/contracts/api/invoices';
import {
  invoiceNotes,
  parseInvoiceVatRateKey,
  paymentState,
  totalDue,
  type InvoiceKind,
  type InvoiceRateTotals,
  type InvoiceVatRate,
  type PriceBasis,
  type VatTreatment,
} from '../../../../shared/domain/invoices';
import { formatExchangeRate } from '../../../../shared/domain/invoices/notes';
import { formatQuantity } from '../../../../shared/domain/receipts/quantity';
import { PaymentMethod } from '../../../../shared/enums';
import type { InvoiceLinesRow, StudioInvoiceSettingsRow } from '../../db/generated/tables';

/** Rows as knex returns them (camelCase), and what leaves the server. */

export interface PartySnapshot {
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  country: string;
  taxId: string | null;
}
export interface SellerSnapshot extends PartySnapshot {
  iban: string | null;
  bankName: string;
  /** Exempt under art. 113 on this invoice (missing on invoices issued before issue 19: false). */
  vatExempt?: boolean;
}
export interface BuyerSnapshot extends PartySnapshot {
  email: string | null;
  clientId: string | null;
}
export type RecipientSnapshot = Omit<PartySnapshot, 'taxId'>;

export interface StoredExchangeRate {
  currency: string;
  rateTenThousandths: number;
  table: string;
  date: string;
}

type StoredRate = { vatRate: string; net: number; vat: number; gross: number };
type StoredCorrectionRate = {
  vatRate: string;
  before: { net: number; vat: number; gross: number };
  after: { net: number; vat: number; gross: number };
  difference: { net: number; vat: number; gross: number };
};

export interface InvoiceRow {
  id: string;
  studioId: string;
  kind: InvoiceKind;
  number: string;
  seriesYear: number;
  sequence: number;
  status: 'issued' | 'cancelled';
  issueDate: string;
  saleDate: string;
  placeOfIssue: string;
  currency: string;
  priceBasis: PriceBasis;
  vatTreatment: VatTreatment;
  exemptionBasis: string | null;
  exchangeRate: StoredExchangeRate | null;
  seller: SellerSnapshot;
  buyer: BuyerSnapshot;
  buyerBefore: BuyerSnapshot | null;
  recipient: RecipientSnapshot | null;
  buyerName: string;
  buyerTaxId: string | null;
  clientId: string | null;
  orderId: string | null;
  receiptId: string | null;
  receipt: { number: number; date: string; printerName: string | null; stationSlug: string | null } | null;
  paymentMethod: number;
  /** Each method and amount of an order paid several ways (migration 0310), else null. */
  paymentSplit: PaymentSplit | null;
  paymentTermDays: number;
  paymentDueDate: string;
  paidAmount: number;
  netTotal: number;
  vatTotal: number;
  grossTotal: number;
  rates: StoredRate[] | StoredCorrectionRate[];
  remarks: string;
  language: 'pl' | 'pl-en';
  correctedInvoiceId: string | null;
  correctionReason: string | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
  issuedBy: string | null;
  createdAt: Date;
}

/** An invoice line as stored; `side` tells a correction's before and after lines apart. */
export type InvoiceLineRow = Pick<
  InvoiceLinesRow,
  | 'position'
  | 'description'
  | 'quantityThousandths'
  | 'unit'
  | 'unitPrice'
  | 'vatRate'
  | 'net'
  | 'vat'
  | 'gross'
> & { side: 'line' | 'before' | 'after' };

export interface InvoiceRef {
  id: string;
  number: string;
  issueDate: string;
  status: 'issued' | 'cancelled';
}

export const invoiceRef = (row: Pick<InvoiceRow, 'id' | 'number' | 'issueDate' | 'status'>): InvoiceRef => ({
  id: row.id,
  number: row.number,
  issueDate: row.issueDate,
  status: row.status,
});

export const rateOf = (key: string): InvoiceVatRate => parseInvoiceVatRateKey(key);

export function presentLine(row: InvoiceLineRow): InvoiceLineView {
  return {
    position: row.position,
    description: row.description,
    quantity: formatQuantity(row.quantityThousandths),
    unit: row.unit,
    unitPrice: row.unitPrice,
    vatRate: rateOf(row.vatRate),
    net: row.net,
    vat: row.vat,
    gross: row.gross,
  };
}

export function invoiceFileName(number: string): string {
  return `${number.replace(/\//g, '_')}.pdf`;
}

export function presentInvoice(
  row: InvoiceRow,
  lines: InvoiceLineRow[],
  extra: {
    studioUuid: string;
    today: string;
    correctedInvoice: InvoiceRef | null;
    corrections: InvoiceRef[];
    issuedBy: { id: string; name: string } | null;
  },
): InvoiceView {
  const corrective = row.kind === 'corrective';
  const perRate: InvoiceRateTotals[] = corrective
    ? (row.rates as StoredCorrectionRate[]).map((r) => ({ vatRate: rateOf(r.vatRate), ...r.difference }))
    : (row.rates as StoredRate[]).map((r) => ({
        vatRate: rateOf(r.vatRate),
        net: r.net,
        vat: r.vat,
        gross: r.gross,
      }));
  const notes = invoiceNotes({
    treatment: row.vatTreatment,
    rates: perRate,
    exemptionBasis: row.exemptionBasis,
    currency: row.currency,
    vat: row.vatTotal,
    exchangeRate: row.exchangeRate,
    receipt: row.receipt,
  });
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    status: row.status,
    issueDate: row.issueDate,
    saleDate: row.saleDate,
    placeOfIssue: row.placeOfIssue,
    currency: row.currency,
    priceBasis: row.priceBasis,
    vatTreatment: row.vatTreatment,
    language: row.language,
    seller: row.seller,
    sellerVatExempt: row.seller.vatExempt === true,
    buyer: row.buyer,
    recipient: row.recipient,
    lines: lines.filter((l) => l.side === (corrective ? 'after' : 'line')).map(presentLine),
    rates: perRate,
    totals: {
      net: row.netTotal,
      vat: row.vatTotal,
      gross: row.grossTotal,
      paid: row.paidAmount,
      due: totalDue(row.grossTotal, row.paidAmount),
    },
    payment: {
      method: row.paymentMethod,
      split: row.paymentSplit && row.paymentSplit.length > 1 ? row.paymentSplit : null,
      termDays: row.paymentTermDays,
      dueDate: row.paymentDueDate,
      bankTransfer: row.paymentMethod === PaymentMethod.bankTransfer,
      state: paymentState({
        gross: row.grossTotal,
        paid: row.paidAmount,
        dueDate: row.paymentDueDate,
        today: extra.today,
      }),
    },
    correction:
      corrective && extra.correctedInvoice
        ? {
            correctedInvoice: extra.correctedInvoice,
            reason: row.correctionReason ?? '',
            before: lines.filter((l) => l.side === 'before').map(presentLine),
            after: lines.filter((l) => l.side === 'after').map(presentLine),
            rates: (row.rates as StoredCorrectionRate[]).map((r) => ({
              vatRate: rateOf(r.vatRate),
              before: r.before,
              after: r.after,
              difference: r.difference,
            })),
            buyerBefore: row.buyerBefore,
          }
        : null,
    corrections: extra.corrections,
    notes,
    remarks: row.remarks,
    exchangeRate: row.exchangeRate
      ? {
          currency: row.exchangeRate.currency,
          rate: formatExchangeRate(row.exchangeRate.rateTenThousandths),
          table: row.exchangeRate.table,
          date: row.exchangeRate.date,
        }
      : null,
    orderId: row.orderId,
    receipt: row.receipt
      ? {
          number: row.receipt.number,
          date: row.receipt.date,
          printerName: row.receipt.printerName,
          stationSlug: row.receipt.stationSlug,
        }
      : null,
    cancellation:
      row.status === 'cancelled' && row.cancelledAt
        ? { at: new Date(row.cancelledAt).toISOString(), reason: row.cancelReason ?? '' }
        : null,
    issuedBy: extra.issuedBy,
    createdAt: new Date(row.createdAt).toISOString(),
    downloadPath: `/api/v4/${extra.studioUuid}/invoice/${row.id}/pdf`,
  };
}

export function presentListItem(
  row: InvoiceRow & { correctedInvoiceNumber: string | null },
): InvoiceListItem {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    status: row.status,
    issueDate: row.issueDate,
    saleDate: row.saleDate,
    buyer: { name: row.buyerName, taxId: row.buyerTaxId },
    currency: row.currency,
    net: row.netTotal,
    vat: row.vatTotal,
    gross: row.grossTotal,
    due: totalDue(row.grossTotal, row.paidAmount),
    paymentDueDate: row.paymentDueDate,
    correctedInvoiceNumber: row.correctedInvoiceNumber,
    forReceipt: row.receipt !== null,
  };
}

/** An invoice on the client's purchases screen, with the client's own download path. */
export function presentClientInvoice(
  row: InvoiceRow & { correctedInvoiceNumber: string | null },
  studioUuid: string,
): ClientInvoice {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    issueDate: row.issueDate,
    orderId: row.orderId,
    currency: row.currency,
    gross: row.grossTotal,
    correctedInvoiceNumber: row.correctedInvoiceNumber,
    downloadPath: `/api/v4/${studioUuid}/purchases/invoice/${row.id}/pdf`,
  };
}

/** The seller's settings as the studio saved them. */
export type SettingsRow = Omit<StudioInvoiceSettingsRow, 'studioId' | 'updatedAt'>;

export function presentSettings(row: SettingsRow): InvoiceSettingsView {
  return {
    sellerName: row.sellerName,
    addressLine: row.addressLine,
    postalCode: row.postalCode,
    city: row.city,
    country: row.country,
    taxId: row.taxId,
    iban: row.iban,
    bankName: row.bankName,
    placeOfIssue: row.placeOfIssue,
    paymentTermDays: row.paymentTermDays,
    vatExempt: row.vatExempt,
    vatExemptionBasis: row.vatExemptionBasis,
    complete: Boolean(row.taxId && row.sellerName && row.addressLine && row.postalCode && row.city),
  };
}
