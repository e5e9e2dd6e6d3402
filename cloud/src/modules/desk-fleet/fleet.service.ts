import semver from 'semver';
import { v7 as uuidv7 } from 'uuid';
import {
  DeskChannelSchema,
  isReleaseManager,
  OLDEST_DESK_VERSION,
  PRE_FLEET_DESK_VERSION,
  PrinterReportSchema,
  STALE_SYNC_HOURS,
  StationErrorSchema,
  type DeskChannel,
  type DeskFleet,
  type DeskPlatform,
  type FleetStation,
  type PrinterReport,
  type StationError,
  type StationReportInput,
} from '../../../../shared/contracts/api/desk-fleet';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { FileStorage } from '../../storage';
import { latestRelease, latestReleases, pastReleases } from './releases.service';

/** The oldest desk version accepted: DESK_OLDEST_VERSION in the environment, else the constant. */
export function oldestAccepted(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.DESK_OLDEST_VERSION;
  return v && semver.valid(v) ? v : OLDEST_DESK_VERSION;
}

/** A desk's version as it says it (`x-desk-version`), pre-fleet desks sending none. */
export function deskVersion(header: string | undefined): string {
  return header && semver.valid(header) ? header : PRE_FLEET_DESK_VERSION;
}

export function isAccepted(version: string, oldest = oldestAccepted()): boolean {
  return semver.gte(version, oldest);
}

/**
 * electron-updater's staged rollout (AppUpdater.isStagingMatch): the station's staging id (the desk
 * writes its sync device id into `.updaterId`) read as bytes 12–15 of the UUID, over 0xffffffff,
 * below the percentage. The cloud computes the same to show who is in the rollout.
 */
export function inStagingRollout(stationId: string, stagingPercentage: number | null): boolean {
  if (stagingPercentage === null) return true;
  const val = parseInt(stationId.replace(/-/g, '').slice(24, 32), 16);
  return val / 0xffffffff < stagingPercentage / 100;
}

export async function studioChannel(db: Db, studioId: string): Promise<DeskChannel> {
  const row: { channel: string } | undefined = await db('desk_fleet_settings')
    .where({ studioId })
    .first('channel');
  return DeskChannelSchema.catch('stable').parse(row?.channel);
}

export async function setStudioChannel(
  db: Db,
  studioId: string,
  channel: DeskChannel,
  now: Date,
): Promise<void> {
  await db('desk_fleet_settings')
    .insert({ studioId, channel, updatedAt: now })
    .onConflict('studioId')
    .merge(['channel', 'updatedAt']);
}

/** Records what a station says at its contact; answers whether staff asked for its logs. */
export async function recordReport(
  db: Db,
  device: { id: string; studioId: string },
  input: StationReportInput,
  now: Date,
): Promise<{ uploadLogs: boolean }> {
  const values = {
    studioId: device.studioId,
    appVersion: input.version,
    platform: input.platform,
    mode: input.mode,
    outboxDepth: input.outboxDepth,
    lastSyncAt: input.lastSyncAt ? new Date(input.lastSyncAt) : null,
    lastContactAt: now,
    printers: JSON.stringify(input.printers),
    recentErrors: JSON.stringify(input.recentErrors.slice(0, 20)),
  };
  const [row]: Array<{ logsRequestedAt: Date | null }> = await db('desk_station_reports')
    .insert({ deviceId: device.id, ...values })
    .onConflict('deviceId')
    .merge(Object.keys(values) as Array<keyof typeof values>)
    .returning(['logsRequestedAt']);
  return { uploadLogs: Boolean(row?.logsRequestedAt) };
}

export async function requestLogs(db: Db, studioId: string, deviceId: string, userId: string, now: Date) {
  await stationDevice(db, studioId, deviceId);
  await db('desk_station_reports')
    .insert({
      deviceId,
      studioId,
      appVersion: '',
      lastContactAt: now,
      logsRequestedAt: now,
      logsRequestedBy: userId,
    })
    .onConflict('deviceId')
    .merge(['logsRequestedAt', 'logsRequestedBy']);
}

