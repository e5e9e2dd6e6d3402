import type { EntryStudio, PreflightUsernameResult } from '../../shared/contracts/api/entry';
import { PROFILE_DELETION_SLUG, frontOfficeLoginPath } from '../../shared/contracts/routes';

/**
 * The email lookup shared by /login and /delete (spec §2, §4 "Delete flow"): the preflight answer
 * decides between going straight on, a picker and the "no account" message.
 */
export type LookupPurpose = 'login' | 'delete';

export type LookupOutcome =
  | { kind: 'none' }
  | { kind: 'one'; studio: EntryStudio; href: string }
  | { kind: 'several'; studios: EntryStudio[] };

/** The front-office login of a studio, with the email, the show-login-form flag and, for deletion, the target. */
export function studioLoginHref(purpose: LookupPurpose, studioUuid: string, username: string): string {
  return frontOfficeLoginPath(studioUuid, {
    username,
    showLoginForm: true,
    ...(purpose === 'delete' ? { redirectAfterLogin: PROFILE_DELETION_SLUG } : {}),
  });
}

export function lookupOutcome(
  purpose: LookupPurpose,
  username: string,
  result: PreflightUsernameResult,
): LookupOutcome {
  // isValid means "at least one studio"; an empty list is "none" whatever the flag says.
  if (!result.isValid || result.studios.length === 0) return { kind: 'none' };
  const [first] = result.studios;
  if (result.studios.length === 1 && first) {
    return { kind: 'one', studio: first, href: studioLoginHref(purpose, first.uuid, username) };
  }
  return { kind: 'several', studios: result.studios };
}
