import { prepared, type Db, type Knex } from '../../db/knex';
import type { MembershipsRow, SessionsRow, StudiosRow, UsersRow } from '../../db/generated/tables';

/**
 * The identity tables' rows as the code names them (the generated types of `db/generated/tables.ts`;
 * the Objection models they replace are gone, see cloud/README.md "Objection models: removed").
 */
export type User = UsersRow;
/** A user's place in a studio: a client, a member of staff with a role (`iamRoleId`), or both. */
export type Membership = MembershipsRow;
/** A server-side session: expiring and revocable. Only a hash of the secret session id is stored. */
export type Session = SessionsRow;

export interface StudioAppearance {
  defaultLogo?: { absoluteUrl: string } | null;
  primaryColor?: string;
}

/** A studio row with its jsonb columns read as the code writes them. */
export type Studio = Omit<StudiosRow, 'appearance' | 'settings'> & {
  appearance: StudioAppearance;
  settings: Record<string, unknown>;
};

/** The studio row's jsonb columns as objects (absent or malformed: empty). */
export function asStudio(row: StudiosRow): Studio {
  const object = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...row, appearance: object(row.appearance) as StudioAppearance, settings: object(row.settings) };
}

/** The studio with this id, or undefined. */
export async function findStudio(db: Db, id: string): Promise<Studio | undefined> {
  const row = await db('studios').where({ id }).first();
  return row ? asStudio(row) : undefined;
}

/** Every column of a membership, for reading one joined to another table under prefixed names. */
const MEMBERSHIP_COLUMNS = [
  'id',
  'studioId',
  'userId',
  'isClient',
  'isMember',
  'role',
  'archivedAt',
  'createdAt',
  'updatedAt',
  'iamRoleId',
] as const satisfies ReadonlyArray<keyof MembershipsRow>;
// A column added to memberships must be added above (the compiler says so here).
const membershipColumnsComplete: Exclude<
  keyof MembershipsRow,
  (typeof MEMBERSHIP_COLUMNS)[number]
> extends never
  ? true
  : false = true;
void membershipColumnsComplete;

/**
 * The studio with this id and the user's live membership in it, in one statement (every studio-scoped
 * request reads both): undefined when there is no such studio; `membership` undefined when the user
 * has no live one there.
 */
export async function findStudioWithMembership(
  db: Db,
  id: string,
  userId: string,
): Promise<{ studio: Studio; membership: Membership | undefined } | undefined> {
  const caller = db.queryBuilder().from(db.raw('(values (?::uuid)) as caller (user_id)', [userId]));
  const row = (await prepared(studioScopeJoin(caller, id, 'caller.user_id')).first()) as
    Record<string, unknown> | undefined;
  return row ? studioScopeOf(row) : undefined;
}

/** Every column of a studio, for reading one joined to other tables under prefixed names. */
const STUDIO_COLUMNS = [
  'id',
  'name',
  'slug',
  'currency',
  'defaultLocale',
  'timeZone',
  'studioType',
  'addressLine',
  'postalCode',
  'city',
  'country',
  'kioskKey',
  'logoUrl',
  'appearance',
  'settings',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof StudiosRow>;
// A column added to studios must be added above (the compiler says so here).
const studioColumnsComplete: Exclude<keyof StudiosRow, (typeof STUDIO_COLUMNS)[number]> extends never
  ? true
  : false = true;
void studioColumnsComplete;

/** What `findStudioWithMembership` answers, read with another statement (`studioScopeJoin`). */
export type StudioWithMembership = { studio: Studio; membership: Membership | undefined } | undefined;

const studioKey = (c: string) => `scopeStudio${c[0]!.toUpperCase()}${c.slice(1)}`;
const scopeMembershipKey = (c: string) => `scopeMembership${c[0]!.toUpperCase()}${c.slice(1)}`;

/**
 * Adds the studio `studioId` and `userId`'s live membership in it to a query (left joins, prefixed
 * columns), so a statement that reads something else reads them too: the session read of a request
 * to a studio's route (`findLiveSession`). `studioScopeOf` takes them back out of the row.
 */
export function studioScopeJoin(query: Knex.QueryBuilder, studioId: string, userIdColumn: string) {
  return query
    .leftJoin('studios as scope_s', (join) => join.onVal('scope_s.id', studioId))
    .leftJoin('memberships as scope_m', (join) =>
      join
        .on('scope_m.studioId', 'scope_s.id')
        .andOn('scope_m.userId', userIdColumn)
        .andOnNull('scope_m.archivedAt'),
    )
    .select(
      ...STUDIO_COLUMNS.map((c) => `scope_s.${c} as scope_studio_${c}`),
      ...MEMBERSHIP_COLUMNS.map((c) => `scope_m.${c} as scope_membership_${c}`),
    );
}

/** Each studio and membership column with the key `studioScopeJoin` reads it under (camelCase). */
const STUDIO_KEYS = STUDIO_COLUMNS.map((c) => [c, studioKey(c)] as const);
const MEMBERSHIP_KEYS = MEMBERSHIP_COLUMNS.map((c) => [c, scopeMembershipKey(c)] as const);
/** The keys `studioScopeJoin` adds to a row. */
export const STUDIO_SCOPE_KEYS: ReadonlySet<string> = new Set([
  ...STUDIO_KEYS.map(([, k]) => k),
  ...MEMBERSHIP_KEYS.map(([, k]) => k),
]);

/** The studio and membership `studioScopeJoin` read (the row is left as it is). */
export function studioScopeOf(row: Record<string, unknown>): StudioWithMembership {
  if (!row[STUDIO_KEYS[0]![1]]) return undefined;
  const studio: Record<string, unknown> = {};
  for (const [c, k] of STUDIO_KEYS) studio[c] = row[k];
  const membership: Record<string, unknown> = {};
  for (const [c, k] of MEMBERSHIP_KEYS) membership[c] = row[k];
  return {
    studio: asStudio(studio as unknown as StudiosRow),
    membership: membership.id ? (membership as unknown as Membership) : undefined,
  };
}

/** The user with this id, or undefined. */
export async function findUser(db: Db, id: string): Promise<User | undefined> {
  return await db('users').where({ id }).first();
}

/** The live (not archived) membership of a user in a studio, or undefined. */
export async function findLiveMembership(
  db: Db,
  studioId: string,
  userId: string,
): Promise<Membership | undefined> {
  return await db('memberships').where({ studioId, userId }).whereNull('archivedAt').first();
}
