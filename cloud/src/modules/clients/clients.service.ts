import { v7 as uuidv7 } from 'uuid';
import type {
  ClientCheckExistenceQuery,
  ClientCheckExistenceResult,
  ClientCreateInput,
  ClientCreateResult,
  ClientDetail,
  ClientProfile,
  ClientSearchItem,
  ClientUpdateInput,
} from '../../../../shared/contracts/api/clients';
import { localDate, phoneMatchKey } from '../../../../shared/domain/clients';
import { ClientNoteType } from '../../../../shared/enums/clients';
import { AppError } from '../../../../shared/errors';
import type { ClientsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import type { UsersUpdate } from '../../db/generated/tables';
import type { Studio } from '../identity/index';
import { selectClients, selectDecorations, type ClientRow } from './client-list.service';
import { listNotes } from './client-notes.service';
import { presentClientDetail, presentClientSearchItem } from './clients.presenter';
import { readAll } from '../../db/read-all';
import { claimUnverifiedAccount } from '../identity/index';
import { emitWebhookEvent } from '../../webhooks/emit';

/**
 * A person the studio adds without an email address still needs a users row (the sign-in identity,
 * whose email is required and unique): it gets an unroutable placeholder (RFC 2606 `.invalid`), never
 * shown: the studio's record holds null.
 */
export const placeholderEmail = (userId: string) => `no-email-${userId}@clients.invalid`;

type DetailRow = ClientRow & { isMember: boolean | null; hasAccount: boolean };

export async function getClientDetail(
  db: Db,
  studio: Studio,
  userId: string,
  now: Date,
): Promise<ClientDetail> {
  const qb = selectClients(db, studio.id)
    .leftJoin('memberships as m', (j) => j.on('m.studio_id', 'c.studio_id').andOn('m.user_id', 'c.user_id'))
    .join('users as u', 'u.id', 'c.user_id')
    .where('c.user_id', userId)
    .select('m.is_member', db.raw('(u.password_hash is not null) as has_account'));
  const row = (await selectDecorations(db, qb, 'c', studio.id, now).first()) as DetailRow | undefined;
  if (!row) throw AppError.notFound('client');
  return presentClientDetail(row);
}

/** The studio's record of the client, locked: 404 when the user is not the studio's client. */
async function lockClient(trx: Db, studioId: string, userId: string): Promise<ClientsRow> {
  const client = await trx('clients').where({ studioId, userId }).forUpdate().first();
  if (!client) throw AppError.notFound('client');
  return client;
}

function assertBirthDate(birthDate: string | null | undefined, studio: Studio, now: Date): void {
  if (birthDate && birthDate > localDate(now, studio.timeZone))
    throw AppError.invalid({ birthDate: ['cannot be in the future'] });
}

async function clientsWithPhone(
  db: Db,
  studioId: string,
  phone: string | null | undefined,
  exceptUserId: string | null,
): Promise<ClientSearchItem[]> {
  const key = phoneMatchKey(phone);
  if (!key) return [];
  const rows = await db('clients as c')
    .where({ 'c.studio_id': studioId, 'c.phone_key': key })
    .modify((q) => {
      if (exceptUserId) q.whereNot('c.user_id', exceptUserId);
    })
    .orderBy(['c.last_key', 'c.first_key', 'c.id'])
    .limit(20)
    .select('c.user_id', 'c.first_name', 'c.last_name', 'c.email', 'c.phone', 'c.archived_at');
  return rows.map(presentClientSearchItem);
}

/**
 * Adds a client: a user (or the existing user with that email: they become a client here, and
 * nothing of their account changes — not the password, not the name they chose) with a client
 * membership, and the studio's record with what the staff typed. An archived client of the studio
 * is made active again; an active one is a 409. Same phone as other clients: reported, not refused.
 */
export async function createClient(
  trx: Db,
  studio: Studio,
  actorId: string,
  input: ClientCreateInput,
  now: Date,
): Promise<ClientCreateResult> {
  assertBirthDate(input.birthDate, studio, now);
  const email = input.emailAddress ?? null;
  const phone = input.phone ?? null;
  let user = email ? await trx('users').whereRaw('lower(email) = ?', [email]).forUpdate().first() : undefined;
  const linkedExistingAccount = Boolean(user);
  let restored = false;

  if (user) {
    // Pre-hijacking: an account that never proved this address (anyone may have signed up with it)
    // loses its password and sessions before it is linked; the mailbox's owner sets one through
    // "forgot password", which proves the address. identity README "How accounts and studio clients link".
    await claimUnverifiedAccount(trx, now, user);
    const membership = await trx('memberships')
      .where({ studioId: studio.id, userId: user.id })
      .forUpdate()
      .first();
    const record = await trx('clients').where({ studioId: studio.id, userId: user.id }).forUpdate().first();
    const liveClient = membership?.isClient && !membership.archivedAt && record && !record.archivedAt;
    if (liveClient) {
      throw new AppError('resource.conflict', {
        message: 'this person is already a client of the studio',
        fields: { emailAddress: ['a client with this email address already exists'] },
      });
    }
    restored = Boolean(record);
    if (!membership) {
      await trx('memberships').insert({
        id: uuidv7(),
        studioId: studio.id,
        userId: user.id,
        isClient: true,
        isMember: false,
        role: null,
      });
    } else if (!membership.isClient || membership.archivedAt) {
      await trx('memberships')
        .update({ isClient: true, archivedAt: null, updatedAt: new Date() })
        .where({ id: membership.id });
    }
  } else {
    const userId = uuidv7();
    [user] = await trx('users')
      .insert({
        id: userId,
        email: email ?? placeholderEmail(userId),
        passwordHash: null,
        firstName: input.firstName,
        lastName: input.lastName,
        phone,
        locale: null,
      })
      .returning('*');
    if (!user) throw new Error('the user just inserted is missing');
    await trx('memberships').insert({
      id: uuidv7(),
      studioId: studio.id,
      userId,
      isClient: true,
      isMember: false,
      role: null,
    });
  }

  // The membership trigger made (or kept) the record; it now holds what the staff typed.
  await trx('clients')
    .where({ studioId: studio.id, userId: user.id })
    .update({
      firstName: input.firstName,
      lastName: input.lastName,
      email,
      phone,
      birthDate: input.birthDate ?? null,
      sex: input.sex ?? null,
      archivedAt: null,
      updatedAt: new Date(),
    });

  if (input.note) {
    const noted = new Date();
    await trx('client_notes').insert({
      id: uuidv7(),
      createdAt: noted,
      updatedAt: noted,
      studioId: studio.id,
      clientId: user.id,
      authorId: actorId,
      type: ClientNoteType.private,
      content: input.note,
    });
  }

  await emitWebhookEvent(trx, studio.id, 'client.created', { userId: user.id, restored }, now);
  return {
    client: await getClientDetail(trx, studio, user.id, now),
    possibleDuplicates: await clientsWithPhone(trx, studio.id, phone, user.id),
    linkedExistingAccount,
    restored,
  };
}

/**
 * Edits the studio's record. The sign-in identity follows only when this studio alone manages the
 * person (no password set, no membership elsewhere): then name, phone and email are the studio's to
 * keep, and a later "forgot password" reaches the address the studio entered. Anyone else's account is
 * theirs: a studio never rewrites it.
 */
export async function updateClient(
  trx: Db,
  studio: Studio,
  userId: string,
  input: ClientUpdateInput,
  now: Date,
): Promise<ClientDetail> {
  const client = await lockClient(trx, studio.id, userId);
  assertBirthDate(input.birthDate, studio, now);
  const patch: Partial<Pick<ClientsRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'sex'>> & {
    birthDate?: string | null;
    archivedAt?: null;
  } = {};
  if (input.firstName !== undefined) patch.firstName = input.firstName;
  if (input.lastName !== undefined) patch.lastName = input.lastName;
  if (input.emailAddress !== undefined) patch.email = input.emailAddress;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.birthDate !== undefined) patch.birthDate = input.birthDate;
  if (input.sex !== undefined) patch.sex = input.sex;
  if (input.archived === false) patch.archivedAt = null;

  if (patch.email && patch.email !== client.email) {
    const taken = await trx('clients')
      .where({ studioId: studio.id, email: patch.email })
      .whereNot({ userId })
      .first('id');
    if (taken)
      throw new AppError('resource.conflict', {
        message: 'another client of the studio has this email address',
        fields: { emailAddress: ['another client of the studio has this email address'] },
      });
  }
  if (Object.keys(patch).length === 0) return getClientDetail(trx, studio, userId, now);
  await trx('clients')
    .where({ id: client.id })
    .update({ ...patch, updatedAt: new Date() });

  const user = await trx('users').where({ id: userId }).forUpdate().first();
  const elsewhere = await trx('memberships').where({ userId }).whereNot({ studioId: studio.id }).first('id');
  if (user && user.passwordHash === null && !elsewhere) {
    const mirror: UsersUpdate = {};
    if (patch.firstName !== undefined) mirror.firstName = patch.firstName;
    if (patch.lastName !== undefined) mirror.lastName = patch.lastName;
    if (patch.phone !== undefined) mirror.phone = patch.phone;
    if (patch.email !== undefined) {
      const wanted = patch.email ?? placeholderEmail(userId);
      const owner = await trx('users').whereRaw('lower(email) = ?', [wanted.toLowerCase()]).first('id');
      // An address another account signs in with stays that account's: the studio's record holds
      // it, the identity keeps its own (linking the two accounts is `client/{user}/link`, later).
      if (!owner) mirror.email = wanted;
    }
    if (Object.keys(mirror).length > 0)
      await trx('users')
        .update({ ...mirror, updatedAt: new Date() })
        .where({ id: userId });
  }
  await emitWebhookEvent(trx, studio.id, 'client.updated', { userId, changed: Object.keys(patch) }, now);
  return getClientDetail(trx, studio, userId, now);
}

