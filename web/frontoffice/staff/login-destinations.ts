import type { Me } from '../../../shared/contracts/api/auth';
import { backOfficePath } from '../../../shared/contracts/routes';

/** Where a signed-in person may go from a studio's front-office sign-in (issue 25, "Signing in as staff"). */
export type LoginDestination =
  | { kind: 'backoffice'; studioUuid: string; studioName: string; href: string }
  | { kind: 'client'; studioUuid: string; studioName: string };

export type AfterLogin =
  /** Stay in the client zone: navigate to the front-office target. */
  | { kind: 'client' }
  /** Exactly one back office and no client account here: load it. */
  | { kind: 'backoffice'; href: string }
  /** Several places: let the person choose. */
  | { kind: 'choose'; destinations: LoginDestination[] };

/**
 * Decides where a sign-in at `studioUuid`'s front office leads. An explicit `redirectAfterLogin`
 * (e.g. the deletion flow's `profile/delete`) is always honoured; a client who is no staff anywhere
 * stays in the client zone as before. Staff go to their studio's back office, or choose among their
 * back offices (this studio's first) and this studio's client zone when there is more than one.
 */
export function afterLogin(
  me: Pick<Me, 'memberships'>,
  studioUuid: string,
  explicitTarget: boolean,
): AfterLogin {
  if (explicitTarget) return { kind: 'client' };
  const staffIn = me.memberships
    .filter((m) => m.isMember)
    .sort((a, b) => Number(b.studioUuid === studioUuid) - Number(a.studioUuid === studioUuid));
  if (staffIn.length === 0) return { kind: 'client' };
  const here = me.memberships.find((m) => m.studioUuid === studioUuid);
  const destinations: LoginDestination[] = staffIn.map((m) => ({
    kind: 'backoffice',
    studioUuid: m.studioUuid,
    studioName: m.studioName,
    href: backOfficePath(m.studioUuid),
  }));
  if (here?.isClient) destinations.push({ kind: 'client', studioUuid, studioName: here.studioName });
  if (destinations.length === 1 && destinations[0]!.kind === 'backoffice') {
    return { kind: 'backoffice', href: destinations[0]!.href };
  }
  return { kind: 'choose', destinations };
}
