export const UserSex = {
  male: 0,
  female: 1,
} as const;
export type UserSex = (typeof UserSex)[keyof typeof UserSex];

/** How a linked account (e.g. a parent booking for a child) relates to the account holder. */
export const UserAccountLinkRelationship = {
  self: 'self',
  spouse: 'spouse',
  parent: 'parent',
  child: 'child',
  sibling: 'sibling',
  friend: 'friend',
} as const;
export type UserAccountLinkRelationship =
  (typeof UserAccountLinkRelationship)[keyof typeof UserAccountLinkRelationship];

export const EmailBounceReason = {
  unknown: 'unknown',
  noMailbox: 'noMailbox',
  noDns: 'noDns',
  noConnection: 'noConnection',
  invalidDomain: 'invalidDomain',
  exceededQuota: 'exceededQuota',
} as const;
export type EmailBounceReason = (typeof EmailBounceReason)[keyof typeof EmailBounceReason];
