import { z } from 'zod';
import { PaymentMethod } from '../../enums/payments';
import {
  checkBuyerTaxId,
  checkIban,
  checkNip,
  INVOICE_KINDS,
  INVOICE_QUANTITY_MAX_THOUSANDTHS,
  INVOICE_UNIT_PRICE_MAX,
  parseExchangeRate,
  PAYMENT_TERM_DAYS_MAX,
  PRICE_BASES,
  VAT_TREATMENTS,
} from '../../domain/invoices';
import { parseQuantity } from '../../domain/receipts/quantity';
import { isVatRate } from '../../domain/receipts/vat-rate';
import { requiredText, text, uuid, calendarDate } from './common';

/**
 * Polish VAT invoices and corrective invoices (spec §3 Invoice; §7 downloads by id and
 * `company/tax-identification-number/check`), under `/api/v4/{uuid}/...`. Money is integer minor
 * units; VAT rates are basis points (2300 = 23 %), 'exempt' or 'reverseCharge'; quantities are
 * decimal strings with up to three decimals ("1.5"); dates are the studio's calendar days.
 */

export const INVOICE_LINES_MAX = 100;
export const INVOICES_LIMIT_DEFAULT = 50;
export const INVOICES_LIMIT_MAX = 200;

export const NIP_MESSAGES = {
  format: 'a NIP is 10 digits (a "PL" prefix, spaces and hyphens are fine)',
  checksum: 'this NIP is not valid: its check digit does not match',
} as const;
export const TAX_ID_FORMAT_MESSAGE = 'a tax id is 2 to 20 letters and digits';
export const IBAN_MESSAGES = {
  format: 'an account number is an IBAN (PL and 26 digits)',
  checksum: 'this account number is not valid: its check digits do not match',
} as const;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const int = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);
const calendarDay = () => calendarDate();
const country = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'a two-letter country code (PL, DE, …)');

/** A NIP in any usual spelling → its ten digits; 400 names the field otherwise. */
export const nip = () =>
  z
    .string({ error: 'required' })
    .max(40, 'at most 40 characters')
    .transform((v, ctx) => {
      const check = checkNip(v);
      if (check.valid) return check.nip;
      ctx.addIssue({ code: 'custom', message: NIP_MESSAGES[check.reason] });
      return z.NEVER;
    });

const iban = () =>
  z.preprocess(
    blankToNull,
    z
      .string()
      .max(60)
      .transform((v, ctx) => {
        const check = checkIban(v);
        if (check.valid) return check.iban;
        ctx.addIssue({ code: 'custom', message: IBAN_MESSAGES[check.reason] });
        return z.NEVER;
      })
      .nullable(),
  );

export const PaymentMethodSchema = z.union(
  Object.values(PaymentMethod).map((v) => z.literal(v)) as unknown as [
    z.ZodLiteral<number>,
    ...z.ZodLiteral<number>[],
  ],
  { error: 'unknown payment method' },
);

export const InvoiceVatRateSchema = z.union([
  z.literal('exempt'),
  z.literal('reverseCharge'),
  z.number().refine(isVatRate, 'a rate in basis points, 0 to 9999'),
]);

