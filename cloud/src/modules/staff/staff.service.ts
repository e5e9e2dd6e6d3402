import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import {
  MEMBER_PAGE_SIZE,
  type AddMemberInput,
  type UpdateMemberInput,
} from '../../../../shared/contracts/api/staff';
import { AppError } from '../../../../shared/errors';
import { isLocale } from '../../../../shared/i18n/locales';
import {
  ALL_ABILITIES,
  DEFAULT_ROLE_KEYS,
  DEFAULT_ROLES,
  type Ability,
} from '../../../../shared/policies/abilities';
import {
  mayAddMember,
  mayCreateRole,
  mayDeleteRole,
  mayEditMemberProfile,
  mayEditRole,
  mayRemoveMember,
  maySetMemberRole,
  roleAbilities,
  type RoleShape,
  type StaffActor,
  type StaffDecision,
  type StaffRefusal,
} from '../../../../shared/policies/staff';
import { backOfficePath, resetPasswordPath } from '../../../../shared/contracts/routes';
import type { Clock } from '../../clock';
import type { MailMessage } from '../../mail/mailer';
import { WELCOME_TOKEN_TTL_HOURS } from '../identity/index';
import type { Db } from '../../db/knex';
import type {
  MembershipsRow,
  MembershipsUpdate,
  StudioIamRolesRow,
  StudioIamRolesUpdate,
  UsersRow,
  UsersUpdate,
} from '../../db/generated/tables';
import { resolveRole } from '../../http/abilities';
import { tFor } from '../../i18n';
import { findLiveMembership, type Membership, type Studio, type User } from '../identity/index';
import { findUserByEmail } from '../identity/index';
import { claimUnverifiedAccount } from '../identity/index';
import { asRole, type StudioIamRole } from './iam-role';
import { readAll } from '../../db/read-all';

// ---------------------------------------------------------------------------------------------------
// Default roles

