import { v7 as uuidv7 } from 'uuid';
import type { ClientIdentityView } from '../../../../shared/contracts/api/client-accounts';
import { cardNumberKey, parseScannedIdentity, qrPayload } from '../../../../shared/domain/accounts';
import { AppError } from '../../../../shared/errors';
import type { ClientIdentitiesRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { newSecret } from '../identity/index';

export const presentIdentity = (row: ClientIdentitiesRow): ClientIdentityView => ({
  id: row.id,
  kind: row.kind === 'card' ? 'card' : 'qr',
  number: row.kind === 'card' ? row.value : null,
  createdAt: new Date(row.createdAt).toISOString(),
});

/**
 * The client's QR token in the studio, made on first use (sign-up makes it; clients the studio added
 * or the demo seeded get theirs when first asked). Safe on a plain connection: a concurrent first use
 * meets the unique index and reads the winner's token.
 */
export async function ensureQrIdentity(db: Db, studioId: string, userId: string): Promise<string> {
  const found = await db('client_identities').where({ studioId, userId, kind: 'qr' }).first('value');
  if (found) return qrPayload(found.value);
  const token = newSecret(18);
  await db('client_identities')
    .insert({ id: uuidv7(), studioId, userId, kind: 'qr', value: token, valueKey: token })
    .onConflict()
    .ignore();
  const row = await db('client_identities').where({ studioId, userId, kind: 'qr' }).first('value');
  return qrPayload(row!.value);
}

/** A new QR token: the old code stops working (a lost phone, a shared screenshot). */
export async function regenerateQr(trx: Db, studioId: string, userId: string): Promise<string> {
  await trx('client_identities').where({ studioId, userId, kind: 'qr' }).delete();
  return ensureQrIdentity(trx, studioId, userId);
}

export async function listCards(db: Db, studioId: string, userId: string): Promise<ClientIdentityView[]> {
  const rows = await db('client_identities')
    .where({ studioId, userId, kind: 'card' })
    .orderBy([{ column: 'createdAt' }, { column: 'id' }]);
  return rows.map(presentIdentity);
}

/** Adds a membership card number; the same number (any case, spaces, hyphens) twice in a studio is a 409. */
export async function addCard(
  trx: Db,
  studioId: string,
  userId: string,
  actorId: string,
  cardNumber: string,
): Promise<ClientIdentityView> {
  const key = cardNumberKey(cardNumber);
  if (!key) throw AppError.invalid({ cardNumber: ['invalid card number'] });
  const inserted = await trx('client_identities')
    .insert({
      id: uuidv7(),
      studioId,
      userId,
      kind: 'card',
      value: cardNumber.trim(),
      valueKey: key,
      createdBy: actorId,
    })
    .onConflict()
    .ignore()
    .returning('*');
  if (!inserted[0]) {
    throw new AppError('resource.conflict', {
      message: 'this card number is already in use in the studio',
      fields: { cardNumber: ['this card number is already in use in the studio'] },
    });
  }
  return presentIdentity(inserted[0]);
}

/** Removes a card of the studio (404 for another studio's or a QR code). */
export async function removeCard(trx: Db, studioId: string, identityId: string): Promise<void> {
  const deleted = await trx('client_identities').where({ id: identityId, studioId, kind: 'card' }).delete();
  if (deleted === 0) throw AppError.notFound('client identity');
}

export interface IdentifiedClient {
  userId: string;
  firstName: string;
  lastName: string;
  archived: boolean;
  via: 'qr' | 'card';
}

/**
 * The kiosk's and front desk's lookup: a scanned QR payload or a typed or read card number → the
 * studio's client (the studio's record: its names). Another studio's codes find nothing.
 */
export async function findClientByIdentity(
  db: Db,
  studioId: string,
  value: string,
): Promise<IdentifiedClient | null> {
  const scanned = parseScannedIdentity(value);
  if (!scanned) return null;
  const row = await db('client_identities as ci')
    .join('clients as c', (j) => j.on('c.studio_id', 'ci.studio_id').andOn('c.user_id', 'ci.user_id'))
    .where('ci.studio_id', studioId)
    .where('ci.kind', scanned.kind)
    .where('ci.value_key', scanned.kind === 'qr' ? scanned.token : scanned.key)
    .first('c.user_id', 'c.first_name', 'c.last_name', 'c.archived_at');
  if (!row) return null;
  return {
    userId: row.userId as string,
    firstName: row.firstName as string,
    lastName: row.lastName as string,
    archived: row.archivedAt !== null,
    via: scanned.kind,
  };
}