const quantity = () =>
  z
    .union([z.string().max(20), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => {
      const q = parseQuantity(v);
      return q !== null && q <= INVOICE_QUANTITY_MAX_THOUSANDTHS;
    }, 'a quantity with at most three decimals');

export const InvoiceLineInputSchema = z.strictObject({
  description: requiredText(500),
  quantity: quantity(),
  unit: text(20).default('szt.'),
  unitPrice: int(0, INVOICE_UNIT_PRICE_MAX),
  vatRate: InvoiceVatRateSchema,
});
export type InvoiceLineInputBody = z.infer<typeof InvoiceLineInputSchema>;

export const AddressSchema = z.strictObject({
  name: requiredText(300),
  addressLine: requiredText(300),
  postalCode: requiredText(20),
  city: requiredText(100),
  country: country().default('PL'),
});

export const BuyerInputSchema = AddressSchema.extend({
  taxId: z.preprocess(blankToNull, text(40).nullable()).default(null),
  email: z
    .preprocess(blankToNull, z.string().trim().max(254).pipe(z.email('invalid email address')).nullable())
    .default(null),
  clientId: uuid().nullable().default(null),
})
  .superRefine(
    (buyer, ctx) => {
      if (buyer.taxId === null) return;
      const check = checkBuyerTaxId(buyer.taxId, buyer.country);
      if (!check.valid)
        ctx.addIssue({
          code: 'custom',
          path: ['taxId'],
          message: buyer.country === 'PL' ? NIP_MESSAGES[check.reason] : TAX_ID_FORMAT_MESSAGE,
        });
    },
    // Checked even when another field of the buyer is wrong, so every invalid field is reported.
    {
      when: ({ value }: { value: unknown }) => {
        if (typeof value !== 'object' || value === null) return false; // buyer missing: already reported
        const v = value as { taxId?: unknown; country?: unknown };
        return typeof v.country === 'string' && (v.taxId === null || typeof v.taxId === 'string');
      },
    } as never,
  )
  .transform((buyer) => {
    if (buyer.taxId === null) return buyer;
    const check = checkBuyerTaxId(buyer.taxId, buyer.country);
    return check.valid ? { ...buyer, taxId: check.taxId } : buyer;
  });
export type BuyerInput = z.infer<typeof BuyerInputSchema>;

export const ExchangeRateInputSchema = z.strictObject({
  rate: z
    .string()
    .max(12)
    .refine((v) => parseExchangeRate(v) !== null, 'złoty per unit with up to four decimals, e.g. 4.2512'),
  table: requiredText(40),
  date: calendarDay(),
});

const issueFields = {
  buyer: BuyerInputSchema,
  recipient: AddressSchema.nullable().default(null),
  saleDate: calendarDay().optional(),
  priceBasis: z.enum(PRICE_BASES).default('gross'),
  vatTreatment: z.enum(VAT_TREATMENTS).optional(),
  exemptionBasis: z.preprocess(blankToNull, text(500).nullable()).optional(),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'a three-letter currency code')
    .optional(),
  exchangeRate: ExchangeRateInputSchema.nullable().default(null),
  paymentMethod: PaymentMethodSchema.default(PaymentMethod.bankTransfer),
  paymentTermDays: int(0, PAYMENT_TERM_DAYS_MAX).optional(),
  paidAmount: int(0, 2_000_000_000).default(0),
  remarks: text(1000).default(''),
  lines: z
    .array(InvoiceLineInputSchema)
    .min(1, 'add at least one line')
    .max(INVOICE_LINES_MAX, `at most ${INVOICE_LINES_MAX} lines`),
};

/**
 * Reverse charge ("odwrotne obciążenie") only where the law provides it for a studio: services for a
 * business established outside Poland (art. 28b and 17 ust. 1 pkt 4 of the VAT act; the buyer
 * accounts for the VAT). A Polish buyer gets Polish VAT, and goods sold abroad are not reverse charge.
 */
export const REVERSE_CHARGE_MESSAGES = {
  domestic: 'reverse charge applies only to services for a business outside Poland',
  goods: 'reverse charge applies to services only: this order includes goods',
} as const;

type IssueShape = {
  buyer: { taxId: string | null; country?: string };
  vatTreatment?: (typeof VAT_TREATMENTS)[number];
  currency?: string;
  exchangeRate?: unknown;
  lines?: { vatRate: unknown }[];
};

function refineIssue(input: IssueShape, ctx: z.RefinementCtx): void {
  // Runs even when fields failed (an unknown key does not abort): the buyer may be missing here.
  if (input.vatTreatment === 'reverseCharge' && input.buyer && !input.buyer.taxId)
    ctx.addIssue({
      code: 'custom',
      path: ['buyer', 'taxId'],
      message: 'reverse charge needs the buyer\u2019s tax id',
    });
  if (input.vatTreatment === 'reverseCharge' && input.buyer && (input.buyer.country ?? 'PL') === 'PL')
    ctx.addIssue({ code: 'custom', path: ['vatTreatment'], message: REVERSE_CHARGE_MESSAGES.domestic });
  if (
    input.currency &&
    input.currency !== 'PLN' &&
    !input.exchangeRate &&
    input.vatTreatment !== 'reverseCharge'
  )
    ctx.addIssue({
      code: 'custom',
      path: ['exchangeRate'],
      message: 'an invoice in another currency needs the NBP rate',
    });
  (Array.isArray(input.lines) ? input.lines : []).forEach((line, i) => {
    if (line?.vatRate === 'reverseCharge' && input.vatTreatment !== 'reverseCharge')
      ctx.addIssue({
        code: 'custom',
        path: ['lines', i, 'vatRate'],
        message: 'reverse charge applies to the whole invoice',
      });
  });
}

