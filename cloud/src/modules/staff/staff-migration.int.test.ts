import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DEFAULT_ROLES, type DefaultRoleKey } from '../../../../shared/policies/abilities';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded';
import { createKnex, type Knex } from '../../db/knex';
import { migrateLatest } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';

/**
 * The roles migration on a database that already has studios and staff: a database of this file's
 * own (a fresh PGlite, or a fresh PostgreSQL database), migrated to just before the roles, filled,
 * then migrated to the latest.
 */
const ROLES_MIGRATION = '20261122_0006_staff_roles';
let knex: Knex;
let embedded: EmbeddedDatabase | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let url: string;
  if (inject('embeddedDatabase')) {
    embedded = await startEmbeddedDatabase('memory://');
    url = embedded.url;
  } else {
    const shared = inject('databaseUrl');
    const name = `staff_mig_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: shared });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(shared);
    u.pathname = `/${name}`;
    url = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: shared });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  knex = createKnex(url, { singleConnection: Boolean(embedded) });
  const before = MIGRATIONS.filter(([name]) => name < ROLES_MIGRATION);
  await knex.migrate.latest({
    migrationSource: {
      getMigrations: async () => before.map(([name]) => name),
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => before.find(([n]) => n === name)![1],
    },
  });
});

afterAll(async () => {
  await knex?.destroy();
  await embedded?.stop();
  await dropDatabase?.();
});

describe('migration 0006 (studio IAM roles)', () => {
  it('gives every existing studio the default roles and maps its staff by role key', async () => {
    const studios = [uuidv7(), uuidv7()];
    for (const [i, id] of studios.entries())
      await knex('studios').insert({ id, name: `S${i}`, slug: `s-${id}`, kioskKey: 'k' });
    const memberships: Array<{ studio: string; role: string | null; isMember: boolean }> = [
      { studio: studios[0]!, role: 'owner', isMember: true },
      { studio: studios[0]!, role: 'front_desk', isMember: true },
      { studio: studios[0]!, role: null, isMember: false },
      { studio: studios[1]!, role: 'instructor', isMember: true },
      { studio: studios[1]!, role: 'something_else', isMember: true },
    ];
    const ids: string[] = [];
    for (const m of memberships) {
      const userId = uuidv7();
      await knex('users').insert({ id: userId, email: `${userId}@example.com` });
      const id = uuidv7();
      ids.push(id);
      await knex('memberships').insert({
        id,
        studioId: m.studio,
        userId,
        isMember: m.isMember,
        isClient: !m.isMember,
        role: m.role,
      });
    }

    await migrateLatest(knex);

    for (const studio of studios) {
      const roles = (await knex('studio_iam_roles').where({ studioId: studio })) as Array<{
        key: DefaultRoleKey;
        name: string | null;
        abilities: string[];
        isOwner: boolean;
      }>;
      expect(roles.map((r) => r.key).sort()).toEqual([
        'accountant',
        'front_desk',
        'instructor',
        'manager',
        'owner',
      ]);
      for (const role of roles) {
        expect(role.name).toBeNull();
        expect(role.isOwner).toBe(role.key === 'owner');
        expect(new Set(role.abilities)).toEqual(new Set(DEFAULT_ROLES[role.key]));
      }
    }
    const mapped = (await knex('memberships as m')
      .leftJoin('studio_iam_roles as r', 'r.id', 'm.iam_role_id')
      .whereIn('m.id', ids)
      .select('m.id', 'm.studio_id', 'r.key', 'r.studio_id as role_studio_id')) as Array<{
      id: string;
      studioId: string;
      key: string | null;
      roleStudioId: string | null;
    }>;
    const byId = new Map(mapped.map((m) => [m.id, m]));
    expect(ids.map((id) => byId.get(id)!.key)).toEqual(['owner', 'front_desk', null, 'instructor', null]);
    for (const m of mapped) if (m.key) expect(m.roleStudioId).toBe(m.studioId);
  });

  it('keeps one owner role per studio and a name or key on every role', async () => {
    const [studio] = (await knex('studios').select('id').limit(1)) as { id: string }[];
    await expect(
      knex('studio_iam_roles').insert({
        id: uuidv7(),
        studioId: studio!.id,
        name: 'Second owner',
        isOwner: true,
      }),
    ).rejects.toThrow(/unique/i);
    await expect(knex('studio_iam_roles').insert({ id: uuidv7(), studioId: studio!.id })).rejects.toThrow(
      /check/i,
    );
  });
});
