import { describe, expect, it } from 'vitest';
import { ALL_ABILITIES, can, DEFAULT_ROLES, defaultAbilitiesOf, isAbility } from './abilities';

describe('default roles', () => {
  it.each([
    ['owner', 'staff.roles', true],
    ['owner', 'sales.refund', true],
    ['manager', 'staff.roles', false],
    ['manager', 'staff.edit', true],
    ['front_desk', 'schedule.checkIn', true],
    ['front_desk', 'sales.sell', true],
    ['front_desk', 'sales.refund', false],
    ['front_desk', 'clients.export', false],
    ['front_desk', 'settings.edit', false],
    ['instructor', 'schedule.checkIn', true],
    ['instructor', 'clients.edit', false],
    ['instructor', 'sales.view', false],
    ['accountant', 'sales.invoices', true],
    ['accountant', 'reports.export', true],
    ['accountant', 'schedule.book', false],
    ['stranger', 'clients.view', false],
    [null, 'clients.view', false],
  ] as const)('%s may %s: %s', (role, ability, expected) => {
    expect(can(defaultAbilitiesOf(role), ability)).toBe(expected);
  });

  it('every default role names only real abilities, and the owner holds them all', () => {
    for (const abilities of Object.values(DEFAULT_ROLES))
      for (const a of abilities) expect(isAbility(a)).toBe(true);
    expect(new Set(DEFAULT_ROLES.owner)).toEqual(new Set(ALL_ABILITIES));
    expect(isAbility('clients.fly')).toBe(false);
  });
});
