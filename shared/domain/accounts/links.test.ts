import { describe, expect, it } from 'vitest';
import { canActFor, inverseRelationship, relationshipSeenBy, type AccountLink } from './links';

const parent = 'parent-id';
const child = 'child-id';
const friend = 'friend-id';

describe('canActFor', () => {
  const links: AccountLink[] = [
    { ownerId: parent, linkedId: child, relationship: 'child' },
    { ownerId: parent, linkedId: friend, relationship: 'friend' },
  ];
  it.each([
    ['a person acts for themselves', child, child, [], true],
    ['a parent acts for the child they linked', parent, child, links, true],
    ['the child does not act for the parent', child, parent, links, false],
    ['a friend link gives no acting right', parent, friend, links, false],
    ['no link, no acting', friend, child, links, false],
    [
      'another account of my own (self)',
      parent,
      'other-me',
      [{ ownerId: parent, linkedId: 'other-me', relationship: 'self' }],
      true,
    ],
    [
      'a spouse does not act for the spouse',
      parent,
      'spouse',
      [{ ownerId: parent, linkedId: 'spouse', relationship: 'spouse' }],
      false,
    ],
    [
      'a link naming the child as parent gives nothing',
      parent,
      child,
      [{ ownerId: parent, linkedId: child, relationship: 'parent' }],
      false,
    ],
  ] as const)('%s', (_name, actor, target, given, expected) => {
    expect(canActFor(actor, target, given as readonly AccountLink[])).toBe(expected);
  });
});

describe('relationships seen from each side', () => {
  it('inverts parent and child, keeps the symmetric ones', () => {
    expect(inverseRelationship('child')).toBe('parent');
    expect(inverseRelationship('parent')).toBe('child');
    for (const r of ['self', 'spouse', 'sibling', 'friend'] as const) expect(inverseRelationship(r)).toBe(r);
  });
  it('the owner sees the stored relationship, the linked person its inverse', () => {
    const link: AccountLink = { ownerId: parent, linkedId: child, relationship: 'child' };
    expect(relationshipSeenBy(link, parent)).toBe('child');
    expect(relationshipSeenBy(link, child)).toBe('parent');
  });
});
