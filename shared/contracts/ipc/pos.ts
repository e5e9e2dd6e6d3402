import { z } from 'zod';
import { CHARGE_SALE_PAYMENT_METHODS } from '../sync/sales';
import { uuid } from '../api/common';
import { ShiftViewSchema } from '../api/stations';

/**
 * The desktop point of sale's IPC channels (`pos*`): the station's own shifts, sales recorded in
 * station.db before the fiscal receipt prints, the drawer, and receipts left pending by the printer.
 * Money is integer minor units. The renderer's POS screen (web/backoffice/pos, station sink) uses them.
 */

const money = () => z.number().int().min(0).max(100_000_000);

/** The station's shift: the cloud's ShiftView plus the sales still waiting to sync. */
export const PosShiftSchema = ShiftViewSchema.extend({ pendingSales: z.number().int() });
export type PosShift = z.infer<typeof PosShiftSchema>;

export const PosStationSchema = z.object({ posId: uuid(), slug: z.string(), name: z.string() });
export type PosStation = z.infer<typeof PosStationSchema>;

/** A fiscal receipt the printer left unsettled (needsAttention) or that did not print. */
export const PosReceiptIssueSchema = z.object({
  saleId: z.string(),
  /** awaitingCloud: a wallet/voucher/contract sale recorded here whose cloud answer has not come yet. */
  status: z.enum(['printing', 'notPrinted', 'needsAttention', 'awaitingCloud']),
  messageKey: z.string().nullable(),
  total: z.number(),
  soldAt: z.string(),
  /**
   * The printer cannot identify the receipt (receiptNotIdentified): the cashier settles it by hand
   * from the roll (`posConfirmReceipt`) — printed with its number, or not printed.
   */
  confirmable: z.boolean().default(false),
});
export type PosReceiptIssue = z.infer<typeof PosReceiptIssueSchema>;

/**
 * The cashier's decision on a receipt the printer cannot identify, read from the paper roll or the
 * electronic copy: printed (with the receipt number printed on it) or not printed. Audited.
 */
export const PosConfirmReceiptInputSchema = z
  .strictObject({
    saleId: uuid(),
    printed: z.boolean(),
    receiptNumber: z.number().int().min(1).max(99_999_999).optional(),
  })
  .refine((v) => !v.printed || v.receiptNumber !== undefined, {
    path: ['receiptNumber'],
    message: 'the number printed on the receipt',
  });
export type PosConfirmReceiptInput = z.infer<typeof PosConfirmReceiptInputSchema>;

export const PosStateSchema = z.object({
  /** False without the station's sync engine (nowhere to record a sale offline). */
  available: z.boolean(),
  /** The studio-pos station this desk sells as; null until chosen. */
  station: PosStationSchema.nullable(),
  shift: PosShiftSchema.nullable(),
  currency: z.string(),
  printer: z.object({
    /** A fiscal printer is set up for the station (cloud settings, or the host's emulator). */
    fiscal: z.boolean(),
    ticket: z.boolean(),
  }),
  /** Receipts to settle: needsAttention (resolvable) or notPrinted. */
  receiptIssues: z.array(PosReceiptIssueSchema),
  /** What the person at the desk may do here (from the cloud's last answer for them). */
  canDiscount: z.boolean(),
  /**
   * The cloud no longer accepts this desk's version (desktop.tooOld, issue 29): no sale until the
   * update installs. The desk's version and the oldest the cloud accepts; null while accepted.
   */
  updateRequired: z.object({ version: z.string(), oldestAccepted: z.string() }).nullable(),
});
export type PosState = z.infer<typeof PosStateSchema>;

