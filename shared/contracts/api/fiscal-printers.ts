import { z } from 'zod';
import {
  DEFAULT_VAT_SLOTS,
  NEEDS_ATTENTION_REASONS,
  NOT_PRINTED_REASONS,
  PRINTING_MESSAGE_KEYS,
  VAT_SLOT_LETTERS,
  type PrintingMessageKey,
  type VatSlotRate,
} from '../../domain/receipts';
import { requiredText, text, uuid, instant } from './common';

/**
 * Fiscal printers as settings of a POS station (spec §7: Studio "fiscal-printer collection, POST
 * diagnose, GET document"; Other internal "GET/POST fiscal-printer/{slug}"; Retail "POST
 * fiscal-printer-status"), under `/api/v4/{uuid}/...`. The decisions behind these shapes are in
 * cloud/src/modules/fiscal-printers/README.md. Money is integer grosze, VAT rates basis points
 * (2300 = 23 %) or 'exempt'.
 */

export const FISCAL_PRINTER_NAME_MAX = 100;
export const RECEIPT_LINES_MAX = 500;
export const DOCUMENTS_PER_REPORT_MAX = 50;
/** Station slugs the fixed paths use: a station cannot be called so. */
export const RESERVED_STATION_SLUGS = ['collection', 'document'] as const;

// ---------------------------------------------------------------------------------------------------
// Building blocks

/** The POS station's slug (spec: App index {slug}: letters, digits, underscore, dot, hyphen). */
export const StationSlugSchema = z
  .string()
  .trim()
  .min(1, 'required')
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, underscore, dot and hyphen only')
  .refine((s) => !(RESERVED_STATION_SLUGS as readonly string[]).includes(s.toLowerCase()), 'reserved name');

/** Baud rates a POSNET printer can be set to (its serial settings are the station's). */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

export const SerialConnectionSchema = z.strictObject({
  kind: z.literal('serial'),
  /** The port as the station's OS names it: /dev/ttyUSB0, COM3. */
  path: requiredText(200),
  baudRate: z
    .number()
    .int()
    .refine((v) => (SERIAL_BAUD_RATES as readonly number[]).includes(v), 'unsupported baud rate'),
  parity: z.enum(['none', 'even', 'odd', 'mark', 'space']),
  dataBits: z.union([z.literal(7), z.literal(8)], { error: 'invalid value' }),
  stopBits: z.union([z.literal(1), z.literal(2)], { error: 'invalid value' }),
  flowControl: z.enum(['none', 'rtscts', 'xonxoff']),
});

export const TcpConnectionSchema = z.strictObject({
  kind: z.literal('tcp'),
  host: requiredText(253).regex(/^[A-Za-z0-9.:\-[\]]+$/, 'invalid host name'),
  port: z.number().int().min(1).max(65535),
});

export const FiscalPrinterConnectionSchema = z.discriminatedUnion('kind', [
  SerialConnectionSchema,
  TcpConnectionSchema,
]);
export type FiscalPrinterConnection = z.infer<typeof FiscalPrinterConnectionSchema>;

/** What a new station's serial form starts with (a POSNET printer's factory setting, 9600 8N1). */
export const SERIAL_CONNECTION_PREFILL = {
  kind: 'serial',
  path: '',
  baudRate: 9600,
  parity: 'none',
  dataBits: 8,
  stopBits: 1,
  flowControl: 'none',
} as const satisfies z.input<typeof SerialConnectionSchema>;

export const VatRateSchema = z.union([z.number().int().min(0).max(9999), z.literal('exempt')], {
  error: 'invalid VAT rate',
});
export const VatSlotRateSchema = z.union(
  [z.number().int().min(0).max(9999), z.literal('exempt'), z.literal('inactive')],
  { error: 'invalid VAT slot' },
);
/** Seven slots A–G in order. */
export const VatSlotsSchema = z.array(VatSlotRateSchema).length(VAT_SLOT_LETTERS.length);
export const DEFAULT_FISCAL_VAT_SLOTS: VatSlotRate[] = [...DEFAULT_VAT_SLOTS];

export const PrintingMessageKeySchema = z.enum(
  PRINTING_MESSAGE_KEYS as unknown as [PrintingMessageKey, ...PrintingMessageKey[]],
);

