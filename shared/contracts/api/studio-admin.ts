import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import { checkNip } from '../../domain/invoices/tax-id';
import { email, requiredText, text, uuid } from './common';

/**
 * Studio administration (issue 25): the studio's profile, its booking defaults and its look
 * (studio-appearance). Decisions in cloud/src/modules/studio-admin/README.md.
 */

export const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP', 'CZK', 'SEK', 'NOK', 'DKK', 'CHF', 'HUF'] as const;

export const timeZone = () =>
  requiredText(64).refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'unknown time zone');

/** The URL slug (spec §2 app index: letters, digits, underscore, dot, hyphen). */
export const STUDIO_SLUG = /^[A-Za-z0-9_.-]{3,120}$/;

const taxId = () =>
  text(20).refine((value) => value === '' || checkNip(value).valid, 'invalid tax identification number');

/** PATCH {uuid}/studio: every field optional; the rest stays. */
export const StudioProfilePatchSchema = z.strictObject({
  name: requiredText(120).optional(),
  legalName: text(200).optional(),
  taxId: taxId().optional(),
  addressLine: text(200).optional(),
  postalCode: text(12).optional(),
  city: text(100).optional(),
  country: z
    .string()
    .trim()
    .regex(/^([A-Z]{2})?$/, 'two capital letters (ISO 3166)')
    .optional(),
  email: z.union([z.literal(''), email()]).optional(),
  phone: text(40).optional(),
  website: text(200).optional(),
  timeZone: timeZone().optional(),
  currency: z.enum(CURRENCIES).optional(),
  defaultLocale: z.enum(LOCALES).optional(),
  slug: z.string().trim().regex(STUDIO_SLUG, 'letters, digits, _ . - (3 to 120)').optional(),
});
export type StudioProfilePatch = z.infer<typeof StudioProfilePatchSchema>;

export const StudioProfileSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  legalName: z.string(),
  taxId: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  email: z.string(),
  phone: z.string(),
  website: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  defaultLocale: z.string(),
  slug: z.string(),
});
export type StudioProfile = z.infer<typeof StudioProfileSchema>;

/** The studio's booking defaults new classes start from (the fees are the booking settings'). */
export const StudioPoliciesSchema = z.object({
  /** How many days ahead clients may book (a class's own window may be shorter). */
  bookingWindowDays: z.number().int(),
  /** Up to how many minutes before the start a booking may be cancelled free of charge. */
  cancellationCutoffMinutes: z.number().int(),
  /** Up to how many minutes before the start a class may still be booked. */
  bookingCutoffMinutes: z.number().int(),
});
export type StudioPolicies = z.infer<typeof StudioPoliciesSchema>;
export const DEFAULT_POLICIES: StudioPolicies = {
  bookingWindowDays: 30,
  cancellationCutoffMinutes: 720,
  bookingCutoffMinutes: 0,
};

const HEX = /^#[0-9a-fA-F]{6}$/;
export const hexColour = () => z.string().trim().regex(HEX, 'a colour like #1f8a70');

export const StudioSettingsPatchSchema = z.strictObject({
  bookingWindowDays: z.number().int().min(1).max(365).optional(),
  cancellationCutoffMinutes: z
    .number()
    .int()
    .min(0)
    .max(14 * 24 * 60)
    .optional(),
  bookingCutoffMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .optional(),
  primaryColor: hexColour().nullable().optional(),
  accentColor: hexColour().nullable().optional(),
});
export type StudioSettingsPatch = z.infer<typeof StudioSettingsPatchSchema>;

/** GET {uuid}/studio-appearance (public): what the front office, kiosk, widget, e-mails and PDFs show. */
export const StudioAppearanceSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  coverUrl: z.string().nullable(),
  primaryColor: z.string().nullable(),
  accentColor: z.string().nullable(),
});
export type StudioAppearanceView = z.infer<typeof StudioAppearanceSchema>;

