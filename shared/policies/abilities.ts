/**
 * What staff may do, as named abilities per area of the back office. The spec names no roles; these
 * defaults ship as editable roles of every studio (the people module stores them per studio).
 */
export const ABILITY_AREAS = {
  clients: ['view', 'edit', 'delete', 'export', 'documents', 'decryptFields', 'message'],
  schedule: ['view', 'edit', 'book', 'checkIn', 'overrideRules'],
  sales: ['view', 'sell', 'refund', 'discount', 'invoices'],
  reports: ['view', 'export'],
  settings: ['view', 'edit'],
  campaigns: ['view', 'edit', 'send'],
  staff: ['view', 'edit', 'roles'],
} as const;

export type AbilityArea = keyof typeof ABILITY_AREAS;
export type Ability = { [A in AbilityArea]: `${A}.${(typeof ABILITY_AREAS)[A][number]}` }[AbilityArea];

export const ALL_ABILITIES: readonly Ability[] = (Object.keys(ABILITY_AREAS) as AbilityArea[]).flatMap(
  (area) => ABILITY_AREAS[area].map((action) => `${area}.${action}` as Ability),
);

export function isAbility(value: unknown): value is Ability {
  return typeof value === 'string' && (ALL_ABILITIES as readonly string[]).includes(value);
}

const area = (name: AbilityArea, ...only: string[]): Ability[] =>
  ALL_ABILITIES.filter(
    (a) => a.startsWith(`${name}.`) && (only.length === 0 || only.includes(a.split('.')[1]!)),
  );

export const DEFAULT_ROLE_KEYS = ['owner', 'manager', 'front_desk', 'instructor', 'accountant'] as const;
export type DefaultRoleKey = (typeof DEFAULT_ROLE_KEYS)[number];

/** The roles every studio starts with. Owners hold every ability, always. */
export const DEFAULT_ROLES: Record<DefaultRoleKey, readonly Ability[]> = {
  owner: ALL_ABILITIES,
  manager: ALL_ABILITIES.filter((a) => a !== 'staff.roles'),
  front_desk: [
    ...area('clients', 'view', 'edit', 'message'),
    ...area('schedule', 'view', 'book', 'checkIn'),
    ...area('sales', 'view', 'sell'),
  ],
  instructor: [...area('clients', 'view'), ...area('schedule', 'view', 'checkIn')],
  accountant: [
    ...area('clients', 'view'),
    ...area('sales', 'view', 'refund', 'invoices'),
    ...area('reports'),
  ],
};

/** The abilities of a role key; an unknown key (a custom role not resolved yet) has none. */
export function defaultAbilitiesOf(role: string | null | undefined): ReadonlySet<Ability> {
  return new Set(role && role in DEFAULT_ROLES ? DEFAULT_ROLES[role as DefaultRoleKey] : []);
}

export function can(abilities: ReadonlySet<Ability>, ability: Ability): boolean {
  return abilities.has(ability);
}
