import { z } from 'zod';
import { PaymentMethod } from '../../enums';
import { FiscalOutcomeSchema, VatRateSchema } from '../api/fiscal-printers';
import { uuid, instant } from '../api/common';
import { checkNip } from '../../domain/invoices/tax-id';

/** A buyer's NIP printed on the receipt (POSNET trnipset): ten digits, checksum and all. */
export const ReceiptBuyerNipSchema = z
  .string()
  .regex(/^\d{10}$/, 'ten digits')
  .refine((nip) => checkNip(nip).valid, 'not a valid NIP');

/**
 * `recordSale@1` (fact): a sale the desk made, recorded as it happened — amounts as charged and
 * printed, never re-priced. The server never rejects it: it dedupes on the sale id and on the
 * station + fiscal receipt number, and flags what moved on (price changed, product archived, stock
 * below zero). Offline sales are paid now in full at the desk; the wallet is not offered offline (its
 * balance cannot be checked without the cloud), nor are contracts (their schedule is the cloud's).
 */
export const RECORD_SALE_PAYMENT_METHODS = [
  PaymentMethod.cash,
  PaymentMethod.terminal,
  PaymentMethod.bankTransfer,
  PaymentMethod.gift,
  PaymentMethod.other,
] as const;

export const RecordSaleLineSchema = z.strictObject({
  /** A product, or a pass (pricing option) sold to the sale's client. */
  type: z.enum(['product', 'pricingOption']),
  id: uuid(),
  /** The name as sold (and printed). */
  name: z.string().trim().min(1).max(200),
  quantity: z.number().int().min(1).max(999),
  /** Unit price as charged, minor units. */
  unitPrice: z.number().int().min(0).max(100_000_000),
  /** Basis points (2300) or 'exempt', as printed. */
  vatRate: VatRateSchema,
});
export type RecordSaleLine = z.infer<typeof RecordSaleLineSchema>;

export const RecordSalePaymentSchema = z.strictObject({
  method: z
    .number()
    .int()
    .refine(
      (m) => (RECORD_SALE_PAYMENT_METHODS as readonly number[]).includes(m),
      'not an offline desk method',
    ),
  amount: z.number().int().min(1).max(100_000_000),
});

/** What the fiscal printer answered for the sale's receipt (the driver's outcome), if it printed. */
export const RecordSaleReceiptSchema = z.strictObject({
  /** The id the receipt was printed under (the driver's sale id); the cloud's receipt takes it. */
  receiptId: uuid(),
  stationSlug: z.string().trim().min(1).max(64),
  outcome: FiscalOutcomeSchema,
  printedAt: instant().optional(),
});

const saleFields = {
  /** The sale's id, chosen by the station (UUIDv7): the cloud's `retail_sales.id`. */
  saleId: uuid(),
  /** The client's person id (`{user}`); null for a walk-in buying products. */
  clientId: uuid().nullable().default(null),
  lines: z.array(RecordSaleLineSchema).min(1).max(100),
  /** Receipt-level discount, minor units. */
  discount: z.number().int().min(0).max(100_000_000).default(0),
  payments: z.array(RecordSalePaymentSchema).max(5).default([]),
  /** Cash given back. */
  change: z.number().int().min(0).max(100_000_000).default(0),
  /** The station's shift the sale belongs to (the POS's; kept with the sale). */
  shiftId: uuid().optional(),
  stationSlug: z.string().trim().min(1).max(64).optional(),
  note: z.string().trim().max(500).default(''),
  receipt: RecordSaleReceiptSchema.nullable().default(null),
  /**
   * The buyer's NIP the receipt carries ("paragon z NIP-em"), stored with the cloud's receipt
   * (`retail_receipts.buyer_nip`): an invoice to that buyer for the sale is allowed only with it.
   */
  buyerNip: ReceiptBuyerNipSchema.nullable().default(null),
};

type SaleShape = {
  clientId: string | null;
  lines: RecordSaleLine[];
  discount: number;
  payments: Array<{ method: number; amount: number }>;
  change: number;
};

/** What the lines cost after the discount. */
export function recordSaleTotal(sale: Pick<SaleShape, 'lines' | 'discount'>): number {
  return sale.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0) - sale.discount;
}

/** Every problem at once: passes need a client, the payments less the change pay exactly the total. */
function checkSale(sale: SaleShape, ctx: z.RefinementCtx): void {
  sale.lines.forEach((line, i) => {
    if (line.type === 'pricingOption' && !sale.clientId)
      ctx.addIssue({ code: 'custom', path: ['lines', i, 'type'], message: 'a pass needs a client' });
  });
  const total = recordSaleTotal(sale);
  if (total < 0) ctx.addIssue({ code: 'custom', path: ['discount'], message: 'more than the lines cost' });
  const paid = sale.payments.reduce((sum, p) => sum + p.amount, 0);
  if (paid - sale.change !== Math.max(0, total))
    ctx.addIssue({
      code: 'custom',
      path: ['payments'],
      message: 'the payments less the change must equal the total',
    });
  const cash = sale.payments
    .filter((p) => p.method === PaymentMethod.cash)
    .reduce((sum, p) => sum + p.amount, 0);
  if (sale.change > cash)
    ctx.addIssue({ code: 'custom', path: ['change'], message: 'change is given from cash only' });
}

