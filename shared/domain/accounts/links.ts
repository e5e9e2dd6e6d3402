import { UserAccountLinkRelationship } from '../../enums/users';

/**
 * Linked accounts (spec §3 "user account link relationship"). A link is directed: its owner linked
 * the other account and says what that person is to them (`child`: the linked person is the owner's
 * child). Seen from the linked side the relationship reads inverted (a child sees a `parent`).
 */
export const LINK_RELATIONSHIPS = Object.values(UserAccountLinkRelationship);

export interface AccountLink {
  ownerId: string;
  linkedId: string;
  relationship: UserAccountLinkRelationship;
}

const INVERSE: Record<UserAccountLinkRelationship, UserAccountLinkRelationship> = {
  self: 'self',
  spouse: 'spouse',
  parent: 'child',
  child: 'parent',
  sibling: 'sibling',
  friend: 'friend',
};

/** What the owner is to the linked person. */
export function inverseRelationship(r: UserAccountLinkRelationship): UserAccountLinkRelationship {
  return INVERSE[r];
}

/** Relationships through which the owner may act for the linked account (read, book). */
const ACTING_RELATIONSHIPS: ReadonlySet<UserAccountLinkRelationship> = new Set(['child', 'self']);

/**
 * Whether `actorId` may act for `targetId` (read their profile, book for them): always for
 * themselves; for someone else only through a link the actor owns that names the target as their
 * child or as another account of their own (`self`). The child does not get to act for the parent,
 * nor spouses, siblings or friends for each other: those links are for showing, not acting.
 */
export function canActFor(actorId: string, targetId: string, links: readonly AccountLink[]): boolean {
  if (actorId === targetId) return true;
  return links.some(
    (l) => l.ownerId === actorId && l.linkedId === targetId && ACTING_RELATIONSHIPS.has(l.relationship),
  );
}

/** A link's relationship from the point of view of `viewerId` (one of its two sides). */
export function relationshipSeenBy(link: AccountLink, viewerId: string): UserAccountLinkRelationship {
  return link.ownerId === viewerId ? link.relationship : inverseRelationship(link.relationship);
}
