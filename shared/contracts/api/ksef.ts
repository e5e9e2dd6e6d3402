import { z } from 'zod';

/**
 * Sending invoices to KSeF (issue 19): the studio's KSeF settings and each invoice's state there.
 * The token is write-only: a view says only whether one is saved and its last four characters.
 */

export const KSEF_ENVIRONMENTS = ['test', 'production'] as const;
export type KsefEnvironment = (typeof KSEF_ENVIRONMENTS)[number];

/** `none`: not sent (the studio had no KSeF token when it was issued). */
export const KSEF_STATES = ['none', 'waiting', 'sent', 'accepted', 'refused'] as const;
export type KsefState = (typeof KSEF_STATES)[number];

export const KsefSettingsViewSchema = z.object({
  environment: z.enum(KSEF_ENVIRONMENTS),
  tokenSaved: z.boolean(),
  tokenHint: z.string(),
  offlineCertificate: z.object({ serialNumber: z.string() }).nullable(),
  updatedAt: z.string().nullable(),
});
export type KsefSettingsView = z.infer<typeof KsefSettingsViewSchema>;

const PEM = (label: string) =>
  z
    .string()
    .max(20_000)
    .refine((v) => v.includes(`-----BEGIN ${label}`), `a PEM ${label.toLowerCase()}`);

export const KsefSettingsInputSchema = z.strictObject({
  environment: z.enum(KSEF_ENVIRONMENTS),
  /** Omitted: the saved token stays; null: removed (the studio stops sending). */
  token: z
    .string()
    .trim()
    .min(10, 'a KSeF token is at least 10 characters')
    .max(500)
    .regex(/^[\x21-\x7e]+$/, 'a KSeF token has no spaces')
    .nullable()
    .optional(),
  /** The KSeF offline certificate that signs KOD II; omitted: kept, null: removed. */
  offlineCertificate: z
    .strictObject({ certificatePem: PEM('CERTIFICATE'), privateKeyPem: PEM('') })
    .nullable()
    .optional(),
});
export type KsefSettingsInput = z.infer<typeof KsefSettingsInputSchema>;

export const InvoiceKsefViewSchema = z.object({
  invoiceId: z.string(),
  state: z.enum(KSEF_STATES),
  /** Offline: KSeF was unreachable; the invoice was issued with KOD I and KOD II and is sent when back. */
  mode: z.enum(['online', 'offline']).nullable(),
  environment: z.enum(KSEF_ENVIRONMENTS).nullable(),
  ksefNumber: z.string().nullable(),
  /** KSeF's refusal: its status code and description. */
  statusCode: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** The last failure to reach KSeF (the send is retried). */
  lastError: z.string().nullable(),
  attempt: z.number().int(),
  sentAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  upoAvailable: z.boolean(),
  /** KOD I: the verification link printed on the invoice. */
  verificationUrl: z.string().nullable(),
  /** May be sent (again) now: waiting, refused, or never sent. */
  resendable: z.boolean(),
});
export type InvoiceKsefView = z.infer<typeof InvoiceKsefViewSchema>;

export const KsefInvoiceListQuerySchema = z.strictObject({
  state: z.enum([...KSEF_STATES, 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const KsefInvoiceListSchema = z.object({
  items: z.array(
    InvoiceKsefViewSchema.extend({
      number: z.string(),
      kind: z.enum(['invoice', 'corrective']),
      issueDate: z.string(),
      buyerName: z.string(),
      gross: z.number().int(),
      currency: z.string(),
    }),
  ),
});
export type KsefInvoiceList = z.infer<typeof KsefInvoiceListSchema>;
