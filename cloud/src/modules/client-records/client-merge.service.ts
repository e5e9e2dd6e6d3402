import { v7 as uuidv7 } from 'uuid';
import type {
  ClientDuplicates,
  ClientLinkResult,
  ClientMergeResult,
  DuplicateCandidate,
} from '../../../../shared/contracts/api/client-records';
import { AppError } from '../../../../shared/errors';
import type { ClientsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { decryptFieldValue, encryptFieldValue, type FieldKeyring } from '../../crypto/field-crypto';
import { presentClientRef } from './client-records.presenter';

/** Mirrors clients.service's placeholder: a studio-made person without an address (RFC 2606). */
const placeholderEmail = (userId: string) => `no-email-${userId}@clients.invalid`;

/** The studio's record of a client, and whether the person signs in (joined). */
type RecordRow = Omit<
  ClientsRow,
  'studioId' | 'createdAt' | 'updatedAt' | 'firstKey' | 'lastKey' | 'phoneDigits' | 'birthMd' | 'searchText'
> & { hasAccount: boolean };

const selectRecords = (db: Db, studioId: string) =>
  db('clients as c')
    .join('users as u', 'u.id', 'c.user_id')
    .where('c.studio_id', studioId)
    .select(
      'c.id',
      'c.user_id',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone',
      'c.phone_key',
      'c.birth_date',
      'c.sex',
      'c.archived_at',
      db.raw('(u.password_hash is not null) as has_account'),
    );

async function record(db: Db, studioId: string, userId: string): Promise<RecordRow> {
  const row = (await selectRecords(db, studioId).where('c.user_id', userId).first()) as RecordRow | undefined;
  if (!row) throw AppError.notFound('client');
  return row;
}

const pair = (a: string, b: string) => (a < b ? [a, b] : [b, a]) as [string, string];

/**
 * Other clients of the studio that may be the same person: the same email (any case) or the same
 * phone number (the 9-digit key of shared/domain/clients/phone.ts). Clients already merged away are
 * left out; linked ones are shown as linked.
 */
export async function clientDuplicates(db: Db, studioId: string, userId: string): Promise<ClientDuplicates> {
  const self = await record(db, studioId, userId);
  const base = { ...presentClientRef(self), hasAccount: self.hasAccount };
  if (!self.email && !self.phoneKey) return { client: base, items: [] };
  const rows = (await selectRecords(db, studioId)
    .whereNot('c.user_id', userId)
    .where((w) => {
      if (self.email) w.orWhere('c.email', self.email);
      if (self.phoneKey) w.orWhere('c.phone_key', self.phoneKey);
    })
    .whereNotExists((q) =>
      q.from('client_merges as m').where('m.studio_id', studioId).whereRaw('m.merged_client_id = c.user_id'),
    )
    .select(
      db.raw(
        `exists (select 1 from client_links l where l.studio_id = c.studio_id
           and ((l.client_a_id = c.user_id and l.client_b_id = ?) or (l.client_b_id = c.user_id and l.client_a_id = ?))) as linked`,
        [userId, userId],
      ),
    )
    .orderBy(['c.last_key', 'c.first_key', 'c.id'])
    .limit(50)) as Array<RecordRow & { linked: boolean }>;
  const items: DuplicateCandidate[] = rows.map((row) => ({
    ...presentClientRef(row),
    matchedBy: [
      ...(self.email && row.email === self.email ? (['emailAddress'] as const) : []),
      ...(self.phoneKey && row.phoneKey === self.phoneKey ? (['phone'] as const) : []),
    ],
    hasAccount: row.hasAccount,
    linked: row.linked,
  }));
  return { client: base, items };
}

const conflict = (message: string) =>
  new AppError('resource.conflict', { message, fields: { duplicateId: [message] } });

/**
 * Merges `duplicateId` into `keptId`, whole or not at all (the request's transaction): notes,
 * tags, documents, passes and field values move to the kept client (the kept client's own field
 * values win; encrypted ones are re-encrypted for their new owner), empty card fields of the kept
 * client are filled from the duplicate, the duplicate's record is archived and an audit row says
 * who merged what into whom. Refused (409) for the same client, an already merged duplicate, two
 * people who both sign in with a password (link them instead), and a duplicate that has the account
 * when the kept client has none (merge the other way, so the person keeps signing in).
 */
export async function mergeClients(
  trx: Db,
  studioId: string,
  keptId: string,
  duplicateId: string,
  actorId: string,
  key: FieldKeyring,
  now: Date,
): Promise<ClientMergeResult> {
  if (keptId === duplicateId) throw conflict('a client cannot be merged into itself');
  // Lock both records in one order, so two merges of the same pair cannot deadlock.
  const locked = await trx('clients')
    .where('studio_id', studioId)
    .whereIn('user_id', [keptId, duplicateId])
    .orderBy('user_id')
    .forUpdate()
    .select('user_id');
  if (locked.length !== 2) throw AppError.notFound('client');
  const kept = await record(trx, studioId, keptId);
  const dup = await record(trx, studioId, duplicateId);
  const merged = await trx('client_merges')
    .where('studio_id', studioId)
    .whereIn('merged_client_id', [keptId, duplicateId])
    .first('merged_client_id');
  if (merged) throw conflict('this client was already merged into another');
  if (kept.hasAccount && dup.hasAccount)
    throw conflict('both clients sign in with their own account: link them instead of merging');
  if (dup.hasAccount && !kept.hasAccount)
    throw conflict('the duplicate has the account the person signs in with: keep that client instead');

  const scope = { studio_id: studioId, client_id: duplicateId };
  const notes = await trx('client_notes').where(scope).update({ clientId: keptId });
  const documents = await trx('client_documents').where(scope).update({ clientId: keptId });
  const passes = await trx('client_pricing_options')
    .where(scope)
    .update({ clientId: keptId, updatedAt: now });

  const keptTags = new Set(
    (await trx('user_tags').where({ studioId, userId: keptId }).select('tagId')).map((t) => t.tagId),
  );
  const dupTags = await trx('user_tags').where({ studioId, userId: duplicateId }).select('tagId');
  const newTags = dupTags.filter((t) => !keptTags.has(t.tagId));
  if (newTags.length > 0)
    await trx('user_tags').insert(
      newTags.map((t) => ({ id: uuidv7(), studioId, tagId: t.tagId, userId: keptId })),
    );
  await trx('user_tags').where({ studioId, userId: duplicateId }).delete();

  const values = (await trx('client_field_values as v')
    .join('client_fields as f', 'f.id', 'v.field_id')
    .where({ 'v.studio_id': studioId, 'v.client_id': duplicateId })
    .select('v.id', 'v.field_id', 'v.ciphertext', 'f.encrypted')) as Array<{
    id: string;
    fieldId: string;
    ciphertext: string | null;
    encrypted: boolean;
  }>;
  const keptFields = new Set(
    (await trx('client_field_values').where({ studioId, clientId: keptId }).select('fieldId')).map(
      (v) => v.fieldId,
    ),
  );
  let fieldValues = 0;
  for (const v of values) {
    if (keptFields.has(v.fieldId)) {
      await trx('client_field_values').where({ id: v.id }).delete();
      continue;
    }
    const patch: Record<string, unknown> = { client_id: keptId, updated_at: now };
    if (v.ciphertext) {
      const plain = decryptFieldValue(
        key,
        { studioId, fieldId: v.fieldId, clientId: duplicateId },
        v.ciphertext,
      );
      patch.ciphertext = encryptFieldValue(key, { studioId, fieldId: v.fieldId, clientId: keptId }, plain);
    }
    await trx('client_field_values').where({ id: v.id }).update(patch);
    fieldValues++;
  }

  // Card fields: the kept client's values stay; empty ones take the duplicate's.
  const filled: string[] = [];
  const fill: Record<string, unknown> = {};
  const take = (when: boolean, column: string, value: unknown, field: string) => {
    if (!when) return;
    fill[column] = value;
    filled.push(field);
  };
  take(!kept.email && Boolean(dup.email), 'email', dup.email, 'emailAddress');
  take(!kept.phone && Boolean(dup.phone), 'phone', dup.phone, 'phone');
  take(!kept.birthDate && Boolean(dup.birthDate), 'birth_date', dup.birthDate, 'birthDate');
  take(kept.sex === null && dup.sex !== null, 'sex', dup.sex, 'sex');

  await trx('client_email_bounces').where(scope).delete();
  await trx('client_links')
    .where('studio_id', studioId)
    .where((w) => w.where('client_a_id', duplicateId).orWhere('client_b_id', duplicateId))
    .delete();
  await trx('clients')
    .where({ studioId, userId: duplicateId })
    .update({ archivedAt: dup.archivedAt ?? now, updatedAt: now });
  if (Object.keys(fill).length > 0)
    await trx('clients')
      .where({ studioId, userId: keptId })
      .update({ ...fill, updatedAt: now });

  // Identities: a duplicate this studio alone manages (no password, no other studio) frees its
  // address, so adding a client with it later finds the kept person's record, not the archived one;
  // the kept identity takes it when it had only a placeholder and the studio alone manages it too.
  const studioManaged = async (userId: string) => {
    const others = await trx('memberships')
      .where('user_id', userId)
      .whereNot('studio_id', studioId)
      .first('id');
    const user = (await trx('users').where('id', userId).forUpdate().first('email', 'password_hash')) as {
      email: string;
      passwordHash: string | null;
    };
    return { user, alone: !others && user.passwordHash === null };
  };
  const dupIdentity = await studioManaged(duplicateId);
  if (dupIdentity.alone && !dupIdentity.user.email.endsWith('.invalid')) {
    await trx('users')
      .where('id', duplicateId)
      .update({ email: placeholderEmail(duplicateId), updatedAt: now });
    const keptIdentity = await studioManaged(keptId);
    const address = (fill.email as string | undefined) ?? kept.email;
    if (keptIdentity.alone && keptIdentity.user.email.endsWith('.invalid') && address) {
      const owner = await trx('users').whereRaw('lower(email) = ?', [address.toLowerCase()]).first('id');
      if (!owner) await trx('users').where('id', keptId).update({ email: address, updatedAt: now });
    }
  }

  const moved = { notes, tags: newTags.length, documents, fieldValues, passes, filled };
  await trx('client_merges').insert({
    id: uuidv7(),
    studioId,
    keptClientId: keptId,
    mergedClientId: duplicateId,
    actorId,
    moved: JSON.stringify(moved),
  });
  return { keptId, mergedId: duplicateId, moved };
}

/**
 * Links two clients as one person who keeps two accounts (both sign in): nothing moves, the pair is
 * no longer offered as a duplicate. Idempotent.
 */
export async function linkClients(
  trx: Db,
  studioId: string,
  userId: string,
  otherId: string,
  actorId: string,
): Promise<ClientLinkResult> {
  if (userId === otherId)
    throw new AppError('resource.conflict', {
      message: 'a client cannot be linked to itself',
      fields: { otherId: ['a client cannot be linked to itself'] },
    });
  const found = await trx('clients')
    .where('studio_id', studioId)
    .whereIn('user_id', [userId, otherId])
    .select('id');
  if (found.length !== 2) throw AppError.notFound('client');
  const [a, b] = pair(userId, otherId);
  await trx('client_links')
    // client_a_id is read as clientAId, but that key would be written to client_aid.
    .insert({ id: uuidv7(), studioId, client_a_id: a, client_b_id: b, actorId })
    .onConflict(['studio_id', 'client_a_id', 'client_b_id'])
    .ignore();
  return { clientId: userId, otherId, linked: true };
}