/** Stores the station's logs (asked for by staff) and clears the request. */
export async function storeLogs(
  db: Db,
  storage: FileStorage,
  device: { id: string; studioId: string },
  text: string,
  now: Date,
): Promise<void> {
  const row: { logsRequestedAt: Date | null } | undefined = await db('desk_station_reports')
    .where({ deviceId: device.id })
    .forUpdate()
    .first('logsRequestedAt');
  if (!row?.logsRequestedAt)
    throw new AppError('desktop.logsNotRequested', { message: 'nobody asked for this station’s logs' });
  const key = `desk-logs/${device.studioId}/${device.id}`;
  await storage.put(key, Buffer.from(text, 'utf8'), 'text/plain; charset=utf-8');
  await db('desk_station_reports')
    .where({ deviceId: device.id })
    .update({ logsRequestedAt: null, logsRequestedBy: null, logsUploadedAt: now, logsKey: key });
}

export async function readLogs(db: Db, storage: FileStorage, studioId: string, deviceId: string) {
  await stationDevice(db, studioId, deviceId);
  const row: { logsKey: string | null } | undefined = await db('desk_station_reports')
    .where({ deviceId })
    .first('logsKey');
  const bytes = row?.logsKey ? await storage.read(row.logsKey) : null;
  if (!bytes) throw AppError.notFound('logs');
  return bytes;
}

/** A sync device of the studio (revoked ones too: their history is still shown), else 404. */
async function stationDevice(db: Db, studioId: string, deviceId: string) {
  const row: { id: string } | undefined = await db('sync_devices')
    .where({ id: deviceId, studioId })
    .first('id');
  if (!row) throw AppError.notFound('station');
  return row;
}

export async function storeCrash(
  db: Db,
  storage: FileStorage,
  device: { id: string; studioId: string },
  crash: { fields: Record<string, string>; dump: Buffer | null },
  now: Date,
): Promise<string> {
  const id = uuidv7();
  const key = crash.dump ? `desk-crashes/${device.studioId}/${id}` : null;
  if (key && crash.dump) await storage.put(key, crash.dump, 'application/octet-stream');
  const f = crash.fields;
  await db('desk_crash_reports').insert({
    id,
    studioId: device.studioId,
    deviceId: device.id,
    appVersion: (f._version ?? f.ver ?? '').slice(0, 64),
    platform: (f.platform ?? '').slice(0, 16),
    processType: (f.process_type ?? f.ptype ?? '').slice(0, 32),
    storageKey: key,
    size: crash.dump?.length ?? 0,
    fields: JSON.stringify(f),
    receivedAt: now,
  });
  return id;
}

const parseList = <T>(value: unknown, parse: (v: unknown) => T | null): T[] =>
  Array.isArray(value) ? value.map(parse).filter((v): v is T => v !== null) : [];
const printer = (v: unknown): PrinterReport | null => {
  const p = PrinterReportSchema.safeParse(v);
  return p.success ? p.data : null;
};

type DeviceRow = {
  id: string;
  name: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  appVersion: string | null;
  platform: string | null;
  mode: string | null;
  outboxDepth: number | null;
  lastSyncAt: Date | null;
  lastContactAt: Date | null;
  printers: { fiscal?: unknown; ticket?: unknown } | null;
  recentErrors: unknown;
  logsRequestedAt: Date | null;
  logsUploadedAt: Date | null;
};