export const RecordSaleArgsSchema = z.strictObject(saleFields).superRefine(checkSale);
export type RecordSaleArgs = z.infer<typeof RecordSaleArgsSchema>;

/**
 * The station's `recordSale(input)` (desktop/main/station/sales.ts): the sale as the POS screen has
 * it; `saleId` is drawn when absent.
 */
export const RecordSaleInputSchema = z
  .strictObject({ ...saleFields, saleId: uuid().optional() })
  .superRefine(checkSale);
export type RecordSaleInput = z.input<typeof RecordSaleInputSchema>;

/**
 * `chargeSale@1` (intent): a desk sale that charges what only the cloud can — the client's wallet, a
 * validated voucher, a contract sold at the desk. Recorded at the station first (local_sales + this
 * outbox row, one transaction), pushed at once, and printed only once the cloud applied it: the cloud
 * runs the retail checkout (wallet under the client's row lock, the voucher redeemed once, contracts
 * through the contracts module) and answers the receipt to print. It may be refused (wallet too low,
 * voucher used up, the total moved on): nothing was printed, the desk voids its local record.
 * Replays are the push's (mutation id) and the sale id's: one charge. Online only.
 */
export const CHARGE_SALE_PAYMENT_METHODS = [...RECORD_SALE_PAYMENT_METHODS, PaymentMethod.wallet] as const;

export const ChargeSaleArgsSchema = z
  .strictObject({
    saleId: uuid(),
    clientId: uuid().nullable().default(null),
    items: z
      .array(
        z.strictObject({
          type: z.enum(['product', 'pricingOption', 'contract']),
          id: uuid(),
          quantity: z.number().int().min(1).max(999),
        }),
      )
      .min(1)
      .max(100),
    voucherCode: z.string().trim().toUpperCase().min(1).max(40).nullable().default(null),
    payments: z
      .array(
        z.strictObject({
          method: z
            .number()
            .int()
            .refine(
              (m) => (CHARGE_SALE_PAYMENT_METHODS as readonly number[]).includes(m),
              'not a desk method',
            ),
          amount: z.number().int().min(1).max(100_000_000),
        }),
      )
      .max(5)
      .default([]),
    /** What the desk showed as due (after the voucher): the cloud refuses the sale if its due differs. */
    total: z.number().int().min(0).max(100_000_000),
    /** Cash given back, as the desk computed it (payments − total, from cash only). */
    change: z.number().int().min(0).max(100_000_000).default(0),
    shiftId: uuid().optional(),
    stationSlug: z.string().trim().min(1).max(64).optional(),
    note: z.string().trim().max(500).default(''),
    /**
     * The buyer's NIP the receipt is to carry ("paragon z NIP-em"), as on `recordSale@1`: the cloud
     * keeps it with the receipt it makes and answers it with the receipt to print.
     */
    buyerNip: ReceiptBuyerNipSchema.nullable().default(null),
  })
  .superRefine((sale, ctx) => {
    const paid = sale.payments.reduce((sum, p) => sum + p.amount, 0);
    if (paid - sale.change !== sale.total)
      ctx.addIssue({
        code: 'custom',
        path: ['payments'],
        message: 'the payments less the change must equal the total',
      });
    const cash = sale.payments
      .filter((p) => p.method === PaymentMethod.cash)
      .reduce((sum, p) => sum + p.amount, 0);
    if (sale.change > cash)
      ctx.addIssue({ code: 'custom', path: ['change'], message: 'change is given from cash only' });
    const needsClient =
      sale.items.some((i) => i.type !== 'product') ||
      sale.payments.some((p) => p.method === PaymentMethod.wallet);
    if (needsClient && !sale.clientId)
      ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'a client is needed' });
  });
export type ChargeSaleArgs = z.infer<typeof ChargeSaleArgsSchema>;
export type ChargeSaleInput = z.input<typeof ChargeSaleArgsSchema>;

/** What the cloud answers in the applied outcome's `data`: the receipt the station prints. */
export const ChargeSaleOutcomeDataSchema = z.object({
  saleId: z.string(),
  orderIds: z.array(z.string()),
  change: z.number().int(),
  /** Null when nothing is paid now (a zero total): nothing to print. */
  receipt: z
    .object({
      id: z.string(),
      lines: z.array(
        z.object({
          name: z.string(),
          unitPrice: z.number().int(),
          quantity: z.string(),
          vatRate: z.union([z.number(), z.literal('exempt')]),
        }),
      ),
      discount: z.number().int(),
      payments: z.array(z.object({ type: z.string(), amount: z.number().int() })),
      change: z.number().int(),
      total: z.number().int(),
      /** The buyer's NIP the receipt carries (absent in outcomes stored before it was answered). */
      buyerNip: z.string().nullable().optional(),
    })
    .nullable(),
});
export type ChargeSaleOutcomeData = z.infer<typeof ChargeSaleOutcomeDataSchema>;
