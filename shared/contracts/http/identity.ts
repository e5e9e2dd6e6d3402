import { AccountErasureInputSchema } from '../api/account';
import {
  CsrfTokenSchema,
  EmailVerifiedSchema,
  LocaleInputSchema,
  LoginInputSchema,
  LoginResultSchema,
  MeSchema,
  RecoveryInputSchema,
  RecoveryResultSchema,
  ResetInputSchema,
  VerificationSentSchema,
  VerifyEmailInputSchema,
} from '../api/auth';
import { BackofficeInitSchema } from '../api/studio';
import { contractGroup } from './define';
import { StudioParams } from './params';

/**
 * Identity (spec §6, §7 "auth…", "account…"): sign-in and sessions, the signed-in user, password
 * recovery, email confirmation, the back office's start and a client's erasure of their account.
 */
export const IdentityApi = contractGroup('identity', {
  csrf: {
    method: 'get',
    path: '/v4/auth/csrf',
    access: 'public',
    response: CsrfTokenSchema,
  },
  login: {
    method: 'post',
    path: '/v4/auth/login',
    access: 'public',
    body: LoginInputSchema,
    response: LoginResultSchema,
  },
  logout: {
    method: 'post',
    path: '/v4/auth/logout',
    access: 'user',
    status: 204,
    responseKind: 'empty',
  },
  me: {
    method: 'get',
    path: '/v4/auth/me',
    access: 'user',
    response: MeSchema,
  },
  /** Saves the signed-in user's language (the page context prefers it on every device). */
  updateMe: {
    method: 'patch',
    path: '/v4/:uuid/me',
    access: 'studio',
    params: StudioParams,
    body: LocaleInputSchema,
    response: MeSchema,
  },
  recovery: {
    method: 'post',
    path: '/v4/:uuid/account/recovery',
    access: 'public',
    params: StudioParams,
    body: RecoveryInputSchema,
    status: 202,
    response: RecoveryResultSchema,
  },
  /** Sets the new password from a reset link and signs the user in. */
  reset: {
    method: 'post',
    path: '/v4/:uuid/account/reset',
    access: 'public',
    params: StudioParams,
    body: ResetInputSchema,
    response: LoginResultSchema,
  },
  verifyEmail: {
    method: 'post',
    path: '/v4/:uuid/account/verify-email',
    access: 'public',
    params: StudioParams,
    body: VerifyEmailInputSchema,
    response: EmailVerifiedSchema,
  },
  sendEmailVerification: {
    method: 'post',
    path: '/v4/:uuid/account/verify-email/send',
    access: 'client',
    params: StudioParams,
    status: 202,
    response: VerificationSentSchema,
  },
  backofficeInit: {
    method: 'post',
    path: '/v4/:uuid/backoffice/init',
    access: 'staff',
    params: StudioParams,
    response: BackofficeInitSchema,
  },
  /** A client erases their account in this studio, confirming with the current password (204). */
  eraseAccount: {
    method: 'delete',
    path: '/v4/:uuid/account',
    access: 'client',
    params: StudioParams,
    body: AccountErasureInputSchema,
    status: 204,
    responseKind: 'empty',
  },
});
