import { v7 as uuidv7 } from 'uuid';
import {
  DEFAULT_KIOSK_SETTINGS,
  KioskSettingsSchema,
  type KioskSettings,
  type SmartLockInput,
  type SmartLockPatch,
  type StudioKioskInput,
  type StudioKioskPatch,
} from '../../../../shared/contracts/api/kiosk';
import { AppError } from '../../../../shared/errors';
import type { StudioKiosksRow, StudioSmartLocksRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { loadQrCode } from '../../libraries';
import type { Studio } from '../identity/index';
import { newSecret } from '../identity/index';
import type { KioskDoor, SmartLockTestReason } from '../../../../shared/contracts/api/kiosk';
import type { HttpRelayConfig, SmartLockAnswer, SmartLockTarget } from './smart-lock-driver';
import { smartLockDriverFor } from './smart-lock-driver';

/**
 * A kiosk as read (`kioskKey` null for the default kiosk: it signs in with the studio's kiosk key),
 * its settings over the defaults; `ticketPrinter` is the jsonb as stored, read through `ticketPrinterOf`.
 */
export type KioskRow = Omit<StudioKiosksRow, 'updatedAt' | 'settings' | 'ticketPrinter'> & {
  settings: KioskSettings;
  ticketPrinter?: unknown;
};

/** A smart lock as read: the driver and its config are the ones the lock was saved with (zod-checked). */
export type SmartLockRow = Omit<StudioSmartLocksRow, 'updatedAt' | 'driver' | 'config' | 'lastTestReason'> & {
  driver: 'httpRelay';
  config: HttpRelayConfig;
  lastTestReason: SmartLockTestReason | null;
};

const KIOSK_COLUMNS = [
  'id',
  'studioId',
  'name',
  'isDefault',
  'kioskKey',
  'locationId',
  'smartLockId',
  'settings',
  'createdAt',
  'ticketPrinter',
] as const;

/** Stored settings over the defaults; a row written before a setting existed still reads whole. */
export function settingsOf(raw: unknown): KioskSettings {
  const merged = { ...DEFAULT_KIOSK_SETTINGS, ...((raw as object | null) ?? {}) };
  const parsed = KioskSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_KIOSK_SETTINGS;
}

function toKiosk(row: Omit<KioskRow, 'settings'> & { settings: unknown }): KioskRow {
  return { ...row, settings: settingsOf(row.settings) };
}

export async function kioskRow(db: Db, studioId: string, id: string): Promise<KioskRow | undefined> {
  const row = await db('studio_kiosks')
    .where({ studioId, id })
    .first(...KIOSK_COLUMNS);
  return row ? toKiosk(row) : undefined;
}

async function requireKioskRow(db: Db, studioId: string, id: string): Promise<KioskRow> {
  const row = await kioskRow(db, studioId, id);
  if (!row) throw AppError.notFound('kiosk');
  return row;
}

/**
 * The studio's kiosks, the default one first. Every studio has its default kiosk from its creation
 * (entry's studio/create, the demo seed, migration 0032 for older studios); a read never writes.
 */
export async function listKiosks(db: Db, studio: Studio): Promise<KioskRow[]> {
  const rows = await db('studio_kiosks')
    .where({ studioId: studio.id })
    .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'name' }, { column: 'id' }])
    .select(...KIOSK_COLUMNS);
  return rows.map(toKiosk);
}

/** A location or lock named in a kiosk must be this studio's: a 400 on the field otherwise. */
async function checkReferences(
  db: Db,
  studioId: string,
  input: { locationId?: string | null; smartLockId?: string | null },
): Promise<void> {
  const fields: Record<string, string[]> = {};
  if (input.locationId) {
    const found = await db('locations').where({ studioId, id: input.locationId }).first('id');
    if (!found) fields.locationId = ['unknown location'];
  }
  if (input.smartLockId) {
    const found = await db('studio_smart_locks').where({ studioId, id: input.smartLockId }).first('id');
    if (!found) fields.smartLockId = ['unknown smart lock'];
  }
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
}

