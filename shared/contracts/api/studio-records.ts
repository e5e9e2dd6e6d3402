import { z } from 'zod';
import { checkIban } from '../../domain/invoices/iban';
import { isPlausiblePhone } from '../../domain/clients/phone';
import { email, requiredText, text } from './common';
import { CURRENCIES } from './studio-admin';

/**
 * The studio's bank accounts and documents (issue 25, spec §7 studio-bank-account/collection, POST
 * studio-document).
 */

export const IBAN_ERRORS = {
  format: 'not an account number (IBAN) of a known country',
  checksum: 'the check digits do not match: a typo?',
} as const;

const ibanField = () =>
  z
    .string()
    .max(60)
    .transform((v, ctx) => {
      const check = checkIban(v);
      if (check.valid) return check.iban;
      ctx.addIssue({ code: 'custom', message: IBAN_ERRORS[check.reason] });
      return z.NEVER;
    });

/** POST {uuid}/studio-bank-account. The first account of a currency becomes its default. */
export const StudioBankAccountInputSchema = z.strictObject({
  name: requiredText(100),
  iban: ibanField(),
  bankName: text(100).optional(),
  currency: z.enum(CURRENCIES),
  isDefault: z.boolean().optional(),
});
export type StudioBankAccountInput = z.infer<typeof StudioBankAccountInputSchema>;

export const StudioBankAccountPatchSchema = z.strictObject({
  name: requiredText(100).optional(),
  iban: ibanField().optional(),
  bankName: text(100).optional(),
  currency: z.enum(CURRENCIES).optional(),
  /** Only `true`: the default changes by making another account the default. */
  isDefault: z.literal(true, { error: 'make another account the default instead' }).optional(),
});
export type StudioBankAccountPatch = z.infer<typeof StudioBankAccountPatchSchema>;

export const StudioBankAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Electronic form, `PL61109010140000071219812874`. */
  iban: z.string(),
  /** Printed form, in groups of four. */
  ibanPrinted: z.string(),
  bankName: z.string(),
  currency: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type StudioBankAccountView = z.infer<typeof StudioBankAccountSchema>;

/** GET {uuid}/studio-bank-account/transfer (clients): where to send a bank transfer. */
export const TransferInstructionsSchema = z.object({
  recipient: z.string(),
  address: z.string(),
  accounts: z.array(
    z.object({ name: z.string(), ibanPrinted: z.string(), bankName: z.string(), currency: z.string() }),
  ),
});
export type TransferInstructions = z.infer<typeof TransferInstructionsSchema>;

// -------------------------------------------------------------------------------- documents

export const StudioDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Relative to /api: GET it for the file (staff: any; clients: the published ones). */
  downloadPath: z.string(),
});
export type StudioDocumentView = z.infer<typeof StudioDocumentSchema>;

export const StudioDocumentPatchSchema = z.strictObject({
  name: requiredText(200).optional(),
  published: z.boolean().optional(),
});
export type StudioDocumentPatch = z.infer<typeof StudioDocumentPatchSchema>;

// --------------------------------------------------------------------------------- feedback

/** POST {uuid}/feedback (front office): a client's message to the studio, with an optional rating. */
export const FeedbackInputSchema = z.strictObject({
  message: requiredText(2000),
  rating: z.number().int().min(1).max(5).nullable().optional(),
});
export type FeedbackInput = z.infer<typeof FeedbackInputSchema>;

export const FeedbackSchema = z.object({
  id: z.string(),
  message: z.string(),
  rating: z.number().nullable(),
  client: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
});
export type FeedbackView = z.infer<typeof FeedbackSchema>;

// ------------------------------------------------------------------------- premium apps bundle

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** POST bundle/request: who the platform should contact about the premium mobile apps bundle. */
export const BundleRequestInputSchema = z.strictObject({
  contactName: requiredText(120),
  contactEmail: email(),
  contactPhone: z
    .preprocess(
      blankToNull,
      text(40)
        .refine(isPlausiblePhone, 'invalid phone number (6 to 15 digits, + ( ) - . / and spaces)')
        .nullable(),
    )
    .optional(),
  message: z.preprocess(blankToNull, text(2000).nullable()).optional(),
});
export type BundleRequestInput = z.infer<typeof BundleRequestInputSchema>;

export const BundleRequestSchema = z.object({
  id: z.string(),
  /** `requested`: sent to the platform, which answers by e-mail or phone; `withdrawn` by the studio. */
  status: z.enum(['requested', 'withdrawn']),
  contactName: z.string(),
  contactEmail: z.string(),
  contactPhone: z.string().nullable(),
  message: z.string().nullable(),
  requestedBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
  withdrawnAt: z.string().nullable(),
});
export type BundleRequestView = z.infer<typeof BundleRequestSchema>;

/** GET bundle/request: the studio's latest request (null: never asked). */
export const BundleRequestStateSchema = z.object({ request: BundleRequestSchema.nullable() });
export type BundleRequestState = z.infer<typeof BundleRequestStateSchema>;