/** `POST invoice`: an invoice typed in by staff (not tied to an order). */
export const InvoiceIssueInputSchema = z.strictObject(issueFields).superRefine(refineIssue);
export type InvoiceIssueInput = z.infer<typeof InvoiceIssueInputSchema>;

/**
 * `POST client-order/{clientOrder}/invoice`: the lines, currency, amounts, paid amount, payment
 * method and date of sale come from the order; staff give the buyer and may adjust the rest.
 */
export const InvoiceFromOrderInputSchema = z
  .strictObject({
    buyer: issueFields.buyer,
    recipient: issueFields.recipient,
    saleDate: issueFields.saleDate,
    vatTreatment: issueFields.vatTreatment,
    exemptionBasis: issueFields.exemptionBasis,
    paymentMethod: PaymentMethodSchema.optional(),
    paymentTermDays: issueFields.paymentTermDays,
    remarks: issueFields.remarks,
  })
  .superRefine(refineIssue);
export type InvoiceFromOrderInput = z.infer<typeof InvoiceFromOrderInputSchema>;

export const InvoiceCorrectiveInputSchema = z.strictObject({
  reason: requiredText(500),
  /** Every line of the invoice as it should be, in the same order; quantity 0 takes a line back. */
  lines: z
    .array(InvoiceLineInputSchema)
    .min(1, 'add at least one line')
    .max(INVOICE_LINES_MAX, `at most ${INVOICE_LINES_MAX} lines`),
  /** The corrected buyer, when the buyer's details were wrong. */
  buyer: BuyerInputSchema.optional(),
});
export type InvoiceCorrectiveInput = z.infer<typeof InvoiceCorrectiveInputSchema>;

export const InvoiceCancelInputSchema = z.strictObject({ reason: requiredText(500) });

export const InvoiceSettingsInputSchema = z.strictObject({
  sellerName: requiredText(300),
  addressLine: requiredText(300),
  postalCode: requiredText(20),
  city: requiredText(100),
  country: country().default('PL'),
  taxId: nip(),
  iban: iban().default(null),
  bankName: text(200).default(''),
  placeOfIssue: text(100).default(''),
  paymentTermDays: int(0, PAYMENT_TERM_DAYS_MAX).default(14),
  vatExempt: z.boolean().default(false),
  vatExemptionBasis: text(500).default(''),
});
export type InvoiceSettingsInput = z.infer<typeof InvoiceSettingsInputSchema>;

