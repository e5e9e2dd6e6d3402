import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import { email, requiredText } from './common';
import { StudioViewSchema } from './studio';

/**
 * The entry application's calls (spec §2 "Entry application", §7 "Entry calls"), all public. The
 * decisions behind these shapes are in cloud/src/modules/entry/README.md.
 */

// ---------------------------------------------------------------------------------------------------
// POST /api/v4/auth/preflight

/** Login and account-deletion flows: which studios know this email address? */
export const PreflightUsernameInputSchema = z.strictObject({
  preflight: z.literal('username'),
  /** The email address typed on /login or /delete (the spec calls it username). */
  username: email(),
});

/** Sign-up flow: does this email already belong to studios (state studioAlreadyExists)? */
export const PreflightStudioInputSchema = z.strictObject({
  preflight: z.literal('studio'),
  action: z.literal('emailAddress'),
  emailAddress: email(),
});

export const PreflightInputSchema = z.discriminatedUnion('preflight', [
  PreflightUsernameInputSchema,
  PreflightStudioInputSchema,
]);
export type PreflightInput = z.infer<typeof PreflightInputSchema>;

/** A studio in the entry lists (login picker, delete picker, search results). */
export const EntryStudioSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  /** Absolute URL of the studio's logo, or null: the list shows a placeholder. */
  logoUrl: z.string().nullable(),
  /** One line: street, postal code and city ("" when the studio has not entered an address). */
  rootSearchAddress: z.string(),
});
export type EntryStudio = z.infer<typeof EntryStudioSchema>;

export const StudioLogoSchema = z.object({ absoluteUrl: z.string() }).nullable();

/** A studio in the sign-up flow's studioAlreadyExists list (spec §3 "Studio (from preflight)"). */
export const SignupStudioSchema = EntryStudioSchema.extend({
  appearance: z.object({ defaultLogo: StudioLogoSchema }),
  settings: z.object({ defaultLogo: StudioLogoSchema }),
  /** Absolute URL of the studio's front office (/{uuid}/frontoffice): the Log in link. */
  frontOfficeLink: z.string(),
});
export type SignupStudio = z.infer<typeof SignupStudioSchema>;

export const PreflightUsernameResultSchema = z.object({
  isValid: z.boolean(),
  studios: z.array(EntryStudioSchema),
});
export type PreflightUsernameResult = z.infer<typeof PreflightUsernameResultSchema>;

export const PreflightStudioResultSchema = z.object({
  isValid: z.boolean(),
  studios: z.array(SignupStudioSchema),
});
export type PreflightStudioResult = z.infer<typeof PreflightStudioResultSchema>;

// ---------------------------------------------------------------------------------------------------
// POST /api/v4/studio/create

/** The name the sign-up form may wrap its fields under (spec §7: "only if the form has one"). */
export const SIGNUP_FORM_NAME = 'studio_signup';

/** What a checkbox may send for "checked": JSON true, the strings a form serializer produces, 1. */
export const TERMS_ACCEPTED_VALUES: ReadonlyArray<unknown> = [true, 'true', 1, '1', 'on'];
export const TERMS_REQUIRED_MESSAGE = 'you must accept the terms of use and the privacy policy';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ studio_signup: { ...fields } }` → `{ ...fields }`; anything else is left for the schema to judge. */
function unwrapSignupForm(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  const inner = value[SIGNUP_FORM_NAME];
  return keys.length === 1 && keys[0] === SIGNUP_FORM_NAME && isPlainObject(inner) ? inner : value;
}

export const SignupFieldsSchema = z
  .strictObject({
    emailAddress: email(),
    /** The studio's name. */
    name: requiredText(200),
    firstName: requiredText(100),
    lastName: requiredText(100),
    /** The checkbox; becomes true when checked. Not checked is refused (see the route). */
    termsOfUseAndPrivacyPolicyAgreement: z
      .unknown()
      .optional()
      .transform((value) => TERMS_ACCEPTED_VALUES.includes(value)),
    /** Hidden field from the page context: the language of the studio and of the welcome email. */
    locale: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(LOCALES).optional()),
  })
  // With other invalid fields, report the unchecked box with them (every field at once). Alone, it
  // passes here and the route answers it with its own error key, studio.termsRequired.
  .refine((v) => !isPlainObject(v) || v.termsOfUseAndPrivacyPolicyAgreement !== false, {
    message: TERMS_REQUIRED_MESSAGE,
    path: ['termsOfUseAndPrivacyPolicyAgreement'],
    when: (payload) => payload.issues.length > 0,
  });

/** The sign-up body: the fields flat, or wrapped under SIGNUP_FORM_NAME. Field errors never carry the wrapper. */
export const StudioCreateInputSchema = z.preprocess(unwrapSignupForm, SignupFieldsSchema);
export type StudioCreateInput = z.output<typeof StudioCreateInputSchema>;

export const StudioCreateResultSchema = z.object({
  studio: StudioViewSchema,
  /** Absolute URL of the new studio's back office. */
  backofficeUrl: z.string(),
});
export type StudioCreateResult = z.infer<typeof StudioCreateResultSchema>;

// ---------------------------------------------------------------------------------------------------
// POST /api/v4/app/search

/** Spec §5 and §9: the search starts at 3 characters. */
export const APP_SEARCH_MIN_LENGTH = 3;
export const APP_SEARCH_MAX_RESULTS = 20;

export const AppSearchInputSchema = z.strictObject({
  queryString: z
    .string()
    .trim()
    .min(APP_SEARCH_MIN_LENGTH, `at least ${APP_SEARCH_MIN_LENGTH} characters`)
    .max(200)
    .refine((value) => !value.includes('\u0000'), 'invalid character'),
});
export type AppSearchInput = z.infer<typeof AppSearchInputSchema>;

export const AppSearchResultSchema = z.object({ studios: z.array(EntryStudioSchema) });
export type AppSearchResult = z.infer<typeof AppSearchResultSchema>;

// ---------------------------------------------------------------------------------------------------
// POST /api/v4/auth/kiosk

/**
 * Any text is accepted as the uuid: a malformed one is answered exactly like a wrong key (403), so
 * the call does not tell which studios exist.
 */
export const KioskAuthInputSchema = z.strictObject({
  uuid: requiredText(100),
  kioskKey: requiredText(200),
});
export type KioskAuthInput = z.infer<typeof KioskAuthInputSchema>;

export const KioskAuthResultSchema = z.object({ studioKiosk: z.object({ guid: z.string() }) });
export type KioskAuthResult = z.infer<typeof KioskAuthResultSchema>;
export const KIOSK_INVALID_MESSAGE = 'invalid uuid or kiosk key';

// ---------------------------------------------------------------------------------------------------
// POST /api/v4/log/post

/** PSR-3 / Monolog level names. */
export const CLIENT_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
/** Spec §7: the channel of script errors. */
export const SCRIPT_ERROR_CHANNEL = 10004;

export const ClientLogInputSchema = z.strictObject({
  level: z.enum(CLIENT_LOG_LEVELS),
  channel: z.number().int().min(0).max(999_999),
  // Not requiredText: a script error's text may hold NUL; the service strips it and keeps the report.
  message: z.string().trim().min(1, 'required').max(2000),
  response: z
    .strictObject({
      stack: z.string().max(10_000).nullish(),
      /** The app's version string (major.minor.patch.build). */
      version: z.string().trim().max(64).nullish(),
    })
    .optional(),
});
export type ClientLogInput = z.infer<typeof ClientLogInputSchema>;
