import { describe, expect, it } from 'vitest';
import { ALL_ABILITIES, DEFAULT_ROLES, type Ability, type DefaultRoleKey } from './abilities';
import {
  holdsAll,
  mayAddMember,
  mayCreateRole,
  mayDeleteRole,
  mayEditMemberProfile,
  mayEditRole,
  mayEditRoles,
  mayRemoveMember,
  maySetMemberRole,
  roleAbilities,
  type RoleShape,
  type StaffActor,
  type StaffDecision,
} from './staff';

const role = (key: DefaultRoleKey): RoleShape => ({
  isOwner: key === 'owner',
  abilities: DEFAULT_ROLES[key],
});
const custom = (...abilities: Ability[]): RoleShape => ({ isOwner: false, abilities });
/** A replica of the owner role: every ability, but not an owner (it does not count as one). */
const coOwner: RoleShape = { isOwner: false, abilities: ALL_ABILITIES };
const actor = (r: RoleShape, userId = 'actor'): StaffActor => ({ userId, abilities: roleAbilities(r) });
const ok: StaffDecision = { ok: true };
const no = (reason: Extract<StaffDecision, { ok: false }>['reason']): StaffDecision => ({
  ok: false,
  reason,
});

describe('roleAbilities', () => {
  it('the owner role grants every ability whatever is stored', () => {
    expect(roleAbilities({ isOwner: true, abilities: [] })).toEqual(new Set(ALL_ABILITIES));
    expect(roleAbilities(custom('clients.view'))).toEqual(new Set(['clients.view']));
  });
  it('holdsAll is a subset test', () => {
    expect(holdsAll(actor(role('front_desk')), ['clients.view', 'sales.sell'])).toBe(true);
    expect(holdsAll(actor(role('front_desk')), ['clients.view', 'sales.refund'])).toBe(false);
    expect(holdsAll(actor(role('instructor')), [])).toBe(true);
  });
});

describe('who may edit roles', () => {
  it.each([
    ['owner', true],
    ['manager', false],
    ['front_desk', false],
    ['instructor', false],
    ['accountant', false],
  ] as const)('%s: %s', (key, expected) => {
    expect(mayEditRoles(actor(role(key)))).toBe(expected);
  });

  it.each<[string, StaffActor, Ability[], StaffDecision]>([
    ['owner creates any role', actor(role('owner')), ALL_ABILITIES as Ability[], ok],
    ['manager may not create roles', actor(role('manager')), ['clients.view'], no('rolesNotAllowed')],
    [
      'a limited role editor may not mint a stronger role',
      actor(custom('staff.roles', 'clients.view')),
      ['clients.view', 'sales.refund'],
      no('aboveActor'),
    ],
    [
      'a limited role editor creates within their abilities',
      actor(custom('staff.roles', 'clients.view')),
      ['clients.view'],
      ok,
    ],
  ])('create: %s', (_name, who, abilities, expected) => {
    expect(mayCreateRole(who, abilities)).toEqual(expected);
  });

  it.each<[string, StaffActor, RoleShape, Ability[] | undefined, StaffDecision]>([
    ['owner edits the manager role', actor(role('owner')), role('manager'), ['clients.view'], ok],
    ['owner renames the owner role', actor(role('owner')), role('owner'), undefined, ok],
    [
      'owner may not take abilities from the owner role',
      actor(role('owner')),
      role('owner'),
      ALL_ABILITIES.filter((a) => a !== 'sales.refund'),
      no('ownerRoleLocked'),
    ],
    ['owner role with every ability is fine', actor(role('owner')), role('owner'), [...ALL_ABILITIES], ok],
    ['manager may not edit roles', actor(role('manager')), role('front_desk'), [], no('rolesNotAllowed')],
    [
      'a member may not raise their own role',
      actor(custom('staff.roles', 'clients.view')),
      custom('staff.roles', 'clients.view'),
      ['staff.roles', 'clients.view', 'clients.export'],
      no('aboveActor'),
    ],
    [
      'a member may trim their own role',
      actor(custom('staff.roles', 'clients.view')),
      custom('staff.roles', 'clients.view'),
      ['staff.roles'],
      ok,
    ],
    [
      'nor edit a role above them, even to lower it',
      actor(custom('staff.roles', 'clients.view')),
      role('manager'),
      ['clients.view'],
      no('aboveActor'),
    ],
    [
      'nor touch the owner role unless they hold everything',
      actor(custom('staff.roles')),
      role('owner'),
      undefined,
      no('aboveActor'),
    ],
  ])('edit: %s', (_name, who, target, next, expected) => {
    expect(mayEditRole(who, target, next)).toEqual(expected);
  });

  it.each<[string, StaffActor, RoleShape, StaffDecision]>([
    ['owner deletes a custom role', actor(role('owner')), custom('clients.view'), ok],
    ['nobody deletes the owner role', actor(role('owner')), role('owner'), no('ownerRoleLocked')],
    ['manager may not delete roles', actor(role('manager')), role('instructor'), no('rolesNotAllowed')],
  ])('delete: %s', (_name, who, target, expected) => {
    expect(mayDeleteRole(who, target)).toEqual(expected);
  });
});

