import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import { email, password, requiredText, uuid } from './common';

export const LoginInputSchema = z.strictObject({
  emailAddress: email(),
  password: z.string().min(1, 'required').max(200),
  /** When signing in from a studio's app: the membership must exist in that studio. */
  studioUuid: uuid().optional(),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

export const MembershipSchema = z.object({
  studioUuid: z.string(),
  studioName: z.string(),
  isClient: z.boolean(),
  isMember: z.boolean(),
  role: z.string().nullable(),
});
export type MembershipView = z.infer<typeof MembershipSchema>;

export const MeSchema = z.object({
  id: z.string(),
  emailAddress: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  locale: z.enum(LOCALES).nullable(),
  /**
   * Whether the account proved it owns `emailAddress` (a confirmation or reset link was used). A
   * cloud from before the field (a desk station may talk to one) is read as verified: no notice.
   */
  emailVerified: z.boolean().default(true),
  memberships: z.array(MembershipSchema),
});
export type Me = z.infer<typeof MeSchema>;

/** Answer to a successful sign-in: the new session's header values and the user. */
export const LoginResultSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  token: z.string(),
  me: MeSchema,
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const RecoveryInputSchema = z.strictObject({ emailAddress: email() });
export const ResetInputSchema = z.strictObject({ token: requiredText(200), password: password() });
/** POST {uuid}/account/verify-email: the token of the confirmation link. */
export const VerifyEmailInputSchema = z.strictObject({ token: requiredText(200) });
export const LocaleInputSchema = z.strictObject({ locale: z.enum(LOCALES) });

/** GET auth/csrf: a CSRF token for clients that did not load a page (native shells, tests). */
export const CsrfTokenSchema = z.object({ token: z.string() });
/** POST {uuid}/account/recovery (202): the same answer whether the address is known or not. */
export const RecoveryResultSchema = z.object({ sent: z.literal(true) });
/** POST {uuid}/account/verify-email: the address is proved. */
export const EmailVerifiedSchema = z.object({ verified: z.literal(true) });
/** POST {uuid}/account/verify-email/send (202): a link was sent, or none was needed (already proved). */
export const VerificationSentSchema = z.object({ sent: z.boolean(), verified: z.boolean() });
