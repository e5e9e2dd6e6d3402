import { z } from 'zod';
import { AGREEMENT_KINDS, CARD_NUMBER_MAX, cardNumberKey, parseScannedIdentity } from '../../domain/accounts';
import { isPlausiblePhone } from '../../domain/clients/phone';
import { UserAccountLinkRelationship, UserSex } from '../../enums/users';
import { LOCALES } from '../../i18n/locales';
import { LoginResultSchema } from './auth';
import { email, password, requiredText, text, uuid } from './common';

/**
 * Client accounts in the front office (sign-up, profile, avatar, security, settings, identity,
 * linked accounts, messages, notifications) and client identities in the back office. All under
 * `/api/v4/{uuid}/...`; see cloud/src/modules/client-accounts/README.md for the routes.
 */

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const NAME_MAX = 100;

const phone = () =>
  text(40).refine(
    (v) => isPlausiblePhone(v),
    'invalid phone number (6 to 15 digits, + ( ) - . / and spaces)',
  );
const sex = () =>
  z.union([z.literal(UserSex.male), z.literal(UserSex.female)], { error: 'invalid value' }).nullable();
const birthDate = () =>
  z.iso
    .date('invalid date (YYYY-MM-DD)')
    .refine((d) => d >= '1900-01-01', 'too far in the past')
    .nullable();
const relationship = () => z.enum(Object.values(UserAccountLinkRelationship), { error: 'invalid value' });

// ------------------------------------------------------------------------------------ agreements

export const AgreementKindSchema = z.enum(AGREEMENT_KINDS);
export type AgreementKind = z.infer<typeof AgreementKindSchema>;

export const StudioAgreementViewSchema = z.object({
  id: z.string(),
  kind: AgreementKindSchema,
  version: z.number(),
  required: z.boolean(),
  /** In the reader's language (then the studio's). */
  title: z.string(),
  content: z.string(),
  publishedAt: z.string(),
});
export type StudioAgreementView = z.infer<typeof StudioAgreementViewSchema>;
export const StudioAgreementCollectionSchema = z.object({ items: z.array(StudioAgreementViewSchema) });
export type StudioAgreementCollection = z.infer<typeof StudioAgreementCollectionSchema>;

// --------------------------------------------------------------------------------------- sign-up

export const ClientSignupInputSchema = z.strictObject({
  emailAddress: email(),
  password: password(),
  firstName: requiredText(NAME_MAX),
  lastName: requiredText(NAME_MAX),
  phone: z.preprocess(blankToNull, phone().nullable()).optional(),
  locale: z.enum(LOCALES).optional(),
  /** Answers per agreement kind: required kinds must be `true`; marketing may be `false`. */
  agreements: z
    .strictObject({
      terms: z.boolean().optional(),
      privacy: z.boolean().optional(),
      marketing: z.boolean().optional(),
    })
    .default({}),
});
export type ClientSignupInput = z.infer<typeof ClientSignupInputSchema>;

// --------------------------------------------------------------------------------------- profile

export const ProfileQuerySchema = z.strictObject({
  /** A linked child's (or own other) account; default: the caller. */
  user: uuid().optional(),
});

export const ClientProfileSchema = z.object({
  userId: z.string(),
  emailAddress: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  birthDate: z.string().nullable(),
  sex: z.number().nullable(),
  avatarUrl: z.string().nullable(),
  /** Whether the caller may change it (their own profile). */
  editable: z.boolean(),
});
export type ClientProfile = z.infer<typeof ClientProfileSchema>;

export const ProfileUpdateInputSchema = z.strictObject({
  firstName: requiredText(NAME_MAX),
  lastName: requiredText(NAME_MAX),
  phone: z.preprocess(blankToNull, phone().nullable()).optional(),
  birthDate: z.preprocess(blankToNull, birthDate()).optional(),
  sex: sex().optional(),
});
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateInputSchema>;
export type ClientSignupForm = z.input<typeof ClientSignupInputSchema>;

export const AVATAR_MAX_BYTES = 512 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** JSON only (mutations are JSON): the image as a data URL. 512 KB of image ≈ 700 KB of base64. */
export const AvatarUploadInputSchema = z.strictObject({
  dataUrl: z
    .string()
    .max(Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 64, 'the image is too large (at most 512 KB)')
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'send a PNG, JPEG or WebP image'),
});

