import { z } from 'zod';
import { PaymentMethod, RetailItemStatus } from '../../enums';
import type { OrderStatus } from '../../enums';
import { LOCALES } from '../../i18n/locales';
import { text, uuid, calendarDate } from './common';

/**
 * The back-office point of sale (spec §7 Retail: `retail/init`, `/validate`, `/checkout`; the
 * voucher check `retail/voucher-redeem` is the products module's) and the receipts a desk sale
 * needs (`client-order/{clientOrder}/print-receipt`, `fiscal-receipt-batch-print` init, collection,
 * print). Money in minor units; VAT rates as basis points or 'exempt'.
 */

const retailItemStatusValues = Object.values(RetailItemStatus) as [number, ...number[]];
export const RetailItemStatusSchema = z
  .number()
  .int()
  .refine((v) => retailItemStatusValues.includes(v), 'unknown retail item status');

/** Methods the desk takes (money that does not go through an online provider). */
export const RETAIL_PAYMENT_METHODS = [
  PaymentMethod.cash,
  PaymentMethod.terminal,
  PaymentMethod.bankTransfer,
  PaymentMethod.wallet,
  PaymentMethod.gift,
  PaymentMethod.other,
] as const;
export const RetailPaymentMethodSchema = z
  .number()
  .int()
  .refine((v) => (RETAIL_PAYMENT_METHODS as readonly number[]).includes(v), 'not a desk payment method');

export const RETAIL_ITEM_TYPES = ['product', 'pricingOption', 'contract'] as const;
export type RetailItemType = (typeof RETAIL_ITEM_TYPES)[number];

export const RetailItemInputSchema = z.strictObject({
  type: z.enum(RETAIL_ITEM_TYPES),
  id: uuid(),
  /** Products: 1..99; a pass or a contract is sold one at a time. */
  quantity: z.number().int().min(1, 'at least 1').max(99, 'at most 99').default(1),
  status: RetailItemStatusSchema.default(RetailItemStatus.payNow),
});
export type RetailItemInput = z.input<typeof RetailItemInputSchema>;

export const RetailPaymentInputSchema = z.strictObject({
  method: RetailPaymentMethodSchema,
  /** Cash may be more than is due: the difference is the change handed back. */
  amount: z.number().int().min(1, 'at least 1').max(100_000_000),
});
export type RetailPaymentInput = z.infer<typeof RetailPaymentInputSchema>;

const date = () => calendarDate();

const basketShape = {
  /** The client (user id), or null for a walk-in. */
  clientId: uuid().nullable(),
  items: z.array(RetailItemInputSchema).min(1, 'the basket is empty').max(50),
  voucherCode: z.string().trim().max(40).nullable().optional(),
  payments: z.array(RetailPaymentInputSchema).max(5).default([]),
  /** The day scheduled items are to be paid (needed when an item is scheduled). */
  scheduledFor: date().nullable().optional(),
  /**
   * The POS station whose fiscal printer prints the receipt, when the desk has one: its VAT table
   * gives the receipt's slot letters, and a rate it has no slot for is a problem of the item.
   */
  stationSlug: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
    .nullable()
    .optional(),
};

/** POST retail/validate: the basket as it stands (payments may be partial). */
export const RetailBasketSchema = z.strictObject(basketShape);
export type RetailBasketInput = z.input<typeof RetailBasketSchema>;

/** POST retail/checkout (with an Idempotency-Key header): the basket as it is sold. */
export const RetailCheckoutSchema = z.strictObject({
  ...basketShape,
  note: text(500).default(''),
});
export type RetailCheckoutInput = z.input<typeof RetailCheckoutSchema>;

/** `?locale=`: the screen's language for names (passes and contracts have one per language). */
export const RetailLocaleQuerySchema = z.strictObject({ locale: z.enum(LOCALES).optional() });

// ---------------------------------------------------------------------------------------- init

export interface RetailCatalogItem {
  type: RetailItemType;
  id: string;
  name: string;
  /** What the desk charges today: the current price, or for a contract what is due on the sale day. */
  price: number;
  vatRate: number | 'exempt';
  /** Products with stock tracking: units in stock; else null. */
  stock: number | null;
  barcode: string | null;
  /** Contracts: the recurring price per period. */
  periodPrice: number | null;
  /** Passes and contracts need a named client. */
  needsClient: boolean;
  /** A product's category (the POS's tiles are filtered by it); null for passes and contracts. */
  category: { id: string; name: string } | null;
}

export interface RetailInit {
  currency: string;
  items: RetailCatalogItem[];
  itemStatuses: RetailItemStatus[];
  paymentMethods: number[];
  /** POS stations with a fiscal printer (their receipts are printed there). */
  stations: string[];
  /** Receipts of desk sales still to be printed. */
  receiptsToPrint: number;
}

// ---------------------------------------------------------------------------------------- quote

