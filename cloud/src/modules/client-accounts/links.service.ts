import { v7 as uuidv7 } from 'uuid';
import type {
  FindMyAccounts,
  LinkConnectInput,
  LinkedAccount,
} from '../../../../shared/contracts/api/client-accounts';
import { canActFor, relationshipSeenBy, type AccountLink } from '../../../../shared/domain/accounts';
import { UserAccountLinkRelationship } from '../../../../shared/enums/users';
import { AppError } from '../../../../shared/errors';
import type { UserAccountLinksRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { authenticate } from '../identity/index';
import type { User } from '../identity/index';
import { notify } from './inbox.service';

const RELATIONSHIPS: ReadonlySet<string> = new Set(Object.values(UserAccountLinkRelationship));
const isRelationship = (value: string): value is UserAccountLinkRelationship => RELATIONSHIPS.has(value);

/** The relationship the link's maker chose (a stored value the enum no longer knows acts as `friend`). */
const relationshipOf = (r: UserAccountLinksRow): UserAccountLinkRelationship =>
  isRelationship(r.relationship) ? r.relationship : UserAccountLinkRelationship.friend;

const toLink = (r: UserAccountLinksRow): AccountLink => ({
  ownerId: r.userId,
  linkedId: r.linkedUserId,
  relationship: relationshipOf(r),
});

async function linksOf(db: Db, userId: string): Promise<UserAccountLinksRow[]> {
  return await db('user_account_links')
    .where({ userId })
    .orWhere({ linkedUserId: userId })
    .orderBy([{ column: 'createdAt' }, { column: 'id' }]);
}

/** The acting rule (shared/domain) over the actor's stored links. */
export async function mayActFor(db: Db, actorId: string, targetId: string): Promise<boolean> {
  if (actorId === targetId) return true;
  const rows = await db('user_account_links').where({ userId: actorId, linkedUserId: targetId });
  return canActFor(actorId, targetId, rows.map(toLink));
}

export async function listLinks(db: Db, studioId: string, viewerId: string): Promise<LinkedAccount[]> {
  const rows = await linksOf(db, viewerId);
  if (rows.length === 0) return [];
  const links = rows.map(toLink);
  const otherIds = rows.map((r) => (r.userId === viewerId ? r.linkedUserId : r.userId));
  // Aliased tables: the select's columns, named here.
  const found: Array<{ id: string; firstName: string; lastName: string; clientHere: boolean }> = await db(
    'users as u',
  )
    .whereIn('u.id', otherIds)
    .select(
      'u.id',
      'u.first_name',
      'u.last_name',
      db.raw(
        `exists (select 1 from memberships m where m.user_id = u.id and m.studio_id = ? and m.is_client and m.archived_at is null) as client_here`,
        [studioId],
      ),
    );
  const people = new Map(found.map((p) => [p.id, p]));
  return rows.map((r, i) => {
    const otherId = otherIds[i]!;
    const person = people.get(otherId);
    return {
      id: r.id,
      relationship: relationshipSeenBy(links[i]!, viewerId),
      owned: r.userId === viewerId,
      canActFor: canActFor(viewerId, otherId, links),
      clientHere: Boolean(person?.clientHere),
      user: { id: otherId, firstName: person?.firstName ?? '', lastName: person?.lastName ?? '' },
      createdAt: new Date(r.createdAt).toISOString(),
    };
  });
}

/**
 * Accounts that are probably the caller's own: accounts without a password (made by a studio) whose
 * studio record carries the caller's email address. Users are one per email, so "the same email in
 * another studio" is either the caller's own account already, or such a studio-made account.
 */
export async function findMyAccounts(db: Db, me: User): Promise<FindMyAccounts> {
  const rows: Array<{
    userId: string;
    firstName: string;
    lastName: string;
    studioId: string;
    studioName: string;
  }> = await db('clients as c')
    .join('users as u', 'u.id', 'c.user_id')
    .join('memberships as m', (j) => j.on('m.studio_id', 'c.studio_id').andOn('m.user_id', 'c.user_id'))
    .join('studios as s', 's.id', 'c.studio_id')
    .where('c.email', me.email.toLowerCase())
    .whereNot('c.user_id', me.id)
    .whereNull('u.password_hash')
    .whereNull('m.archived_at')
    .orderBy([{ column: 'u.id' }, { column: 's.name' }])
    .limit(100)
    .select('u.id as user_id', 'c.first_name', 'c.last_name', 's.id as studio_id', 's.name as studio_name');
  const linked = new Set(
    (await linksOf(db, me.id)).map((l) => (l.userId === me.id ? l.linkedUserId : l.userId)),
  );
  const byUser = new Map<string, FindMyAccounts['items'][number]>();
  for (const r of rows) {
    const item = byUser.get(r.userId) ?? {
      userId: r.userId,
      firstName: r.firstName,
      lastName: r.lastName,
      studios: [],
      linked: linked.has(r.userId),
    };
    item.studios.push({ uuid: r.studioId, name: r.studioName });
    byUser.set(r.userId, item);
  }
  return { items: [...byUser.values()] };
}

/**
 * Links another account to the caller's. Proof of control: that account's email and password, or
 * (for studio-made accounts carrying the caller's email, see findMyAccounts) nothing more, but then
 * only as `self`. One link per pair, whoever made it (409).
 */
export async function connectLink(
  trx: Db,
  studioId: string,
  me: User,
  input: LinkConnectInput,
): Promise<LinkedAccount> {
  let otherId: string;
  if ('emailAddress' in input) {
    // A wrong password is a form error here, not a sign-in failure (the caller stays signed in).
    const other = await authenticate(trx, input.emailAddress, input.password).catch((err: unknown) => {
      if (err instanceof AppError && err.key === 'auth.invalidCredentials')
        throw AppError.invalid({ password: ['wrong email address or password'] });
      throw err;
    });
    if (other.id === me.id) throw AppError.invalid({ emailAddress: ['this is your own account'] });
    otherId = other.id;
  } else {
    const mine = await findMyAccounts(trx, me);
    if (!mine.items.some((a) => a.userId === input.userId)) throw AppError.notFound('account');
    if (input.relationship !== 'self')
      throw AppError.invalid({
        relationship: ['an account found by your email address is yours: link it as "self"'],
      });
    otherId = input.userId;
  }
  const inserted = await trx('user_account_links')
    .insert({ id: uuidv7(), userId: me.id, linkedUserId: otherId, relationship: input.relationship })
    .onConflict()
    .ignore()
    .returning('id');
  if (!inserted[0]) {
    throw new AppError('resource.conflict', {
      message: 'these accounts are already linked',
      fields: { '': ['these accounts are already linked'] },
    });
  }
  const member = await trx('memberships')
    .where({ studioId, userId: otherId, isClient: true })
    .whereNull('archived_at')
    .first('id');
  if (member) {
    await notify(trx, studioId, otherId, 'accountLinked', 'notifications.accountLinked', {
      name: `${me.firstName} ${me.lastName}`.trim(),
    });
  }
  const view = (await listLinks(trx, studioId, me.id)).find((l) => l.id === inserted[0]!.id);
  if (!view) throw new Error('the link just inserted is missing');
  return view;
}

async function linkOfViewer(trx: Db, viewerId: string, linkId: string): Promise<UserAccountLinksRow> {
  const row = await trx('user_account_links')
    .where({ id: linkId })
    .andWhere((w) => w.where({ userId: viewerId }).orWhere({ linkedUserId: viewerId }))
    .forUpdate()
    .first();
  if (!row) throw AppError.notFound('linked account');
  return row;
}

/** Only the person who made a link says what the other person is to them. */
export async function changeRelationship(
  trx: Db,
  studioId: string,
  viewerId: string,
  linkId: string,
  relationship: UserAccountLinkRelationship,
): Promise<LinkedAccount> {
  const row = await linkOfViewer(trx, viewerId, linkId);
  if (row.userId !== viewerId)
    throw new AppError('auth.forbidden', { message: 'only the person who made the link can change it' });
  await trx('user_account_links').where('id', row.id).update({ relationship, updatedAt: new Date() });
  const view = (await listLinks(trx, studioId, viewerId)).find((l) => l.id === row.id);
  if (!view) throw new Error('the link just changed is missing');
  return view;
}

/** Either side may end a link. */
export async function removeLink(trx: Db, viewerId: string, linkId: string): Promise<void> {
  const row = await linkOfViewer(trx, viewerId, linkId);
  await trx('user_account_links').where('id', row.id).delete();
}