// -------------------------------------------------------------------------------------- security

export const SecurityInputSchema = z.strictObject({
  currentPassword: z.string().min(1, 'required').max(200),
  newPassword: password(),
});

// -------------------------------------------------------------------------------------- settings

export const NotificationPreferencesSchema = z.strictObject({
  email: z.boolean(),
  sms: z.boolean(),
  push: z.boolean(),
});
export const AccountSettingsSchema = z.object({
  locale: z.enum(LOCALES).nullable(),
  notifications: NotificationPreferencesSchema,
});
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;
export const AccountSettingsInputSchema = z.strictObject({
  locale: z.enum(LOCALES),
  notifications: NotificationPreferencesSchema,
});
export type AccountSettingsInput = z.infer<typeof AccountSettingsInputSchema>;

// --------------------------------------------------------------------------------------- account

/**
 * Front office `PATCH account` (issue 25): the client changes any part of their own account in one
 * call — name, phone, birth date, sex, language, notification channels and their answer to the
 * studio's marketing consent. What is left out stays as it is.
 */
export const AccountPatchSchema = z
  .strictObject({
    firstName: requiredText(NAME_MAX).optional(),
    lastName: requiredText(NAME_MAX).optional(),
    phone: z.preprocess(blankToNull, phone().nullable()).optional(),
    birthDate: z.preprocess(blankToNull, birthDate()).optional(),
    sex: sex().optional(),
    locale: z.enum(LOCALES).optional(),
    notifications: NotificationPreferencesSchema.partial().optional(),
    /** Accept (true) or withdraw (false) the studio's current marketing consent. */
    marketingConsent: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to change', path: [''] });
export type AccountPatch = z.infer<typeof AccountPatchSchema>;

export const MarketingConsentSchema = z.object({
  /** The studio's current marketing agreement in the reader's language; null when it asks none. */
  agreement: z
    .object({ id: z.string(), version: z.number(), title: z.string(), content: z.string() })
    .nullable(),
  /** The client's latest answer (any version): what campaigns go by. */
  accepted: z.boolean(),
  decidedAt: z.string().nullable(),
});
export type MarketingConsent = z.infer<typeof MarketingConsentSchema>;

export const AccountSchema = z.object({
  profile: ClientProfileSchema,
  settings: AccountSettingsSchema,
  marketingConsent: MarketingConsentSchema,
});
export type Account = z.infer<typeof AccountSchema>;

// -------------------------------------------------------------------------------------- identity

export const ClientIdentityViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['qr', 'card']),
  /** The card number as entered; null for the QR code. */
  number: z.string().nullable(),
  createdAt: z.string(),
});
export type ClientIdentityView = z.infer<typeof ClientIdentityViewSchema>;

export const MyIdentitySchema = z.object({
  /** The text to encode in the QR code the kiosk scans. */
  qrPayload: z.string(),
  cards: z.array(ClientIdentityViewSchema),
  firstName: z.string(),
  lastName: z.string(),
});
export type MyIdentity = z.infer<typeof MyIdentitySchema>;

/**
 * GET identity-reader?code=: the front desk's reader. `code` is what a card reader typed (a keyboard
 * wedge ends it with Enter) or a scanned QR payload; a value that is neither is a 400.
 */
export const IdentityReaderQuerySchema = z.strictObject({
  code: text(200).refine((v) => parseScannedIdentity(v) !== null, 'not a card number or a client QR code'),
});
export type IdentityReaderQuery = z.infer<typeof IdentityReaderQuerySchema>;

/** The client the code belongs to in this studio, or `match: null` when it is nobody's here. */
export const IdentityReaderResultSchema = z.object({
  match: z
    .object({
      via: z.enum(['qr', 'card']),
      client: z.object({
        id: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        archived: z.boolean(),
      }),
    })
    .nullable(),
});
export type IdentityReaderResult = z.infer<typeof IdentityReaderResultSchema>;

export const ClientIdentityCollectionSchema = z.object({
  items: z.array(ClientIdentityViewSchema),
  qrPayload: z.string(),
});
export type ClientIdentityCollection = z.infer<typeof ClientIdentityCollectionSchema>;

export const ClientIdentityCreateInputSchema = z.strictObject({
  cardNumber: text(CARD_NUMBER_MAX).refine(
    (v) => cardNumberKey(v) !== null,
    'invalid card number (letters, digits, spaces and hyphens; at least 3)',
  ),
});