export async function createKiosk(trx: Db, studio: Studio, input: StudioKioskInput): Promise<KioskRow> {
  await checkReferences(trx, studio.id, input);
  const id = uuidv7();
  await trx('studio_kiosks').insert({
    id,
    studioId: studio.id,
    name: input.name,
    isDefault: false,
    kioskKey: newSecret(12),
    locationId: input.locationId,
    smartLockId: input.smartLockId,
    settings: JSON.stringify(input.settings),
  });
  return requireKioskRow(trx, studio.id, id);
}

export async function updateKiosk(
  trx: Db,
  studio: Studio,
  id: string,
  patch: StudioKioskPatch,
  now: Date,
): Promise<KioskRow> {
  const kiosk = await requireKioskRow(trx, studio.id, id);
  await checkReferences(trx, studio.id, patch);
  const changes: Record<string, unknown> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.locationId !== undefined) changes.location_id = patch.locationId;
  if (patch.smartLockId !== undefined) changes.smart_lock_id = patch.smartLockId;
  if (patch.settings !== undefined) changes.settings = JSON.stringify(patch.settings);
  if (patch.regenerateKey) {
    // The default kiosk's key is the studio's kiosk key (the entry app's /kiosk sign-in).
    if (kiosk.isDefault)
      await trx('studios')
        .where({ id: studio.id })
        .update({ kioskKey: newSecret(12), updatedAt: now });
    else changes.kiosk_key = newSecret(12);
    await trx('kiosk_sessions')
      .where({ kioskId: kiosk.id })
      .whereNull('revoked_at')
      .update({ revokedAt: now });
  }
  if (Object.keys(changes).length > 0)
    await trx('studio_kiosks')
      .where({ id: kiosk.id })
      .update({ ...changes, updatedAt: now });
  return requireKioskRow(trx, studio.id, id);
}

export async function deleteKiosk(trx: Db, studio: Studio, id: string): Promise<void> {
  const kiosk = await requireKioskRow(trx, studio.id, id);
  if (kiosk.isDefault)
    throw new AppError('kiosk.defaultKioskLocked', {
      message: 'the studio kiosk cannot be removed',
      fields: { kioskId: ['the studio kiosk cannot be removed'] },
    });
  await trx('studio_kiosks').where({ id: kiosk.id }).delete();
}

export function kioskUrl(publicUrl: string, studioId: string, kioskId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/${studioId}/kiosk/${kioskId}`;
}

/**
 * The QR code that sets a device up: the kiosk's address with its key in the URL fragment, which a
 * browser never sends to a server. The kiosk app stores the key and drops the fragment.
 */
export async function kioskQrCode(
  db: Db,
  studio: Studio,
  id: string,
  publicUrl: string,
): Promise<{ url: string; svg: string }> {
  const kiosk = await requireKioskRow(db, studio.id, id);
  const key = kiosk.kioskKey ?? studio.kioskKey;
  const url = `${kioskUrl(publicUrl, studio.id, kiosk.id)}#key=${encodeURIComponent(key)}`;
  const svg = await (await loadQrCode()).toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { url, svg };
}

// ------------------------------------------------------------------------------------ smart locks

const LOCK_COLUMNS = [
  'id',
  'studioId',
  'name',
  'driver',
  'config',
  'lastTestedAt',
  'lastTestOk',
  'lastTestMessage',
  'lastTestReason',
  'lastTestStatus',
  'createdAt',
] as const;

/** The jsonb config and the driver's names, as the lock's zod-checked input wrote them. */
const lockOf = (row: Omit<StudioSmartLocksRow, 'updatedAt'>): SmartLockRow => row as SmartLockRow;

export async function listSmartLocks(db: Db, studioId: string): Promise<SmartLockRow[]> {
  const rows = await db('studio_smart_locks')
    .where({ studioId })
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .select(...LOCK_COLUMNS);
  return rows.map(lockOf);
}

export async function smartLockRow(db: Db, studioId: string, id: string): Promise<SmartLockRow> {
  const row = await db('studio_smart_locks')
    .where({ studioId, id })
    .first(...LOCK_COLUMNS);
  if (!row) throw AppError.notFound('smart lock');
  return lockOf(row);
}