export interface RetailQuoteItem {
  type: RetailItemType;
  id: string;
  name: string;
  quantity: number;
  unitPrice: number;
  total: number;
  vatRate: number | 'exempt';
  status: RetailItemStatus;
}

export interface ReceiptLineView {
  name: string;
  vatRate: number | 'exempt';
  unitPrice: number;
  quantity: string;
  gross: number;
  discount: number;
  total: number;
}

export interface ReceiptVatGroupView {
  vatRate: number | 'exempt';
  /** The printer's VAT slot letter for the rate (default table), or null when it has none. */
  slot: string | null;
  gross: number;
  discount: number;
  total: number;
  vat: number;
}

export interface ReceiptTotalsView {
  lines: ReceiptLineView[];
  vatGroups: ReceiptVatGroupView[];
  subtotal: number;
  discount: number;
  total: number;
  vat: number;
}

export interface RetailQuote {
  currency: string;
  client: { id: string; firstName: string; lastName: string; email: string | null } | null;
  items: RetailQuoteItem[];
  /** Totals per retail item status (the pay-now group after the voucher). */
  groups: { payNow: number; unpaid: number; scheduled: number; suspended: number };
  voucher: { code: string; discount: number } | null;
  /** The fiscal receipt the pay-now part needs (null when nothing is paid now). */
  receipt: ReceiptTotalsView | null;
  /** Pay now: what is due, what the payments cover, the cash to hand back, what is still missing. */
  due: number;
  tendered: number;
  change: number;
  remaining: number;
  walletBalance: number | null;
  /** Every problem, by field path (`items.2.status`, `payments`), as message keys of `retail:`. */
  problems: Record<string, string[]>;
  canCheckout: boolean;
}

// ---------------------------------------------------------------------------------------- checkout

export interface RetailCheckoutResult {
  saleId: string;
  /** Every order the sale created, with its status (pay-now, unpaid, scheduled, suspended). */
  orders: Array<{ id: string; reference: string; status: OrderStatus; total: number; itemStatus: number }>;
  receipt: ReceiptView | null;
  change: number;
  /** Lines that were paid but could not be handed over (e.g. a pass the catalog refused since). */
  unfulfilled: string[];
}

// ---------------------------------------------------------------------------------------- receipts

export const RECEIPT_STATUSES = ['toPrint', 'printed', 'notPrinted', 'needsAttention'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const FISCAL_PAYMENT_TYPES = [
  'cash',
  'card',
  'cheque',
  'bon',
  'credit',
  'other',
  'voucher',
  'transfer',
] as const;
export type FiscalPaymentType = (typeof FISCAL_PAYMENT_TYPES)[number];

/** What the station sends to the fiscal printer: the `FiscalDocumentInput` of fiscal-printer/{slug}, less the outcome. */
export interface ReceiptPrintJob {
  /** The receipt's id: the station reports the outcome with it as `saleId`. */
  saleId: string;
  stationSlug: string | null;
  lines: Array<{ name: string; unitPrice: number; quantity: string; vatRate: number | 'exempt' }>;
  discount: number;
  payments: Array<{ type: FiscalPaymentType; amount: number }>;
  /** Cash handed back (the printer's change line). */
  change: number;
  total: number;
}

export interface ReceiptView {
  id: string;
  status: ReceiptStatus;
  receiptNumber: number | null;
  orders: Array<{ id: string; reference: string }>;
  client: { id: string; firstName: string; lastName: string } | null;
  stationSlug: string | null;
  currency: string;
  totals: ReceiptTotalsView;
  payments: Array<{ type: FiscalPaymentType; amount: number }>;
  change: number;
  printRequests: number;
  lastPrintRequestedAt: string | null;
  createdAt: string;
}

export const ReceiptCollectionQuerySchema = z.strictObject({
  status: z.enum(['toPrint', 'needsAttention', 'all']).default('toPrint'),
  stationSlug: z.string().trim().max(64).optional(),
  from: date().optional(),
  to: date().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: uuid().optional(),
});
export type ReceiptCollectionQuery = z.infer<typeof ReceiptCollectionQuerySchema>;

export interface ReceiptCollection {
  items: ReceiptView[];
  next: string | null;
}

export interface ReceiptBatchInit {
  currency: string;
  counts: { toPrint: number; needsAttention: number };
  /** Oldest receipt still to print (its creation time), or null. */
  oldestToPrint: string | null;
  stations: string[];
}

export const ReceiptBatchPrintSchema = z.strictObject({
  receiptIds: z.array(uuid()).min(1, 'choose at least one receipt').max(100),
  /** Print them at this station (else each at the station it was sold at). */
  stationSlug: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
    .nullable()
    .optional(),
});
export type ReceiptBatchPrintInput = z.input<typeof ReceiptBatchPrintSchema>;

export const PrintReceiptSchema = z.strictObject({
  stationSlug: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
    .nullable()
    .optional(),
});

export interface ReceiptPrintResult {
  batchId: string;
  jobs: ReceiptPrintJob[];
}