export const InvoiceListQuerySchema = z.strictObject({
  q: text(100).optional(),
  status: z.enum(['issued', 'cancelled', 'all']).default('all'),
  kind: z.enum([...INVOICE_KINDS, 'all']).default('all'),
  from: calendarDay().optional(),
  to: calendarDay().optional(),
  limit: z.coerce.number().pipe(int(1, INVOICES_LIMIT_MAX)).default(INVOICES_LIMIT_DEFAULT),
  cursor: z.string().max(500).optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuerySchema>;

export const TaxIdCheckQuerySchema = z.strictObject({ taxIdentificationNumber: nip() });

// ------------------------------------------------------------------------------------ responses

const VatRateView = z.union([z.number(), z.literal('exempt'), z.literal('reverseCharge')]);
const Amounts = z.object({ net: z.number(), vat: z.number(), gross: z.number() });

export const PartySchema = z.object({
  name: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  taxId: z.string().nullable(),
});
export const SellerSchema = PartySchema.extend({ iban: z.string().nullable(), bankName: z.string() });
export const BuyerSchema = PartySchema.extend({
  email: z.string().nullable(),
  clientId: z.string().nullable(),
});

export const InvoiceLineViewSchema = z.object({
  position: z.number(),
  description: z.string(),
  quantity: z.string(),
  unit: z.string(),
  unitPrice: z.number(),
  vatRate: VatRateView,
  net: z.number(),
  vat: z.number(),
  gross: z.number(),
});
export type InvoiceLineView = z.infer<typeof InvoiceLineViewSchema>;

export const InvoiceNoteSchema = z.union([
  z.object({ kind: z.literal('reverseCharge') }),
  z.object({ kind: z.literal('vatExempt'), basis: z.string() }),
  z.object({
    kind: z.literal('receipt'),
    number: z.number(),
    date: z.string(),
    printer: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('exchangeRate'),
    currency: z.string(),
    rate: z.string(),
    table: z.string(),
    date: z.string(),
    vatPln: z.number(),
  }),
]);

export const InvoiceRefSchema = z.object({
  id: z.string(),
  number: z.string(),
  issueDate: z.string(),
  status: z.enum(['issued', 'cancelled']),
});

/** A split payment: each method (§3 payment method) and the amount paid with it, in minor units. */
export const PaymentSplitSchema = z.array(z.object({ method: z.number(), amount: z.number() }));
export type PaymentSplit = z.infer<typeof PaymentSplitSchema>;

export const InvoiceViewSchema = z.object({
  id: z.string(),
  kind: z.enum(INVOICE_KINDS),
  number: z.string(),
  status: z.enum(['issued', 'cancelled']),
  issueDate: z.string(),
  saleDate: z.string(),
  placeOfIssue: z.string(),
  currency: z.string(),
  priceBasis: z.enum(PRICE_BASES),
  vatTreatment: z.enum(VAT_TREATMENTS),
  language: z.enum(['pl', 'pl-en']),
  seller: SellerSchema,
  /** A seller exempt under art. 113: the document is a "Faktura" without VAT columns. */
  sellerVatExempt: z.boolean(),
  buyer: BuyerSchema,
  recipient: AddressSchema.nullable(),
  lines: z.array(InvoiceLineViewSchema),
  rates: z.array(z.object({ vatRate: VatRateView, net: z.number(), vat: z.number(), gross: z.number() })),
  totals: z.object({
    net: z.number(),
    vat: z.number(),
    gross: z.number(),
    paid: z.number(),
    due: z.number(),
  }),
  payment: z.object({
    method: z.number(),
    /** An order paid several ways (issue 26): each method and amount, largest first; else null. */
    split: PaymentSplitSchema.nullable(),
    termDays: z.number(),
    dueDate: z.string(),
    bankTransfer: z.boolean(),
    state: z.enum(['paid', 'due', 'overdue', 'refundDue', 'none']),
  }),
  correction: z
    .object({
      correctedInvoice: InvoiceRefSchema,
      reason: z.string(),
      before: z.array(InvoiceLineViewSchema),
      after: z.array(InvoiceLineViewSchema),
      rates: z.array(
        z.object({ vatRate: VatRateView, before: Amounts, after: Amounts, difference: Amounts }),
      ),
      buyerBefore: BuyerSchema.nullable(),
    })
    .nullable(),
  corrections: z.array(InvoiceRefSchema),
  notes: z.array(InvoiceNoteSchema),
  remarks: z.string(),
  exchangeRate: z
    .object({ currency: z.string(), rate: z.string(), table: z.string(), date: z.string() })
    .nullable(),
  orderId: z.string().nullable(),
  /** An invoice for a printed fiscal receipt (faktura do paragonu, FP in the VAT records). */
  receipt: z
    .object({
      number: z.number(),
      date: z.string(),
      printerName: z.string().nullable(),
      stationSlug: z.string().nullable(),
    })
    .nullable(),
  cancellation: z.object({ at: z.string(), reason: z.string() }).nullable(),
  issuedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  downloadPath: z.string(),
});
export type InvoiceView = z.infer<typeof InvoiceViewSchema>;

export const InvoiceListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(INVOICE_KINDS),
  number: z.string(),
  status: z.enum(['issued', 'cancelled']),
  issueDate: z.string(),
  saleDate: z.string(),
  buyer: z.object({ name: z.string(), taxId: z.string().nullable() }),
  currency: z.string(),
  net: z.number(),
  vat: z.number(),
  gross: z.number(),
  due: z.number(),
  paymentDueDate: z.string(),
  correctedInvoiceNumber: z.string().nullable(),
  /** An invoice for a fiscal receipt: marked FP in the VAT records (JPK_V7). */
  forReceipt: z.boolean(),
});
export type InvoiceListItem = z.infer<typeof InvoiceListItemSchema>;
export const InvoiceListSchema = z.object({
  items: z.array(InvoiceListItemSchema),
  next: z.string().nullable(),
});
export type InvoiceList = z.infer<typeof InvoiceListSchema>;

export const InvoiceSettingsViewSchema = z.object({
  sellerName: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  taxId: z.string().nullable(),
  iban: z.string().nullable(),
  bankName: z.string(),
  placeOfIssue: z.string(),
  paymentTermDays: z.number(),
  vatExempt: z.boolean(),
  vatExemptionBasis: z.string(),
  /** False until the seller's NIP, name and address are saved: issuing answers 409 before that. */
  complete: z.boolean(),
});
export type InvoiceSettingsView = z.infer<typeof InvoiceSettingsViewSchema>;