// ---------------------------------------------------------------------------------------------------
// Status the station reports

/** What the station read from its printer (`!sprn`, `!sdev`, `scnt`, `vatget`). */
export const StationPrinterStatusSchema = z.strictObject({
  /** False when the printer did not answer at all; the other fields then tell nothing. */
  online: z.boolean(),
  paperOut: z.boolean().default(false),
  coverOpen: z.boolean().default(false),
  device: z.enum(['ready', 'busy', 'waitingForUser']).default('ready'),
  dailyReportNeeded: z.boolean().default(false),
  lastReceiptNumber: z.number().int().min(0).max(2_000_000_000).nullable().default(null),
  /** The VAT table the printer holds (`vatget`), when read. */
  vatSlots: VatSlotsSchema.nullable().default(null),
});
export type StationPrinterStatusInput = z.input<typeof StationPrinterStatusSchema>;
export type StationPrinterStatus = z.output<typeof StationPrinterStatusSchema>;

/** A reported status as it leaves the server. */
export const StationPrinterStatusViewSchema = z.object({
  online: z.boolean(),
  paperOut: z.boolean(),
  coverOpen: z.boolean(),
  device: z.enum(['ready', 'busy', 'waitingForUser']),
  dailyReportNeeded: z.boolean(),
  lastReceiptNumber: z.number().nullable(),
  vatSlots: z.array(VatSlotRateSchema).nullable(),
});

export const PrinterStatusViewSchema = StationPrinterStatusViewSchema.extend({
  /** The cashier message the state calls for (printerAttentionKey), null when it can print. */
  attentionKey: PrintingMessageKeySchema.nullable(),
  /** When the cloud received the report (the station's "last seen"). */
  reportedAt: z.string(),
});
export type PrinterStatusView = z.infer<typeof PrinterStatusViewSchema>;

// ---------------------------------------------------------------------------------------------------
// Diagnose

export const DiagnoseResultSchema = z.strictObject({
  ok: z.boolean(),
  /** What went wrong, as a cashier message (namespace printing), when not ok. */
  messageKey: PrintingMessageKeySchema.nullable().default(null),
  /** The link the station used, e.g. "serial /dev/ttyUSB0 9600 8N1" or "tcp 10.0.0.5:6666". */
  transport: text(200).default(''),
  status: StationPrinterStatusSchema,
  counters: z
    .strictObject({
      completed: z.number().int().min(0),
      cancelled: z.number().int().min(0),
      lastReceiptNumber: z.number().int().min(0),
    })
    .nullable()
    .default(null),
  transactionOpen: z.boolean().nullable().default(null),
});
export type DiagnoseResultInput = z.input<typeof DiagnoseResultSchema>;

export const DiagnoseResultViewSchema = z.object({
  ok: z.boolean(),
  messageKey: PrintingMessageKeySchema.nullable(),
  transport: z.string(),
  status: StationPrinterStatusViewSchema,
  counters: z
    .object({ completed: z.number(), cancelled: z.number(), lastReceiptNumber: z.number() })
    .nullable(),
  transactionOpen: z.boolean().nullable(),
});

export const DiagnosisViewSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'completed']),
  requestedAt: z.string(),
  requestedBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  completedAt: z.string().nullable(),
  result: DiagnoseResultViewSchema.nullable(),
});
export type DiagnosisView = z.infer<typeof DiagnosisViewSchema>;

// ---------------------------------------------------------------------------------------------------
// The back office's printer

export const VatRateSlotSchema = z.object({
  rate: VatRateSchema,
  slot: z.enum(VAT_SLOT_LETTERS).nullable(),
});