/**
 * Archives the client standing: the record leaves the active list, everything it holds stays. The
 * membership (the person's sign-in standing in the studio) is the identity module's and stays.
 */
export async function archiveClient(trx: Db, studio: Studio, userId: string, now: Date): Promise<void> {
  const client = await lockClient(trx, studio.id, userId);
  if (!client.archivedAt)
    await trx('clients').where({ id: client.id }).update({ archivedAt: now, updatedAt: new Date() });
}

/**
 * Duplicate detection for the add form: clients of THIS studio (archived included, so staff can bring
 * one back) with the email, case aside, or the same phone number (the 9-digit match key). Nothing
 * about people outside the studio is revealed.
 */
export async function checkExistence(
  db: Db,
  studioId: string,
  query: ClientCheckExistenceQuery,
): Promise<ClientCheckExistenceResult> {
  const email = query.emailAddress ?? null;
  const key = phoneMatchKey(query.phone);
  if (!email && !key) return { exists: false, matches: [] };
  const rows = (await db('clients as c')
    .where('c.studio_id', studioId)
    .where((w) => {
      if (email) w.orWhere('c.email', email);
      if (key) w.orWhere('c.phone_key', key);
    })
    .orderBy(['c.last_key', 'c.first_key', 'c.id'])
    .limit(20)
    .select(
      'c.user_id',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone',
      'c.archived_at',
      'c.phone_key',
    )) as Array<Parameters<typeof presentClientSearchItem>[0] & { phoneKey: string | null }>;
  const matches = rows.map((row) => ({
    ...presentClientSearchItem(row),
    matchedBy: [
      ...(email && row.email === email ? (['emailAddress'] as const) : []),
      ...(key && row.phoneKey === key ? (['phone'] as const) : []),
    ],
  }));
  return { exists: matches.length > 0, matches };
}