/** Kiosk ids per lock, for the lock list. */
export async function kiosksByLock(db: Db, studioId: string): Promise<Map<string, string[]>> {
  const rows = await db('studio_kiosks')
    .where({ studioId })
    .whereNotNull('smart_lock_id')
    .orderBy('id')
    .select('id', 'smartLockId');
  const map = new Map<string, string[]>();
  for (const { id, smartLockId } of rows)
    if (smartLockId) map.set(smartLockId, [...(map.get(smartLockId) ?? []), id]);
  return map;
}

function configOf(input: SmartLockInput['config'], previous: HttpRelayConfig | null): HttpRelayConfig {
  return {
    url: input.url,
    method: input.method,
    // Absent keeps the stored secret (the form never shows it), null clears it.
    secret: input.secret === undefined ? (previous?.secret ?? null) : input.secret || null,
    openSeconds: input.openSeconds,
  };
}

export async function createSmartLock(trx: Db, studio: Studio, input: SmartLockInput): Promise<SmartLockRow> {
  const id = uuidv7();
  await trx('studio_smart_locks').insert({
    id,
    studioId: studio.id,
    name: input.name,
    driver: input.driver,
    config: JSON.stringify(configOf(input.config, null)),
  });
  return smartLockRow(trx, studio.id, id);
}

export async function updateSmartLock(
  trx: Db,
  studio: Studio,
  id: string,
  patch: SmartLockPatch,
  now: Date,
): Promise<SmartLockRow> {
  const lock = await smartLockRow(trx, studio.id, id);
  const changes: Record<string, unknown> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.config !== undefined) {
    changes.config = JSON.stringify(configOf(patch.config, lock.config));
    // A new address or secret makes the last test say nothing about the lock any more.
    changes.last_tested_at = null;
    changes.last_test_ok = null;
    changes.last_test_message = null;
    changes.last_test_reason = null;
    changes.last_test_status = null;
  }
  if (Object.keys(changes).length > 0)
    await trx('studio_smart_locks')
      .where({ id: lock.id })
      .update({ ...changes, updatedAt: now });
  return smartLockRow(trx, studio.id, id);
}

export async function deleteSmartLock(trx: Db, studio: Studio, id: string): Promise<void> {
  const lock = await smartLockRow(trx, studio.id, id);
  // Kiosks that opened it keep working without a lock (foreign key sets null).
  await trx('studio_smart_locks').where({ id: lock.id }).delete();
}

export function lockTarget(row: SmartLockRow): SmartLockTarget {
  return { id: row.id, driver: row.driver, config: row.config };
}

/** The relay of the kiosk's own lock, secret included: only for its desk station (kiosk.routes `door`). */
export async function kioskDoor(db: Db, studio: Studio, kiosk: KioskRow): Promise<KioskDoor> {
  if (!kiosk.smartLockId) return { lock: null };
  const row = await db('studio_smart_locks')
    .where({ studioId: studio.id, id: kiosk.smartLockId })
    .first(...LOCK_COLUMNS);
  if (!row) return { lock: null };
  const target = lockTarget(lockOf(row));
  return {
    lock: {
      id: target.id,
      driver: target.driver,
      config: {
        url: target.config.url,
        method: target.config.method,
        secret: target.config.secret ?? null,
        openSeconds: target.config.openSeconds,
      },
    },
  };
}

/** Asks the lock's driver for a test and records the answer on the lock. */
export async function testSmartLock(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
): Promise<SmartLockAnswer & { testedAt: Date }> {
  const lock = await smartLockRow(db, studio.id, id);
  const answer = await smartLockDriverFor(lockTarget(lock)).test(lockTarget(lock));
  await db('studio_smart_locks')
    .where({ id: lock.id })
    .update({
      lastTestedAt: now,
      lastTestOk: answer.ok,
      lastTestMessage: answer.message.slice(0, 300),
      lastTestReason: answer.reason,
      lastTestStatus: answer.httpStatus,
    });
  return { ...answer, testedAt: now };
}