export const FiscalPrinterSchema = z.object({
  id: z.string(),
  name: z.string(),
  stationSlug: z.string(),
  connection: FiscalPrinterConnectionSchema,
  /** The VAT table the studio expects on the printer. */
  vatSlots: z.array(VatSlotRateSchema),
  /**
   * The studio's tax rates and the slot each goes to: on the table the station last reported when
   * there is one (source 'reported'), else on the configured one. A null slot: sales at that rate
   * would not print.
   */
  vatMapping: z.object({
    source: z.enum(['configured', 'reported']),
    items: z.array(VatRateSlotSchema),
    /** The station reported a table that differs from the configured one. */
    differsFromConfigured: z.boolean(),
  }),
  status: PrinterStatusViewSchema.nullable(),
  /** The newest diagnose request, pending or completed. */
  diagnosis: DiagnosisViewSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FiscalPrinter = z.infer<typeof FiscalPrinterSchema>;

export const FiscalPrinterListSchema = z.object({
  items: z.array(FiscalPrinterSchema),
  next: z.string().nullable(),
  /** The studio's tax rates (of its pricing options), higher first. */
  studioRates: z.array(VatRateSchema),
});
export type FiscalPrinterList = z.infer<typeof FiscalPrinterListSchema>;

export const FiscalPrinterInputSchema = z.strictObject({
  name: requiredText(FISCAL_PRINTER_NAME_MAX),
  stationSlug: StationSlugSchema,
  connection: FiscalPrinterConnectionSchema,
  vatSlots: VatSlotsSchema.optional(),
});
export type FiscalPrinterInput = z.input<typeof FiscalPrinterInputSchema>;

export const FiscalPrinterPatchSchema = z
  .strictObject({
    name: requiredText(FISCAL_PRINTER_NAME_MAX).optional(),
    stationSlug: StationSlugSchema.optional(),
    connection: FiscalPrinterConnectionSchema.optional(),
    vatSlots: VatSlotsSchema.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    message: 'nothing to change',
    path: [''],
  });
export type FiscalPrinterPatch = z.input<typeof FiscalPrinterPatchSchema>;

// ---------------------------------------------------------------------------------------------------
// Fiscal documents (a sale's receipt outcome, as the station's driver answered it)

const quantity = () =>
  z
    .string()
    .trim()
    .max(14)
    .regex(/^\d{1,9}(?:[.,]\d{1,3})?$/, 'a decimal with at most three decimals');

export const ReceiptLineSchema = z.strictObject({
  name: requiredText(200),
  unitPrice: z.number().int().min(0).max(100_000_000),
  quantity: quantity().optional(),
  vatRate: VatRateSchema,
  discount: z
    .union([
      z.strictObject({ percent: z.number().int().min(1).max(9999) }),
      z.strictObject({ amount: z.number().int().min(1).max(100_000_000) }),
    ])
    .optional(),
});

export const FiscalPaymentSchema = z.strictObject({
  type: z.enum(['cash', 'card', 'cheque', 'bon', 'credit', 'other', 'voucher', 'transfer']),
  amount: z.number().int().min(0).max(1_000_000_000),
});

/** The driver's `FiscalReceiptOutcome`, as it answered (extra fields it carries are dropped). */
export const FiscalOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('printed'),
    receiptNumber: z.number().int().min(1).max(2_000_000_000),
    /** The total the printer printed: must equal the shared receipt-totals function's total. */
    total: z.number().int().min(0),
    recovered: z.boolean().default(false),
  }),
  z.object({
    status: z.literal('notPrinted'),
    reason: z.enum(NOT_PRINTED_REASONS),
    messageKey: PrintingMessageKeySchema,
    printerError: z.number().int().min(0).max(99_999).optional(),
  }),
  z.object({
    status: z.literal('needsAttention'),
    reason: z.enum(NEEDS_ATTENTION_REASONS),
    messageKey: PrintingMessageKeySchema,
    pending: z.object({
      completedBefore: z.number().int().min(0),
      total: z.number().int().min(0),
      endToken: z.string().max(10).optional(),
    }),
  }),
]);

export const FiscalDocumentInputSchema = z.strictObject({
  /** The sale's id (the driver's receipt id). One document per sale. */
  saleId: uuid(),
  lines: z.array(ReceiptLineSchema).min(1, 'required').max(RECEIPT_LINES_MAX),
  /** Receipt-level discount in grosze. */
  discount: z.number().int().min(0).max(1_000_000_000).default(0),
  payments: z.array(FiscalPaymentSchema).max(10).default([]),
  outcome: FiscalOutcomeSchema,
  /** When the station had the outcome (its clock); the cloud's time when absent. */
  printedAt: instant().optional(),
});
export type FiscalDocumentInput = z.input<typeof FiscalDocumentInputSchema>;