export async function clientProfile(
  db: Db,
  studio: Studio,
  userId: string,
  now: Date,
  abilities: ClientProfile['abilities'],
): Promise<ClientProfile> {
  const client = await getClientDetail(db, studio, userId, now);
  const [notes, passes] = await readAll(db, [
    () => listNotes(db, studio.id, userId, 50),
    () =>
      db('client_pricing_options as cpo')
        .join('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
        .where({ 'cpo.studio_id': studio.id, 'cpo.client_id': userId, 'cpo.status': 1 })
        .where((w) => w.whereNull('cpo.expires_at').orWhere('cpo.expires_at', '>', now))
        .orderByRaw('cpo.expires_at asc nulls last, cpo.id')
        .limit(100)
        .select('cpo.id', 'cpo.pricing_option_id', 'po.name', 'cpo.entries', 'cpo.expires_at') as Promise<
        Array<{
          id: string;
          pricingOptionId: string;
          name: Record<string, { value: string }>;
          entries: number | null;
          expiresAt: Date | null;
        }>
      >,
  ]);
  return {
    client,
    notes,
    validPasses: passes.map((p) => ({
      id: p.id,
      pricingOptionId: p.pricingOptionId,
      name: p.name ?? {},
      entries: p.entries,
      expiresAt: p.expiresAt ? p.expiresAt.toISOString() : null,
    })),
    abilities,
  };
}