/** Back office → Stations: every live sync device of the studio with what it last reported. */
export async function deskFleet(
  db: Db,
  studioId: string,
  now: Date,
  viewer: { email: string } | null = null,
): Promise<DeskFleet> {
  const channel = await studioChannel(db, studioId);
  const oldest = oldestAccepted();
  const devices: DeviceRow[] = await db('sync_devices as d')
    .leftJoin('desk_station_reports as r', 'r.deviceId', 'd.id')
    .where('d.studioId', studioId)
    .whereNull('d.revokedAt')
    .orderBy('d.name')
    .orderBy('d.id')
    .select(
      'd.id',
      'd.name',
      'd.createdAt',
      'd.lastSeenAt',
      'r.appVersion',
      'r.platform',
      'r.mode',
      'r.outboxDepth',
      'r.lastSyncAt',
      'r.lastContactAt',
      'r.printers',
      'r.recentErrors',
      'r.logsRequestedAt',
      'r.logsUploadedAt',
    );
  const crashes: Array<{
    id: string;
    deviceId: string;
    receivedAt: Date;
    appVersion: string;
    processType: string;
    size: number;
  }> = await db('desk_crash_reports')
    .where({ studioId })
    .orderBy('receivedAt', 'desc')
    .limit(200)
    .select('id', 'deviceId', 'receivedAt', 'appVersion', 'processType', 'size');
  const rollout = new Map<DeskPlatform, number | null | undefined>();
  for (const platform of ['win', 'mac'] as const)
    rollout.set(platform, (await latestRelease(db, channel, platform))?.stagingPercentage);

  const stations = devices.map((d): FleetStation => {
    const contact = [d.lastSeenAt, d.lastContactAt]
      .filter((x): x is Date => x !== null)
      .sort((a, b) => +b - +a)[0];
    const version = d.appVersion || null;
    const platform: DeskPlatform | null =
      d.platform === 'darwin' ? 'mac' : d.platform === 'win32' ? 'win' : null;
    const staging = platform ? rollout.get(platform) : undefined;
    return {
      deviceId: d.id,
      name: d.name,
      mode: d.mode === 'kiosk' ? 'kiosk' : d.mode === 'desk' ? 'desk' : null,
      registeredAt: d.createdAt.toISOString(),
      lastContactAt: contact ? contact.toISOString() : null,
      lastSyncAt: d.lastSyncAt ? d.lastSyncAt.toISOString() : null,
      version,
      platform: d.platform || null,
      outboxDepth: d.outboxDepth,
      printers: { fiscal: printer(d.printers?.fiscal), ticket: printer(d.printers?.ticket) },
      recentErrors: parseList<StationError>(d.recentErrors, (v) => {
        const e = StationErrorSchema.safeParse(v);
        return e.success ? e.data : null;
      }),
      stale: !d.lastSyncAt || now.getTime() - d.lastSyncAt.getTime() > STALE_SYNC_HOURS * 3_600_000,
      tooOld: !isAccepted(version ?? PRE_FLEET_DESK_VERSION, oldest),
      inRollout: staging === undefined ? null : inStagingRollout(d.id, staging),
      logs: {
        requestedAt: d.logsRequestedAt ? d.logsRequestedAt.toISOString() : null,
        uploadedAt: d.logsUploadedAt ? d.logsUploadedAt.toISOString() : null,
      },
      crashes: crashes
        .filter((c) => c.deviceId === d.id)
        .slice(0, 5)
        .map((c) => ({
          id: c.id,
          receivedAt: c.receivedAt.toISOString(),
          version: c.appVersion,
          processType: c.processType,
          size: c.size,
        })),
    };
  });
  return {
    channel,
    oldestAccepted: oldest,
    staleAfterHours: STALE_SYNC_HOURS,
    releases: await latestReleases(db),
    pastReleases: await pastReleases(db),
    canDeleteReleases: viewer ? isReleaseManager(viewer.email, process.env.DESK_RELEASE_MANAGERS) : false,
    stations,
  };
}

export async function fleetStation(
  db: Db,
  studioId: string,
  deviceId: string,
  now: Date,
): Promise<FleetStation> {
  const fleet = await deskFleet(db, studioId, now);
  const station = fleet.stations.find((s) => s.deviceId === deviceId);
  if (!station) throw AppError.notFound('station');
  return station;
}