export const FiscalDocumentStatusSchema = z.enum(['printed', 'notPrinted', 'needsAttention']);

/** A receipt line as shown: its quantity as text ("1,5"), money in minor units after the discount. */
export const ReceiptLineViewSchema = z.object({
  name: z.string(),
  vatRate: VatRateSchema,
  unitPrice: z.number(),
  quantity: z.string(),
  gross: z.number(),
  discount: z.number(),
  total: z.number(),
});

/** A receipt's VAT group: its lines' sums at one rate. */
export const ReceiptVatGroupViewSchema = z.object({
  vatRate: VatRateSchema,
  gross: z.number(),
  discount: z.number(),
  total: z.number(),
  vat: z.number(),
});

export const FiscalDocumentSchema = z.object({
  id: z.string(),
  saleId: z.string(),
  stationSlug: z.string(),
  printer: z.object({ id: z.string(), name: z.string() }).nullable(),
  status: FiscalDocumentStatusSchema,
  receiptNumber: z.number().nullable(),
  recovered: z.boolean(),
  reason: z.string().nullable(),
  messageKey: PrintingMessageKeySchema.nullable(),
  printerError: z.number().nullable(),
  lines: z.array(ReceiptLineViewSchema),
  vatGroups: z.array(ReceiptVatGroupViewSchema),
  subtotal: z.number(),
  discount: z.number(),
  total: z.number(),
  vat: z.number(),
  payments: z.array(z.object({ type: z.string(), amount: z.number() })),
  currency: z.string(),
  printedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FiscalDocument = z.infer<typeof FiscalDocumentSchema>;

// ---------------------------------------------------------------------------------------------------
// The station's calls

/** What a station needs to run its printer: the settings and the diagnose requests waiting. */
export const StationFiscalPrinterSchema = z.object({
  printer: z.object({
    id: z.string(),
    name: z.string(),
    stationSlug: z.string(),
    connection: FiscalPrinterConnectionSchema,
    vatSlots: z.array(VatSlotRateSchema),
    updatedAt: z.string(),
  }),
  pendingDiagnoses: z.array(z.object({ id: z.string(), requestedAt: z.string() })),
});
export type StationFiscalPrinter = z.infer<typeof StationFiscalPrinterSchema>;

/** POST fiscal-printer/{slug}: any of the three parts; each is optional, one is required. */
export const StationReportSchema = z
  .strictObject({
    status: StationPrinterStatusSchema.optional(),
    diagnoses: z
      .array(z.strictObject({ id: uuid(), result: DiagnoseResultSchema }))
      .max(20)
      .optional(),
    documents: z.array(FiscalDocumentInputSchema).max(DOCUMENTS_PER_REPORT_MAX).optional(),
  })
  .refine((r) => r.status !== undefined || r.diagnoses !== undefined || r.documents !== undefined, {
    message: 'nothing to report',
    path: [''],
  });
export type StationReport = z.input<typeof StationReportSchema>;

export const StationReportResultSchema = StationFiscalPrinterSchema.extend({
  documents: z.array(z.object({ id: z.string(), saleId: z.string(), status: FiscalDocumentStatusSchema })),
});
export type StationReportResult = z.infer<typeof StationReportResultSchema>;

/** POST retail/fiscal-printer-status: the POS asks (and optionally tells) its printer's state. */
export const RetailFiscalPrinterStatusInputSchema = z.strictObject({
  stationSlug: StationSlugSchema,
  status: StationPrinterStatusSchema.optional(),
});
export type RetailFiscalPrinterStatusInput = z.input<typeof RetailFiscalPrinterStatusInputSchema>;

export const RetailFiscalPrinterStatusSchema = z.object({
  /** False when the station has no fiscal printer set up (the POS sells without fiscal receipts). */
  configured: z.boolean(),
  printer: z.object({ id: z.string(), name: z.string(), stationSlug: z.string() }).nullable(),
  status: PrinterStatusViewSchema.nullable(),
  pendingDiagnoses: z.number(),
  /** Sales of this station whose receipt outcome is still unknown. */
  documentsNeedingAttention: z.number(),
});
export type RetailFiscalPrinterStatus = z.infer<typeof RetailFiscalPrinterStatusSchema>;
