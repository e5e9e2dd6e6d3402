import { z } from 'zod';
import { OrderStatus, RetailItemStatus } from '../../enums';
import { ReceiptLineViewSchema, ReceiptVatGroupViewSchema } from './fiscal-printers';
import { oneOf, same, type Same } from './sales-views';
import {
  FISCAL_PAYMENT_TYPES,
  RECEIPT_STATUSES,
  RETAIL_ITEM_TYPES,
  type ReceiptBatchInit,
  type ReceiptCollection,
  type ReceiptPrintResult,
  type RetailCheckoutResult,
  type RetailInit,
  type RetailQuote,
} from './retail';

/**
 * The retail answers as zod schemas (the route contracts' response schemas). The interfaces in
 * `retail.ts` stay what services and screens type against; the checks at the end keep each schema
 * and its interface the same shape (a field added to one and not the other does not compile).
 */

const itemStatus = oneOf(RetailItemStatus);
const itemType = z.enum(RETAIL_ITEM_TYPES);
const vatRate = z.union([z.number(), z.literal('exempt')]);
const fiscalPayments = z.array(z.object({ type: z.enum(FISCAL_PAYMENT_TYPES), amount: z.number() }));

export const RetailInitSchema = z.object({
  currency: z.string(),
  items: z.array(
    z.object({
      type: itemType,
      id: z.string(),
      name: z.string(),
      price: z.number(),
      vatRate,
      stock: z.number().nullable(),
      barcode: z.string().nullable(),
      periodPrice: z.number().nullable(),
      needsClient: z.boolean(),
      category: z.object({ id: z.string(), name: z.string() }).nullable(),
    }),
  ),
  itemStatuses: z.array(itemStatus),
  paymentMethods: z.array(z.number()),
  stations: z.array(z.string()),
  receiptsToPrint: z.number(),
});

const ReceiptTotalsViewSchema = z.object({
  lines: z.array(ReceiptLineViewSchema),
  /** `slot`: the printer's VAT slot letter for the rate (default table), or null when it has none. */
  vatGroups: z.array(ReceiptVatGroupViewSchema.extend({ slot: z.string().nullable() })),
  subtotal: z.number(),
  discount: z.number(),
  total: z.number(),
  vat: z.number(),
});

export const RetailQuoteSchema = z.object({
  currency: z.string(),
  client: z
    .object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string().nullable() })
    .nullable(),
  items: z.array(
    z.object({
      type: itemType,
      id: z.string(),
      name: z.string(),
      quantity: z.number(),
      unitPrice: z.number(),
      total: z.number(),
      vatRate,
      status: itemStatus,
    }),
  ),
  groups: z.object({ payNow: z.number(), unpaid: z.number(), scheduled: z.number(), suspended: z.number() }),
  voucher: z.object({ code: z.string(), discount: z.number() }).nullable(),
  receipt: ReceiptTotalsViewSchema.nullable(),
  due: z.number(),
  tendered: z.number(),
  change: z.number(),
  remaining: z.number(),
  walletBalance: z.number().nullable(),
  problems: z.record(z.string(), z.array(z.string())),
  canCheckout: z.boolean(),
});

const ReceiptViewSchema = z.object({
  id: z.string(),
  status: z.enum(RECEIPT_STATUSES),
  receiptNumber: z.number().nullable(),
  orders: z.array(z.object({ id: z.string(), reference: z.string() })),
  client: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  stationSlug: z.string().nullable(),
  currency: z.string(),
  totals: ReceiptTotalsViewSchema,
  payments: fiscalPayments,
  change: z.number(),
  printRequests: z.number(),
  lastPrintRequestedAt: z.string().nullable(),
  createdAt: z.string(),
});

export const RetailCheckoutResultSchema = z.object({
  saleId: z.string(),
  orders: z.array(
    z.object({
      id: z.string(),
      reference: z.string(),
      status: oneOf(OrderStatus),
      total: z.number(),
      itemStatus: z.number(),
    }),
  ),
  receipt: ReceiptViewSchema.nullable(),
  change: z.number(),
  unfulfilled: z.array(z.string()),
});

export const ReceiptCollectionSchema = z.object({
  items: z.array(ReceiptViewSchema),
  next: z.string().nullable(),
});

export const ReceiptBatchInitSchema = z.object({
  currency: z.string(),
  counts: z.object({ toPrint: z.number(), needsAttention: z.number() }),
  oldestToPrint: z.string().nullable(),
  stations: z.array(z.string()),
});

export const ReceiptPrintResultSchema = z.object({
  batchId: z.string(),
  jobs: z.array(
    z.object({
      saleId: z.string(),
      stationSlug: z.string().nullable(),
      lines: z.array(z.object({ name: z.string(), unitPrice: z.number(), quantity: z.string(), vatRate })),
      discount: z.number(),
      payments: fiscalPayments,
      change: z.number(),
      total: z.number(),
    }),
  ),
});

// ------------------------------------------------------------------ schema ⇔ interface, both ways
same<Same<z.infer<typeof RetailInitSchema>, RetailInit>>();
same<Same<z.infer<typeof RetailQuoteSchema>, RetailQuote>>();
same<Same<z.infer<typeof RetailCheckoutResultSchema>, RetailCheckoutResult>>();
same<Same<z.infer<typeof ReceiptCollectionSchema>, ReceiptCollection>>();
same<Same<z.infer<typeof ReceiptBatchInitSchema>, ReceiptBatchInit>>();
same<Same<z.infer<typeof ReceiptPrintResultSchema>, ReceiptPrintResult>>();
