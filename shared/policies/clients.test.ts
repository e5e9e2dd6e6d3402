import { describe, expect, it } from 'vitest';
import { TagType } from '../enums/clients';
import { defaultAbilitiesOf } from './abilities';
import { allowedBulkActions, bulkActionAbility, clientScreenAbilities, tagAbility } from './clients';

describe('bulk actions on clients', () => {
  it.each([
    ['tag', 'clients.edit'],
    ['untag', 'clients.edit'],
    ['message', 'clients.message'],
    ['export', 'clients.export'],
  ] as const)('%s needs %s', (action, ability) => {
    expect(bulkActionAbility(action)).toBe(ability);
  });

  it.each([
    ['owner', ['tag', 'untag', 'message', 'export']],
    ['manager', ['tag', 'untag', 'message', 'export']],
    ['front_desk', ['tag', 'untag', 'message']],
    ['instructor', []],
    ['accountant', []],
    ['unknown-role', []],
  ] as const)('%s may %j', (role, actions) => {
    expect(allowedBulkActions(defaultAbilitiesOf(role))).toEqual(actions);
  });
});

describe('tags', () => {
  it.each([
    [TagType.client, 'view', 'clients.view'],
    [TagType.client, 'edit', 'clients.edit'],
    [TagType.member, 'view', 'staff.view'],
    [TagType.member, 'edit', 'staff.edit'],
  ] as const)('type %s, %s needs %s', (type, action, ability) => {
    expect(tagAbility(type, action)).toBe(ability);
  });
});

describe('client screen switches', () => {
  it.each([
    ['owner', { canEdit: true, canDelete: true, canExport: true, canDecryptFields: true }],
    ['front_desk', { canEdit: true, canDelete: false, canExport: false, canMessage: true }],
    ['instructor', { canView: true, canEdit: false, canDelete: false, canExport: false }],
    ['accountant', { canView: true, canEdit: false, canExport: false }],
  ] as const)('%s', (role, expected) => {
    expect(clientScreenAbilities(defaultAbilitiesOf(role))).toMatchObject(expected);
  });
});