export const InvoiceInitSchema = z.object({
  currency: z.string(),
  language: z.enum(['pl', 'pl-en']),
  settings: InvoiceSettingsViewSchema,
  taxes: z.array(z.object({ id: z.string(), name: z.string(), rateBp: z.number().nullable() })),
  paymentMethods: z.array(z.number()),
  nextNumber: z.string(),
  today: z.string(),
});
export type InvoiceInit = z.infer<typeof InvoiceInitSchema>;

export const TaxIdCheckResultSchema = z.object({
  isValid: z.literal(true),
  taxIdentificationNumber: z.string(),
  formatted: z.string(),
});
export type TaxIdCheckResult = z.infer<typeof TaxIdCheckResultSchema>;

/** `GET client-order/{clientOrder}/invoice/init`: what an invoice for the order would hold. */
export const InvoiceOrderDraftSchema = z.object({
  order: z.object({
    id: z.string(),
    reference: z.string(),
    status: z.number(),
    currency: z.string(),
    total: z.number(),
    paid: z.number(),
    createdAt: z.string(),
  }),
  /** False with the reason when the order cannot be invoiced (cancelled, already invoiced …). */
  invoiceable: z.boolean(),
  reason: z
    .enum([
      'alreadyInvoiced',
      'orderStatus',
      'nothingToInvoice',
      'receiptUnresolved',
      'receiptCoversOtherOrders',
    ])
    .nullable(),
  existingInvoice: InvoiceRefSchema.nullable(),
  /** The client's name and e-mail, and the address of the client's last invoice, when there is one. */
  buyer: z.object({
    name: z.string(),
    addressLine: z.string(),
    postalCode: z.string(),
    city: z.string(),
    country: z.string(),
    taxId: z.string().nullable(),
    email: z.string().nullable(),
    clientId: z.string().nullable(),
  }),
  /**
   * The order's fiscal receipt, when it has one. Printed: the invoice is for that receipt (FP), takes
   * its per-rate totals and names the NIP printed on it (or none). Not printed: the invoice replaces
   * it and it is never printed.
   */
  receipt: z
    .object({
      status: z.enum(['toPrint', 'printed', 'notPrinted', 'needsAttention']),
      number: z.number().nullable(),
      date: z.string().nullable(),
      printerName: z.string().nullable(),
      stationSlug: z.string().nullable(),
      buyerNip: z.string().nullable(),
    })
    .nullable(),
  saleDate: z.string(),
  paymentMethod: z.number(),
  /** The order's payments by method when it was paid several ways (as the invoice will print them). */
  paymentSplit: PaymentSplitSchema.nullable(),
  lines: z.array(InvoiceLineViewSchema),
  rates: z.array(z.object({ vatRate: VatRateView, net: z.number(), vat: z.number(), gross: z.number() })),
  totals: z.object({ net: z.number(), vat: z.number(), gross: z.number() }),
  settings: InvoiceSettingsViewSchema,
});
export type InvoiceOrderDraft = z.infer<typeof InvoiceOrderDraftSchema>;

// ------------------------------------------------------------------------------------ the client's own

/** Front office: the signed-in client's own invoices (issued ones, corrections included). */
export const ClientInvoiceListQuerySchema = z.strictObject({
  limit: z.coerce.number().pipe(int(1, INVOICES_LIMIT_MAX)).default(INVOICES_LIMIT_DEFAULT),
  cursor: uuid().optional(),
});
export type ClientInvoiceListQuery = z.infer<typeof ClientInvoiceListQuerySchema>;

export const ClientInvoiceSchema = z.object({
  id: z.string(),
  kind: z.enum(INVOICE_KINDS),
  number: z.string(),
  issueDate: z.string(),
  orderId: z.string().nullable(),
  currency: z.string(),
  gross: z.number(),
  correctedInvoiceNumber: z.string().nullable(),
  downloadPath: z.string(),
});
export type ClientInvoice = z.infer<typeof ClientInvoiceSchema>;
export const ClientInvoiceListSchema = z.object({
  items: z.array(ClientInvoiceSchema),
  next: z.string().nullable(),
});
export type ClientInvoiceList = z.infer<typeof ClientInvoiceListSchema>;