const inTransaction = <T>(db: Db, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
  (db as Knex.Transaction).isTransaction ? work(db as Knex.Transaction) : db.transaction(work);

/**
 * Gives a studio its five default roles and maps its staff to them by role key, once. Studios that
 * existed when roles arrived were backfilled by the migration; studios created since (sign-up, the
 * demo seed, tests) get theirs here, the first time anything needs roles. Idempotent and safe to run
 * concurrently: a unique key per studio (and one owner role per studio) make a second insert a no-op.
 * Costs one cheap query when there is nothing to do.
 */
export async function ensureDefaultRoles(db: Db, studioId: string): Promise<void> {
  // Raw columns: their type named here.
  const state: { seeded: boolean; unmapped: boolean } | undefined = await db
    .select(
      db.raw('exists(select 1 from studio_iam_roles where studio_id = ? and is_owner) as seeded', [studioId]),
      db.raw(
        `exists(select 1 from memberships m join studio_iam_roles r on r.studio_id = m.studio_id and r.key = m.role
          where m.studio_id = ? and m.is_member and m.iam_role_id is null) as unmapped`,
        [studioId],
      ),
    )
    .first();
  if (state?.seeded && !state.unmapped) return;
  await inTransaction(db, async (trx) => {
    if (!state?.seeded) {
      // The owner role's existence marks a seeded studio: it can never be deleted, while the other
      // defaults can (and must not come back).
      await trx('studio_iam_roles')
        .insert(
          DEFAULT_ROLE_KEYS.map((key) => ({
            id: uuidv7(),
            studioId,
            key,
            name: null,
            abilities: JSON.stringify(DEFAULT_ROLES[key]),
            isOwner: key === 'owner',
          })),
        )
        .onConflict()
        .ignore();
    }
    await trx.raw(
      `update memberships m set iam_role_id = r.id
        from studio_iam_roles r
        where m.studio_id = ? and r.studio_id = m.studio_id and r.key = m.role
          and m.is_member and m.iam_role_id is null`,
      [studioId],
    );
  });
}

/**
 * Serialises every change of staff standing in a studio: the owner role row is locked for the rest of
 * the transaction, so two concurrent demotions see each other's result (the owner count is read after
 * the lock). Needs ensureDefaultRoles first.
 */
async function lockStaffChanges(trx: Db, studioId: string): Promise<void> {
  await trx('studio_iam_roles').where({ studioId, isOwner: true }).forUpdate().select('id');
}

/**
 * The actor as they stand now, read again after lockStaffChanges: a request that waited for the lock
 * behind one that changed the actor's own role acts with the role they have now, not the one they
 * had when the request began.
 */
async function actorUnderLock(trx: Db, studioId: string, actor: StaffActor): Promise<StaffActor> {
  const membership = await findLiveMembership(trx, studioId, actor.userId);
  if (!membership?.isMember) throw REFUSALS.rolesNotAllowed();
  return { userId: actor.userId, abilities: (await resolveRole(trx, membership)).abilities };
}

async function countOwners(db: Db, studioId: string): Promise<number> {
  const row = await db('memberships as m')
    .join('studio_iam_roles as r', 'r.id', 'm.iam_role_id')
    .where('m.studio_id', studioId)
    .andWhere('m.is_member', true)
    .whereNull('m.archived_at')
    .andWhere('r.is_owner', true)
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Actors and refusals

export async function actorOf(db: Db, membership: Membership): Promise<StaffActor> {
  return { userId: membership.userId, abilities: (await resolveRole(db, membership)).abilities };
}

const REFUSALS: Record<StaffRefusal, () => AppError> = {
  ownRole: () => new AppError('auth.forbidden', { message: 'you cannot change your own role' }),
  aboveActor: () =>
    new AppError('auth.forbidden', {
      message: 'you have no permission to perform this action: it needs abilities you do not have',
    }),
  rolesNotAllowed: () =>
    new AppError('auth.forbidden', { message: 'you have no permission to perform this action' }),
  lastOwner: () =>
    new AppError('staff.lastOwner', {
      message: 'the studio must keep at least one owner: make someone else an owner first',
    }),
  ownerRoleLocked: () =>
    new AppError('staff.ownerRoleLocked', {
      message: 'the owner role always holds every ability and cannot be deleted',
    }),
};

function enforce(decision: StaffDecision): void {
  if (!decision.ok) throw REFUSALS[decision.reason]();
}

// ---------------------------------------------------------------------------------------------------
// Roles

export interface RoleWithCount {
  role: StudioIamRole;
  memberCount: number;
}

const roleOrder = (role: StudioIamRole): number =>
  role.key ? DEFAULT_ROLE_KEYS.indexOf(role.key) : DEFAULT_ROLE_KEYS.length;

/** The studio's roles: defaults in their usual order, then the studio's own, oldest first. */
export async function listRoles(db: Db, studioId: string): Promise<RoleWithCount[]> {
  await ensureDefaultRoles(db, studioId);
  const [roles, counts] = await readAll(db, [
    async () =>
      (await db('studio_iam_roles').where({ studioId }).orderBy('createdAt').orderBy('id')).map(asRole),
    () => memberCounts(db, studioId),
  ]);
  return roles
    .sort((a, b) => roleOrder(a) - roleOrder(b))
    .map((role) => ({ role, memberCount: counts.get(role.id) ?? 0 }));
}

async function memberCounts(db: Db, studioId: string, roleId?: string): Promise<Map<string, number>> {
  const rows: Array<{ iamRoleId: string; n: number }> = await db('memberships')
    .where({ studioId, isMember: true })
    .whereNull('archivedAt')
    .whereNotNull('iamRoleId')
    .modify((q) => {
      if (roleId) q.andWhere({ iamRoleId: roleId });
    })
    .groupBy('iamRoleId')
    .select('iamRoleId')
    .count({ n: '*' });
  return new Map(rows.map((r) => [r.iamRoleId, Number(r.n)]));
}

async function withCount(db: Db, role: StudioIamRole): Promise<RoleWithCount> {
  const counts = await memberCounts(db, role.studioId, role.id);
  return { role, memberCount: counts.get(role.id) ?? 0 };
}

/** A role of this studio, or 404 (another studio's role is as unknown as a missing one). */
export async function findRole(
  db: Db,
  studioId: string,
  roleId: string,
  lock: 'update' | 'share' | null = null,
): Promise<StudioIamRole> {
  await ensureDefaultRoles(db, studioId);
  const query = db('studio_iam_roles').where({ studioId, id: roleId }).first();
  if (lock === 'update') query.forUpdate();
  if (lock === 'share') query.forShare();
  const row = await query;
  if (!row) throw AppError.notFound('role');
  return asRole(row);
}

/** A role named in a request body: unknown is a field error of that form, not a missing page. */
async function findRoleField(
  db: Db,
  studioId: string,
  roleId: string,
  field: string,
): Promise<StudioIamRole> {
  try {
    return await findRole(db, studioId, roleId, 'share');
  } catch (err) {
    if (err instanceof AppError && err.key === 'resource.notFound')
      throw AppError.invalid({ [field]: ['unknown role'] });
    throw err;
  }
}

const storedAbilities = (abilities: Iterable<Ability>): Ability[] => {
  const set = new Set(abilities);
  return ALL_ABILITIES.filter((a) => set.has(a));
};

export async function createRole(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  input: { name: string; abilities: Ability[] },
): Promise<RoleWithCount> {
  enforce(mayCreateRole(actor, input.abilities));
  await ensureDefaultRoles(trx, studioId);
  const role = await insertRole(trx, studioId, input.name, storedAbilities(input.abilities));
  return { role, memberCount: 0 };
}

export async function updateRole(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  roleId: string,
  input: { name?: string | undefined; abilities?: Ability[] | undefined },
): Promise<RoleWithCount> {
  const role = await findRole(trx, studioId, roleId, 'update');
  enforce(mayEditRole(actor, role, input.abilities));
  const patch: StudioIamRolesUpdate = { updatedAt: new Date() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.abilities !== undefined)
    patch.abilities = JSON.stringify(role.isOwner ? [...ALL_ABILITIES] : storedAbilities(input.abilities));
  const [updated] = await trx('studio_iam_roles').update(patch).where({ id: role.id }).returning('*');
  return withCount(trx, asRole(updated!));
}

export async function deleteRole(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  roleId: string,
): Promise<void> {
  const role = await findRole(trx, studioId, roleId, 'update');
  enforce(mayDeleteRole(actor, role));
  const { memberCount } = await withCount(trx, role);
  if (memberCount > 0)
    throw new AppError('staff.roleInUse', {
      message: `the role is still held by ${memberCount} member(s) of staff: give them another role first`,
    });
  // Archived memberships that once held it keep no role (the foreign key sets theirs to null).
  await trx('studio_iam_roles').delete().where({ id: role.id });
}

/** The name of a role as the studio reads it: its own, else its default key's in the studio's language. */
function roleDisplayName(role: StudioIamRole, locale: string): string {
  if (role.name) return role.name;
  const t = tFor(isLocale(locale) ? locale : 'en');
  return t(`backoffice:staff.roleKeys.${role.key ?? 'custom'}`);
}

export async function replicateRole(
  trx: Db,
  studio: Studio,
  actor: StaffActor,
  roleId: string,
  name: string | undefined,
): Promise<RoleWithCount> {
  const source = await findRole(trx, studio.id, roleId, 'share');
  const abilities = [...roleAbilities(source)];
  enforce(mayCreateRole(actor, abilities));
  const locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
  const copyName =
    name ??
    tFor(locale)('backoffice:staff.roles.copyName', { name: roleDisplayName(source, locale) }).slice(0, 100);
  // A replica is an ordinary role: it may hold every ability, but only the owner role makes owners.
  const role = await insertRole(trx, studio.id, copyName, storedAbilities(abilities));
  return { role, memberCount: 0 };
}

/** A studio's own role (no default key, never the owner role). */
async function insertRole(
  trx: Db,
  studioId: string,
  name: string,
  abilities: Ability[],
): Promise<StudioIamRole> {
  const [row] = await trx('studio_iam_roles')
    .insert({ id: uuidv7(), studioId, key: null, name, abilities: JSON.stringify(abilities), isOwner: false })
    .returning('*');
  return asRole(row!);
}

// ---------------------------------------------------------------------------------------------------
// Members

/**
 * A member of staff as the staff screens need them: membership, user and role in one row, as
 * `staffQuery` selects them (aliased tables: the columns' types are named here, from the tables').
 */
export type StaffRow = Pick<MembershipsRow, 'userId' | 'isClient'> &
  Pick<UsersRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'locale'> & {
    membershipId: MembershipsRow['id'];
    since: MembershipsRow['createdAt'];
    roleId: StudioIamRolesRow['id'] | null;
    roleKey: StudioIamRole['key'];
    roleName: StudioIamRolesRow['name'];
    roleIsOwner: StudioIamRolesRow['isOwner'] | null;
    roleAbilities: StudioIamRolesRow['abilities'];
  };

export function roleShapeOf(row: StaffRow): RoleShape | null {
  if (!row.roleId) return null;
  return {
    isOwner: Boolean(row.roleIsOwner),
    abilities: Array.isArray(row.roleAbilities) ? (row.roleAbilities as Ability[]) : [],
  };
}

/** Active staff of a studio (archived standing and clients excluded), with user and role. */
function staffQuery(db: Db, studioId: string) {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('studio_iam_roles as r', 'r.id', 'm.iam_role_id')
    .where('m.studio_id', studioId)
    .andWhere('m.is_member', true)
    .whereNull('m.archived_at')
    .select(
      'm.id as membershipId',
      'm.user_id as userId',
      'u.first_name as firstName',
      'u.last_name as lastName',
      'u.email as email',
      'u.phone as phone',
      'u.locale as locale',
      'm.is_client as isClient',
      'm.created_at as since',
      'r.id as roleId',
      'r.key as roleKey',
      'r.name as roleName',
      'r.is_owner as roleIsOwner',
      'r.abilities as roleAbilities',
    );
}

/** A member of staff of this studio by user id, or 404 (clients and former staff are not members). */
export async function findMember(
  db: Db,
  studioId: string,
  userId: string,
  forUpdate = false,
): Promise<StaffRow> {
  await ensureDefaultRoles(db, studioId);
  const query = staffQuery(db, studioId).andWhere('m.user_id', userId).first();
  if (forUpdate) query.forUpdate('m');
  const row: StaffRow | undefined = await query;
  if (!row) throw AppError.notFound('member');
  return row;
}

/** Keyset cursor: the sort key of the last row of a page (lower-cased last and first name, id). */
type Cursor = [last: string, first: string, membershipId: string];

function encodeCursor(row: StaffRow): string {
  const cursor: Cursor = [row.lastName.toLowerCase(), row.firstName.toLowerCase(), row.membershipId];
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed.every((p) => typeof p === 'string' && p.length <= 200 && !p.includes('\u0000')) &&
      /^[0-9a-f-]{36}$/i.test(parsed[2] as string)
    )
      return parsed as Cursor;
  } catch {
    // fall through
  }
  throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * GET member/collection: by last name, first name (case-insensitively), keyset-paginated. Filters: a
 * role, and a search in first name, last name, full name and email address.
 */
export async function listMembers(
  db: Db,
  studioId: string,
  query: {
    role?: string | undefined;
    location?: string | undefined;
    search?: string | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<{ rows: StaffRow[]; next: string | null }> {
  await ensureDefaultRoles(db, studioId);
  const limit = query.limit ?? MEMBER_PAGE_SIZE;
  const q = staffQuery(db, studioId)
    .orderByRaw('lower(u.last_name), lower(u.first_name), m.id')
    .limit(limit + 1);
  if (query.role) q.andWhere('m.iam_role_id', query.role);
  if (query.location) {
    const location = query.location;
    q.whereExists((e) =>
      e
        .select(db.raw('1'))
        .from('member_locations as ml')
        .whereRaw('ml.studio_id = m.studio_id and ml.user_id = m.user_id')
        .andWhere('ml.location_id', location),
    );
  }
  if (query.search) {
    const pattern = likePattern(query.search);
    q.andWhere((w) =>
      w
        .whereRaw('u.first_name ilike ?', [pattern])
        .orWhereRaw('u.last_name ilike ?', [pattern])
        .orWhereRaw("(u.first_name || ' ' || u.last_name) ilike ?", [pattern])
        .orWhereRaw('u.email ilike ?', [pattern]),
    );
  }
  if (query.cursor) {
    const [last, first, id] = decodeCursor(query.cursor);
    q.andWhereRaw('(lower(u.last_name), lower(u.first_name), m.id) > (?, ?, ?)', [last, first, id]);
  }
  const rows: StaffRow[] = await q;
  const page = rows.slice(0, limit);
  return { rows: page, next: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
}

/** How many active members of staff the studio has. */
export async function countMembers(db: Db, studioId: string): Promise<number> {
  const row = await staffQuery(db, studioId).clearSelect().count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The studio's active locations with how many active members of staff work at each (by name). */
export async function staffLocations(
  db: Db,
  studioId: string,
): Promise<Array<{ id: string; name: string; memberCount: number }>> {
  const rows: Array<{ id: string; name: string; n: string | number }> = await db('locations as l')
    .where('l.studio_id', studioId)
    .whereNull('l.archived_at')
    .orderBy([{ column: 'l.name' }, { column: 'l.id' }])
    .select('l.id', 'l.name')
    .select(
      db.raw(
        `(select count(*) from member_locations ml
           join memberships m on m.studio_id = ml.studio_id and m.user_id = ml.user_id
          where ml.location_id = l.id and m.is_member and m.archived_at is null) as n`,
      ),
    );
  return rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.n) }));
}

/** GET studio-iam-role/{id}/mapping: the active staff holding a role. */
export async function membersOfRole(db: Db, studioId: string, roleId: string): Promise<StaffRow[]> {
  const role = await findRole(db, studioId, roleId);
  const rows: StaffRow[] = await staffQuery(db, studioId)
    .andWhere('m.iam_role_id', role.id)
    .orderByRaw('lower(u.last_name), lower(u.first_name), m.id');
  return rows;
}

/**
 * POST member: the user with this email (created without a password when there is none) becomes staff
 * of the studio with the role. An existing user's profile is left as it is; a client of the studio
 * keeps that standing too. `invite` says the member has no password yet (the route emails them a
 * link to set one, after commit).
 */
export async function addMember(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  input: Omit<AddMemberInput, 'phone'> & { phone?: string | undefined },
  now: Date = new Date(),
): Promise<{ row: StaffRow; user: User; invite: boolean }> {
  await ensureDefaultRoles(trx, studioId);
  const role = await findRoleField(trx, studioId, input.studioIamRole, 'studioIamRole');
  enforce(mayAddMember(actor, role));
  let user = await findUserByEmail(trx, input.emailAddress);
  if (!user) {
    [user] = await trx('users')
      .insert({
        id: uuidv7(),
        email: input.emailAddress,
        passwordHash: null,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone ? input.phone : null,
        locale: null,
      })
      .returning('*');
    if (!user) throw new Error('the user just inserted is missing');
  } else {
    // An account that never proved its address is not handed a staff standing with its password:
    // the invitation below goes to the mailbox instead.
    await claimUnverifiedAccount(trx, now, user);
  }
  const existing = await trx('memberships').where({ studioId, userId: user.id }).forUpdate().first();
  const standing = { isMember: true, role: role.key, iamRoleId: role.id };
  const patchExisting = (patch: MembershipsUpdate) =>
    trx('memberships')
      .update({ ...patch, updatedAt: new Date() })
      .where({ id: existing!.id });
  if (!existing) {
    await trx('memberships').insert({
      id: uuidv7(),
      studioId,
      userId: user.id,
      isClient: false,
      archivedAt: null,
      ...standing,
    });
  } else if (existing.archivedAt) {
    // An ended membership comes back as staff only: its old client standing ended with it.
    await patchExisting({ ...standing, isClient: false, archivedAt: null });
  } else if (existing.isMember) {
    throw new AppError('staff.alreadyMember', {
      message: 'already a member of staff of this studio',
      fields: { emailAddress: ['already a member of staff of this studio'] },
    });
  } else {
    await patchExisting(standing);
  }
  return { row: await findMember(trx, studioId, user.id), user, invite: !user.passwordHash };
}

/**
 * The email to a new member of staff without a password: a link to set one (a reset token bound to
 * the studio, valid as long as a sign-up's welcome link) and the back office's address. In the
 * member's language, else the studio's.
 */
export function staffInviteEmail(user: User, studio: Studio, baseUrl: string, token: string): MailMessage {
  const locale = isLocale(user.locale)
    ? user.locale
    : isLocale(studio.defaultLocale)
      ? studio.defaultLocale
      : 'en';
  const t = tFor(locale);
  const vars = {
    name: user.firstName || user.email,
    studio: studio.name,
    hours: WELCOME_TOKEN_TTL_HOURS,
    link: `${baseUrl}${resetPasswordPath(studio.id, token)}`,
    backoffice: `${baseUrl}${backOfficePath(studio.id)}`,
  };
  return {
    to: user.email,
    subject: t('backoffice:staff.invite.subject', vars),
    text: t('backoffice:staff.invite.body', vars),
  };
}

export async function updateMemberProfile(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  userId: string,
  input: UpdateMemberInput,
): Promise<StaffRow> {
  const target = await findMember(trx, studioId, userId, true);
  enforce(mayEditMemberProfile(actor, { userId: target.userId, role: roleShapeOf(target) }));
  const patch: UsersUpdate = { updatedAt: new Date() };
  if (input.firstName !== undefined) patch.firstName = input.firstName;
  if (input.lastName !== undefined) patch.lastName = input.lastName;
  if (input.phone !== undefined) patch.phone = input.phone ? input.phone : null;
  await trx('users').update(patch).where({ id: target.userId });
  return findMember(trx, studioId, userId);
}

/** Ends the staff standing (a client of the studio stays one; otherwise the membership is archived). */
export async function removeMember(
  trx: Db,
  clock: Clock,
  studioId: string,
  actor: StaffActor,
  userId: string,
): Promise<void> {
  await ensureDefaultRoles(trx, studioId);
  await lockStaffChanges(trx, studioId);
  const current = await actorUnderLock(trx, studioId, actor);
  const target = await findMember(trx, studioId, userId, true);
  const ownerCount = await countOwners(trx, studioId);
  enforce(mayRemoveMember(current, { userId: target.userId, role: roleShapeOf(target), ownerCount }));
  await trx('memberships')
    .update({
      isMember: false,
      role: null,
      iamRoleId: null,
      archivedAt: target.isClient ? null : clock.now(),
      updatedAt: new Date(),
    })
    .where({ id: target.membershipId });
}

/** PATCH member/{user}/iam: gives the member another role, under the staff lock. */
export async function setMemberRole(
  trx: Db,
  studioId: string,
  actor: StaffActor,
  userId: string,
  roleId: string,
): Promise<StaffRow> {
  await ensureDefaultRoles(trx, studioId);
  await lockStaffChanges(trx, studioId);
  const current = await actorUnderLock(trx, studioId, actor);
  const target = await findMember(trx, studioId, userId, true);
  const role = await findRoleField(trx, studioId, roleId, 'studioIamRole');
  const ownerCount = await countOwners(trx, studioId);
  enforce(maySetMemberRole(current, { userId: target.userId, role: roleShapeOf(target), ownerCount }, role));
  if (target.roleId !== role.id) {
    await trx('memberships')
      .update({ iamRoleId: role.id, role: role.key, updatedAt: new Date() })
      .where({ id: target.membershipId });
  }
  return findMember(trx, studioId, userId);
}

/** What the actor may do to a member, for the member screens (each call checks again). */
export async function memberPermissions(
  db: Db,
  studioId: string,
  actor: StaffActor,
  target: StaffRow,
): Promise<{ editProfile: boolean; changeRole: boolean; remove: boolean; ownerCount: number }> {
  const canEdit = actor.abilities.has('staff.edit');
  const role = roleShapeOf(target);
  const ownerCount = await countOwners(db, studioId);
  const shape = { userId: target.userId, role, ownerCount };
  return {
    editProfile: canEdit && mayEditMemberProfile(actor, shape).ok,
    // Whether some role could be given: not one's own, not a member above the actor.
    changeRole: canEdit && maySetMemberRole(actor, shape, role ?? { isOwner: false, abilities: [] }).ok,
    remove: canEdit && mayRemoveMember(actor, shape).ok,
    ownerCount,
  };
}
