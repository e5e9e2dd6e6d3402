import type { DeviceScope, RegisterDeviceInput, RegisterDeviceResult } from '../../../shared/contracts/sync';
import { SYNC_COMMANDS, commandKey } from '../../../shared/contracts/sync';
import { AppError } from '../../../shared/errors';
import { can, type Ability } from '../../../shared/policies/abilities';
import type { Db } from '../db/knex';
import { abilitiesOf } from '../http/abilities';
import { findStudio } from '../modules/identity/index';
import { newSecret, safeEqual, sha256 } from '../modules/identity/index';
import { presentTables } from './tables';

/** Visits older than this are not sent to stations (the design's rolling window). */
export const VISITS_WINDOW_DAYS = 90;
const TOKEN_PREFIX = 'sdt';

export interface SyncDevice {
  id: string;
  studioId: string;
  name: string;
  registeredBy: string | null;
  scope: DeviceScope;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/**
 * Running a front-desk station means seeing every client record of the studio and checking people in
 * or selling: `clients.view` and (`schedule.checkIn` or `sales.sell`). Front desk, managers and owners
 * have it by default; so do instructors (a check-in station), not accountants. Each pushed command is
 * checked again against the ability of the staff member who did it.
 */
export function mayRunStation(abilities: ReadonlySet<Ability>): boolean {
  return (
    can(abilities, 'clients.view') && (can(abilities, 'schedule.checkIn') || can(abilities, 'sales.sell'))
  );
}

/** A device token: `sdt.<device id>.<secret>`; only a hash of the secret is stored. */
export function parseDeviceToken(raw: string): { deviceId: string; secret: string } | null {
  const m = /^sdt\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,100})$/i.exec(raw);
  return m ? { deviceId: m[1]!.toLowerCase(), secret: m[2]! } : null;
}

export async function registerDevice(
  trx: Db,
  userId: string,
  input: RegisterDeviceInput,
  now: Date,
): Promise<RegisterDeviceResult> {
  const memberships = await trx('memberships')
    .where({ userId, isMember: true })
    .whereNull('archivedAt')
    .modify((q) => {
      if (input.studioUuid) q.where({ studioId: input.studioUuid });
    });
  if (memberships.length === 0) {
    // Not staff anywhere: forbidden; staff elsewhere but not in the studio asked for: not found.
    if (input.studioUuid) throw AppError.notFound('studio');
    throw new AppError('auth.forbidden', { message: 'only staff can register a station' });
  }
  if (memberships.length > 1)
    throw AppError.invalid({ studioUuid: ['choose the studio this station works for'] });
  const membership = memberships[0]!;
  if (!mayRunStation(await abilitiesOf(trx, membership)))
    throw new AppError('auth.forbidden', { message: 'you have no permission to run a front-desk station' });
  const studio = await findStudio(trx, membership.studioId);
  if (!studio) throw AppError.notFound('studio');

  const existing: { studioId: string } | undefined = await trx('sync_devices')
    .where({ id: input.deviceId })
    .forUpdate()
    .first();
  if (existing && existing.studioId !== studio.id)
    throw new AppError('sync.deviceTaken', {
      message: 'this device id belongs to another studio',
      fields: { deviceId: ['this device id is registered elsewhere: use a new one'] },
    });

  const scope: DeviceScope = {
    tables: [...(await presentTables(trx))],
    commands: SYNC_COMMANDS.map((c) => commandKey(c.name, c.version)),
    visitsWindowDays: VISITS_WINDOW_DAYS,
  };
  const secret = newSecret(32);
  if (existing) {
    // Signing a known station in again: a new token (the old one stops working), same history.
    await trx('sync_devices')
      .where({ id: input.deviceId })
      .update({
        name: input.name,
        tokenHash: sha256(secret),
        registeredBy: userId,
        scope: JSON.stringify(scope),
        revokedAt: null,
        updatedAt: now,
      });
  } else {
    await trx('sync_devices').insert({
      id: input.deviceId,
      studioId: studio.id,
      name: input.name,
      tokenHash: sha256(secret),
      registeredBy: userId,
      scope: JSON.stringify(scope),
      createdAt: now,
      updatedAt: now,
    });
    await trx('sync_clients').insert({ deviceId: input.deviceId, studioId: studio.id, lastSeq: 0 });
  }
  return {
    deviceToken: `${TOKEN_PREFIX}.${input.deviceId}.${secret}`,
    deviceId: input.deviceId,
    studioId: studio.id,
    studioUuid: studio.id,
    scope,
    serverTime: now.toISOString(),
  };
}

/** The live device a bearer token names, or a 401. */
export async function authenticateDevice(db: Db, header: string, now: Date): Promise<SyncDevice> {
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  const parsed = m ? parseDeviceToken(m[1]!) : null;
  if (!parsed) throw new AppError('sync.deviceTokenInvalid', { message: 'device token required' });
  const row = (await db('sync_devices').where({ id: parsed.deviceId }).first()) as
    (SyncDevice & { tokenHash: string }) | undefined;
  if (!row || row.revokedAt || !safeEqual(row.tokenHash, sha256(parsed.secret)))
    throw new AppError('sync.deviceTokenInvalid', { message: 'device token invalid or revoked' });
  // Last seen, at most once a minute (every pull would otherwise write).
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db('sync_devices').where({ id: row.id }).update({ lastSeenAt: now });
    row.lastSeenAt = now;
  }
  const { tokenHash: _hash, ...device } = row;
  return device;
}

/**
 * Revokes a device: by itself (its token), or by staff of its studio with `settings.edit`. Another
 * studio's device, or an unknown one, is 404.
 */
export async function revokeDevice(
  trx: Db,
  deviceId: string,
  by: { device: SyncDevice } | { userId: string },
  now: Date,
): Promise<void> {
  const row: { id: string; studioId: string } | undefined = await trx('sync_devices')
    .where({ id: deviceId })
    .forUpdate()
    .first();
  if (!row) throw AppError.notFound('device');
  if ('device' in by) {
    if (by.device.id !== row.id) throw AppError.notFound('device');
  } else {
    const membership = await trx('memberships')
      .where({ studioId: row.studioId, userId: by.userId, isMember: true })
      .whereNull('archivedAt')
      .first();
    if (!membership) throw AppError.notFound('device');
    if (!can(await abilitiesOf(trx, membership), 'settings.edit'))
      throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  }
  await trx('sync_devices').where({ id: deviceId }).update({ revokedAt: now, updatedAt: now });
}