export const StudioSettingsSchema = z.object({
  profile: StudioProfileSchema,
  policies: StudioPoliciesSchema,
  appearance: StudioAppearanceSchema,
});
export type StudioSettingsView = z.infer<typeof StudioSettingsSchema>;

export const APPEARANCE_PICTURES = ['logo', 'cover'] as const;
export type AppearancePicture = (typeof APPEARANCE_PICTURES)[number];
/** An uploaded picture: at most 4 MB before resizing; PNG, JPEG or WebP by its bytes. */
export const PICTURE_MAX_BYTES = 4 * 1024 * 1024;
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PictureUploadSchema = z.strictObject({
  dataUrl: z
    .string()
    .max(Math.ceil((PICTURE_MAX_BYTES * 4) / 3) + 64, 'the image is too large (at most 4 MB)')
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, 'send a PNG, JPEG or WebP image'),
});
export type PictureUpload = z.infer<typeof PictureUploadSchema>;
export const AppearanceTypeParams = z.object({ uuid: z.string(), type: z.enum(APPEARANCE_PICTURES) });
export const AppearanceFileParams = z.object({
  uuid: z.string(),
  type: z.enum(APPEARANCE_PICTURES),
  file: z.string().regex(/^[A-Za-z0-9_-]{1,80}\.webp$/),
});
/** The sizes the screens use, longest side in px: the header logo, the kiosk, PDFs and e-mails. */
export const APPEARANCE_SIZES: Record<
  AppearancePicture,
  { width: number; height: number; fit: 'inside' | 'cover' }
> = {
  logo: { width: 512, height: 512, fit: 'inside' },
  cover: { width: 1600, height: 600, fit: 'cover' },
};

/** POST {uuid}/picture/upload: the stored picture (resized to fit 1600 × 1600, WebP). */
export const PictureViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type PictureView = z.infer<typeof PictureViewSchema>;

// ------------------------------------------------------------------------------- agreements

const AGREEMENT_KIND = z.enum(['terms', 'privacy', 'marketing']);
const localeTextInput = (max: number) =>
  z
    .strictObject({ en: text(max).optional(), pl: text(max).optional() })
    .refine((t) => Boolean(t.en || t.pl), 'write it in at least one language');

/** POST {uuid}/studio-agreement: a new version of an agreement (the previous ones stay on record). */
export const AgreementVersionInputSchema = z.strictObject({
  kind: AGREEMENT_KIND,
  required: z.boolean(),
  title: localeTextInput(200),
  content: localeTextInput(20_000),
});
export type AgreementVersionInput = z.infer<typeof AgreementVersionInputSchema>;

export const AgreementVersionSchema = z.object({
  id: z.string(),
  kind: AGREEMENT_KIND,
  version: z.number().int(),
  required: z.boolean(),
  current: z.boolean(),
  title: z.object({ en: z.string(), pl: z.string() }),
  content: z.object({ en: z.string(), pl: z.string() }),
  publishedAt: z.string(),
  /** How many clients accepted this version. */
  accepted: z.number().int(),
});
export type AgreementVersionView = z.infer<typeof AgreementVersionSchema>;

/** A current version the signed-in client has not answered yet (the front office asks at sign-in). */
export const PendingAgreementSchema = z.object({
  id: z.string(),
  kind: AGREEMENT_KIND,
  version: z.number().int(),
  required: z.boolean(),
  title: z.string(),
  content: z.string(),
  /** The client accepted an earlier version: this one is a change. */
  changed: z.boolean(),
});
export type PendingAgreement = z.infer<typeof PendingAgreementSchema>;

/** POST {uuid}/studio-agreement/accept: the client's answer to each pending version, by its id. */
export const AgreementAnswersSchema = z.strictObject({
  answers: z
    .array(z.strictObject({ id: uuid(), accepted: z.boolean() }))
    .min(1)
    .max(10),
});
export type AgreementAnswers = z.infer<typeof AgreementAnswersSchema>;
