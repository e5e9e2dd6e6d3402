/**
 * URLs of the web apps, shared by the server (links in emails, preflight's frontOfficeLink) and the
 * web apps (redirects). The spec names the flags but not their query keys; these are ours.
 */
export const FRONT_OFFICE_QUERY = {
  username: 'username',
  showLoginForm: 'showLoginForm',
  redirectAfterLogin: 'redirectAfterLogin',
  returnToRoot: 'returnToRoot',
} as const;

export function frontOfficePath(studioUuid: string, slug = ''): string {
  return `/${studioUuid}/frontoffice${slug ? `/${slug.replace(/^\/+/, '')}` : ''}`;
}

export function frontOfficeLoginPath(
  studioUuid: string,
  params: { username?: string; showLoginForm?: boolean; redirectAfterLogin?: string } = {},
): string {
  const query = new URLSearchParams();
  if (params.username) query.set(FRONT_OFFICE_QUERY.username, params.username);
  if (params.showLoginForm) query.set(FRONT_OFFICE_QUERY.showLoginForm, '1');
  if (params.redirectAfterLogin) query.set(FRONT_OFFICE_QUERY.redirectAfterLogin, params.redirectAfterLogin);
  const qs = query.toString();
  return `${frontOfficePath(studioUuid, 'login')}${qs ? `?${qs}` : ''}`;
}

export function frontOfficeSignupPath(studioUuid: string, params: { returnToRoot?: boolean } = {}): string {
  return `${frontOfficePath(studioUuid, 'signup')}${params.returnToRoot ? `?${FRONT_OFFICE_QUERY.returnToRoot}=true` : ''}`;
}

/** Where a client confirms the erasure of their account in a studio. */
export const PROFILE_DELETION_SLUG = 'profile/delete';

export const backOfficePath = (studioUuid: string) => `/${studioUuid}/backoffice`;
export const kioskPath = (studioUuid: string, kioskGuid: string) => `/${studioUuid}/kiosk/${kioskGuid}`;
export const resetPasswordPath = (studioUuid: string, token: string) =>
  `${frontOfficePath(studioUuid, 'reset-password')}?token=${encodeURIComponent(token)}`;
/** The link of the email-address confirmation mail (front office `verify-email`). */
export const verifyEmailPath = (studioUuid: string, token: string) =>
  `${frontOfficePath(studioUuid, 'verify-email')}?token=${encodeURIComponent(token)}`;