// -------------------------------------------------------------------------------- linked accounts

export const LinkedAccountSchema = z.object({
  /** The link's id (the spec's userAccountLinkRelation). */
  id: z.string(),
  /** What the other person is to the viewer. */
  relationship: relationship(),
  /** The viewer made the link (may change the relationship); otherwise the other person did. */
  owned: z.boolean(),
  canActFor: z.boolean(),
  /** Whether the other person is a client of this studio. */
  clientHere: z.boolean(),
  user: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  createdAt: z.string(),
});
export type LinkedAccount = z.infer<typeof LinkedAccountSchema>;

export const LinkInitSchema = z.object({
  items: z.array(LinkedAccountSchema),
  relationships: z.array(z.object({ value: relationship(), labelKey: z.string() })),
});
export type LinkInit = z.infer<typeof LinkInitSchema>;

export const LinkConnectInputSchema = z.union([
  z.strictObject({
    emailAddress: email(),
    password: z.string().min(1, 'required').max(200),
    relationship: relationship(),
  }),
  z.strictObject({ userId: uuid(), relationship: relationship() }),
]);
export type LinkConnectInput = z.infer<typeof LinkConnectInputSchema>;

export const LinkPatchInputSchema = z.strictObject({ relationship: relationship() });

export const FoundAccountSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  studios: z.array(z.object({ uuid: z.string(), name: z.string() })),
  linked: z.boolean(),
});
export const FindMyAccountsSchema = z.object({ items: z.array(FoundAccountSchema) });
export type FindMyAccounts = z.infer<typeof FindMyAccountsSchema>;

// ------------------------------------------------------------------------ messages, notifications

export const MESSAGE_MAX = 5000;
export const UserMessageViewSchema = z.object({
  id: z.string(),
  /** `studio`: the studio wrote to the client; `client`: the client wrote to the studio. */
  from: z.enum(['studio', 'client']),
  subject: z.string(),
  content: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type UserMessageView = z.infer<typeof UserMessageViewSchema>;
export const UserMessageListSchema = z.object({
  items: z.array(UserMessageViewSchema),
  next: z.string().nullable(),
  unreadCount: z.number(),
});
export type UserMessageList = z.infer<typeof UserMessageListSchema>;

export const ClientMessageInputSchema = z.strictObject({
  subject: text(200).default(''),
  content: requiredText(MESSAGE_MAX),
});
export const SendMessageInputSchema = z.strictObject({
  userId: uuid(),
  subject: requiredText(200),
  content: requiredText(MESSAGE_MAX),
});

export const UserNotificationViewSchema = z.object({
  id: z.string(),
  type: z.string(),
  /** i18n key (namespace `account`) and its values: the app words it in the reader's language. */
  titleKey: z.string(),
  values: z.record(z.string(), z.string()),
  read: z.boolean(),
  createdAt: z.string(),
});
export type UserNotificationView = z.infer<typeof UserNotificationViewSchema>;
export const UserNotificationListSchema = z.object({
  items: z.array(UserNotificationViewSchema),
  next: z.string().nullable(),
  unreadCount: z.number(),
});
export type UserNotificationList = z.infer<typeof UserNotificationListSchema>;

/** Newest first; `cursor` is the `next` of the previous page (ids are time-ordered UUIDv7). */
export const InboxQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: uuid().optional(),
});

// ------------------------------------------------------------------------------- small answers

/** GET studio-agreement/collection: the language to read the agreements in (else the reader's). */
export const AgreementQuerySchema = z.strictObject({ locale: z.string().max(10).optional() });
/** GET user/{user}/avatar: `v` only busts caches (it changes with the file). */
export const AvatarQuerySchema = z.object({ v: z.string().max(20).optional() });
/** POST signup (201): signed in like a login, and whether the account was made now. */
export const ClientSignupResultSchema = LoginResultSchema.extend({ createdUser: z.boolean() });
export type ClientSignupResult = z.infer<typeof ClientSignupResultSchema>;
/** POST client/{user}/client-identity/regenerate-qr: the client's new QR code payload. */
export const QrPayloadSchema = z.object({ qrPayload: z.string() });
/** PATCH user-notification/read: how many notifications were unread. */
export const NotificationsReadSchema = z.object({ changed: z.number().int() });
