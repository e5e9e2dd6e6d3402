import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';

/**
 * Studio IAM roles: each studio's editable roles (abilities per area), and the membership's role.
 * Every existing studio gets the five default roles and its staff are mapped by their role key.
 * Studios created later get theirs lazily (ensureDefaultRoles in the staff module).
 *
 * The default abilities are frozen here as they were when this migration shipped: later changes to
 * the defaults in shared/policies/abilities.ts apply to studios created afterwards, not to this backfill.
 */
const AREAS = {
  clients: ['view', 'edit', 'delete', 'export', 'documents', 'decryptFields', 'message'],
  schedule: ['view', 'edit', 'book', 'checkIn', 'overrideRules'],
  sales: ['view', 'sell', 'refund', 'discount', 'invoices'],
  reports: ['view', 'export'],
  settings: ['view', 'edit'],
  campaigns: ['view', 'edit', 'send'],
  staff: ['view', 'edit', 'roles'],
} as const;
const ALL = Object.entries(AREAS).flatMap(([area, actions]) => actions.map((a) => `${area}.${a}`));
const pick = (...names: string[]) => ALL.filter((a) => names.includes(a));
const DEFAULTS: ReadonlyArray<readonly [key: string, abilities: string[], isOwner: boolean]> = [
  ['owner', ALL, true],
  ['manager', ALL.filter((a) => a !== 'staff.roles'), false],
  [
    'front_desk',
    pick(
      'clients.view',
      'clients.edit',
      'clients.message',
      'schedule.view',
      'schedule.book',
      'schedule.checkIn',
      'sales.view',
      'sales.sell',
    ),
    false,
  ],
  ['instructor', pick('clients.view', 'schedule.view', 'schedule.checkIn'), false],
  [
    'accountant',
    pick('clients.view', 'sales.view', 'sales.refund', 'sales.invoices', 'reports.view', 'reports.export'),
    false,
  ],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_iam_roles', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    /** The default role a row started as; null for roles the studio created or replicated. */
    t.string('key', 40).nullable();
    /** The studio's own name; null for a default role never renamed (shown translated by key). */
    t.string('name', 100).nullable();
    t.jsonb('abilities').notNullable().defaultTo('[]');
    t.boolean('is_owner').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Nulls are distinct: any number of custom roles, at most one row per default key.
    t.unique(['studio_id', 'key']);
  });
  await knex.raw(
    'alter table studio_iam_roles add constraint studio_iam_roles_named check (key is not null or name is not null)',
  );
  await knex.raw(
    'create unique index studio_iam_roles_one_owner on studio_iam_roles (studio_id) where is_owner',
  );

  await knex.schema.alterTable('memberships', (t) => {
    t.uuid('iam_role_id').nullable().references('studio_iam_roles.id').onDelete('SET NULL');
    t.index(['studio_id', 'iam_role_id']);
  });

  // Backfill, a page of studios at a time.
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const studios = (await knex('studios').where('id', '>', after).orderBy('id').limit(500).select('id')) as {
      id: string;
    }[];
    if (studios.length === 0) break;
    const rows = studios.flatMap(({ id }) =>
      DEFAULTS.map(([key, abilities, isOwner]) => ({
        id: uuidv7(),
        studio_id: id,
        key,
        name: null,
        abilities: JSON.stringify(abilities),
        is_owner: isOwner,
      })),
    );
    await knex.batchInsert('studio_iam_roles', rows, 500);
    after = studios[studios.length - 1]!.id;
  }
  await knex.raw(`
    update memberships m set iam_role_id = r.id
    from studio_iam_roles r
    where r.studio_id = m.studio_id and r.key = m.role and m.is_member and m.iam_role_id is null
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('memberships', (t) => {
    t.dropIndex(['studio_id', 'iam_role_id']);
    t.dropForeign(['iam_role_id']);
    t.dropColumn('iam_role_id');
  });
  await knex.schema.dropTableIfExists('studio_iam_roles');
}