export const PosCatalogItemSchema = z.object({
  /** Contracts are sold through the cloud only (online; their schedule is the cloud's). */
  type: z.enum(['product', 'pricingOption', 'contract']),
  id: z.string(),
  name: z.string(),
  price: z.number().int(),
  vatRate: z.union([z.number(), z.literal('exempt')]),
  stock: z.number().nullable(),
  barcode: z.string().nullable(),
  needsClient: z.boolean(),
  category: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type PosCatalogItem = z.infer<typeof PosCatalogItemSchema>;

export const PosCatalogSchema = z.object({
  currency: z.string(),
  items: z.array(PosCatalogItemSchema),
  /** When the cloud last gave it (offline: the kept copy). */
  savedAt: z.string(),
  offline: z.boolean(),
});
export type PosCatalog = z.infer<typeof PosCatalogSchema>;

export const PosSellLineSchema = z.strictObject({
  type: z.enum(['product', 'pricingOption', 'contract']),
  id: uuid(),
  quantity: z.number().int().min(1).max(999),
});

export const PosSellInputSchema = z.strictObject({
  /** Drawn by the screen once per sale attempt: a retried "pay" records one sale. */
  saleId: uuid(),
  clientId: uuid().nullable(),
  /** Priced by main from its catalog (the screen cannot set prices). */
  lines: z.array(PosSellLineSchema).min(1).max(100),
  discount: money().default(0),
  payments: z
    .array(
      z.strictObject({
        method: z
          .number()
          .int()
          .refine((m) => (CHARGE_SALE_PAYMENT_METHODS as readonly number[]).includes(m), 'not a desk method'),
        amount: money().refine((n) => n > 0, 'must be more than zero'),
      }),
    )
    .max(5),
  /**
   * A voucher code, validated and redeemed by the cloud. With it, a wallet payment or a contract line
   * the sale goes through the cloud (`chargeSale@1`, online only); otherwise it is a `recordSale@1` fact.
   */
  voucherCode: z.string().trim().max(40).nullable().optional(),
  /**
   * The buyer's NIP to print on the receipt (any usual spelling; checked with checkNip by main: a
   * bad one is `fields.buyerNip`). Any sale: a wallet, voucher or contract sale sends it with
   * `chargeSale@1` and prints the receipt the cloud answers with it.
   */
  buyerNip: z.string().trim().max(20).nullable().optional(),
});
export type PosSellInput = z.input<typeof PosSellInputSchema>;

export const PosSellResultSchema = z.object({
  saleId: z.string(),
  total: z.number(),
  change: z.number(),
  receipt: z.object({
    /** awaitingCloud: recorded here, the cloud has not answered yet (printed once it does). */
    status: z.enum(['printed', 'notPrinted', 'needsAttention', 'noPrinter', 'awaitingCloud', 'invoiced']),
    receiptNumber: z.number().nullable(),
    messageKey: z.string().nullable(),
  }),
  drawerOpened: z.boolean(),
  state: PosStateSchema,
});
export type PosSellResult = z.infer<typeof PosSellResultSchema>;

export const PosCloseResultSchema = z.object({
  shift: PosShiftSchema,
  dailyReport: z.enum(['printed', 'failed', 'noPrinter']),
  ticket: z.enum(['printed', 'failed', 'noPrinter']),
  state: PosStateSchema,
});

/** The orders the cloud made of a sale (an invoice is issued for one); `reason` when not known yet. */
export const PosSaleOrdersSchema = z.object({
  orderIds: z.array(z.string()),
  reason: z.enum(['offline', 'waitingToSync', 'refused']).nullable(),
});
export type PosSaleOrders = z.infer<typeof PosSaleOrdersSchema>;

export const PosInvoicePdfSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  /** The PDF, base64. */
  base64: z.string(),
});
export type PosInvoicePdf = z.infer<typeof PosInvoicePdfSchema>;

const empty = z.strictObject({});

export const POS_IPC_CONTRACT = {
  posState: { input: empty, output: PosStateSchema },
  posCatalog: { input: z.strictObject({ locale: z.enum(['en', 'pl']) }), output: PosCatalogSchema },
  posChooseStation: { input: z.strictObject({ posId: uuid() }), output: PosStateSchema },
  posOpenShift: { input: z.strictObject({ float: money() }), output: PosStateSchema },
  posCashMovement: {
    input: z.strictObject({
      kind: z.enum(['in', 'out']),
      amount: money().refine((n) => n > 0, 'must be more than zero'),
      reason: z.string().trim().max(200).optional(),
    }),
    output: PosStateSchema,
  },
  posCloseShift: {
    input: z.strictObject({ counted: money(), note: z.string().trim().max(500).optional() }),
    output: PosCloseResultSchema,
  },
  posSell: { input: PosSellInputSchema, output: PosSellResultSchema },
  posOpenDrawer: { input: empty, output: z.object({ opened: z.boolean() }) },
  posResolvePending: { input: z.strictObject({ saleId: uuid() }), output: PosStateSchema },
  posConfirmReceipt: { input: PosConfirmReceiptInputSchema, output: PosStateSchema },
  posSaleOrders: { input: z.strictObject({ saleId: uuid() }), output: PosSaleOrdersSchema },
  posInvoicePdf: { input: z.strictObject({ invoiceId: uuid() }), output: PosInvoicePdfSchema },
} as const;