describe('setting a member role (self-raise, last owner)', () => {
  it.each<
    [
      string,
      StaffActor,
      { userId: string; role: RoleShape | null; ownerCount: number },
      RoleShape,
      StaffDecision,
    ]
  >([
    [
      'owner makes a front desk a manager',
      actor(role('owner')),
      { userId: 'b', role: role('front_desk'), ownerCount: 1 },
      role('manager'),
      ok,
    ],
    [
      'owner demotes another owner when two',
      actor(role('owner')),
      { userId: 'b', role: role('owner'), ownerCount: 2 },
      role('manager'),
      ok,
    ],
    [
      'nobody changes their own role, not even an owner',
      actor(role('owner'), 'a'),
      { userId: 'a', role: role('owner'), ownerCount: 2 },
      role('manager'),
      no('ownRole'),
    ],
    [
      'a front desk cannot raise themselves',
      actor(role('front_desk'), 'a'),
      { userId: 'a', role: role('front_desk'), ownerCount: 1 },
      role('manager'),
      no('ownRole'),
    ],
    [
      'a manager cannot make anyone an owner',
      actor(role('manager')),
      { userId: 'b', role: role('instructor'), ownerCount: 1 },
      role('owner'),
      no('aboveActor'),
    ],
    [
      'a manager cannot demote an owner',
      actor(role('manager')),
      { userId: 'b', role: role('owner'), ownerCount: 2 },
      role('instructor'),
      no('aboveActor'),
    ],
    [
      'a manager assigns roles within their abilities',
      actor(role('manager')),
      { userId: 'b', role: role('instructor'), ownerCount: 1 },
      role('front_desk'),
      ok,
    ],
    [
      'a limited role cannot grant more than it holds',
      actor(custom('staff.edit', 'clients.view')),
      { userId: 'b', role: null, ownerCount: 1 },
      role('front_desk'),
      no('aboveActor'),
    ],
    [
      'the last owner cannot be demoted',
      actor(coOwner),
      { userId: 'b', role: role('owner'), ownerCount: 1 },
      role('manager'),
      no('lastOwner'),
    ],
    [
      'the last owner may be "moved" to the owner role',
      actor(coOwner),
      { userId: 'b', role: role('owner'), ownerCount: 1 },
      role('owner'),
      ok,
    ],
  ])('%s', (_name, who, target, next, expected) => {
    expect(maySetMemberRole(who, target, next)).toEqual(expected);
  });

  it.each<[string, StaffActor, RoleShape, StaffDecision]>([
    ['owner adds an owner', actor(role('owner')), role('owner'), ok],
    ['manager adds a front desk', actor(role('manager')), role('front_desk'), ok],
    ['manager may not add an owner', actor(role('manager')), role('owner'), no('aboveActor')],
  ])('add: %s', (_name, who, r, expected) => {
    expect(mayAddMember(who, r)).toEqual(expected);
  });
});

describe('removing a member and editing their profile', () => {
  it.each<
    [string, StaffActor, { userId: string; role: RoleShape | null; ownerCount: number }, StaffDecision]
  >([
    [
      'owner removes an instructor',
      actor(role('owner')),
      { userId: 'b', role: role('instructor'), ownerCount: 1 },
      ok,
    ],
    [
      'owner removes another owner when two',
      actor(role('owner')),
      { userId: 'b', role: role('owner'), ownerCount: 2 },
      ok,
    ],
    [
      'the last owner cannot remove themselves',
      actor(role('owner'), 'a'),
      { userId: 'a', role: role('owner'), ownerCount: 1 },
      no('lastOwner'),
    ],
    [
      'an owner may leave when another owner stays',
      actor(role('owner'), 'a'),
      { userId: 'a', role: role('owner'), ownerCount: 2 },
      ok,
    ],
    [
      'nobody removes the last owner',
      actor(coOwner),
      { userId: 'b', role: role('owner'), ownerCount: 1 },
      no('lastOwner'),
    ],
    [
      'a manager cannot remove an owner',
      actor(role('manager')),
      { userId: 'b', role: role('owner'), ownerCount: 3 },
      no('aboveActor'),
    ],
    [
      'a manager may leave',
      actor(role('manager'), 'a'),
      { userId: 'a', role: role('manager'), ownerCount: 1 },
      ok,
    ],
  ])('remove: %s', (_name, who, target, expected) => {
    expect(mayRemoveMember(who, target)).toEqual(expected);
  });

  it.each<[string, StaffActor, { userId: string; role: RoleShape | null }, StaffDecision]>([
    ['own profile', actor(role('instructor'), 'a'), { userId: 'a', role: role('instructor') }, ok],
    ['a colleague below', actor(role('manager')), { userId: 'b', role: role('front_desk') }, ok],
    [
      'an owner, as a manager',
      actor(role('manager')),
      { userId: 'b', role: role('owner') },
      no('aboveActor'),
    ],
  ])('profile: %s', (_name, who, target, expected) => {
    expect(mayEditMemberProfile(who, target)).toEqual(expected);
  });
});
