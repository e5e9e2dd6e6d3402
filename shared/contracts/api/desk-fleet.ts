import { z } from 'zod';

/**
 * The desk fleet (issue 29): update channels, what a station reports at each contact, and the back
 * office's view of every desk and kiosk. cloud/src/modules/desk-fleet/README.md.
 */

export const DESK_CHANNELS = ['stable', 'beta'] as const;
export const DeskChannelSchema = z.enum(DESK_CHANNELS);
export type DeskChannel = z.infer<typeof DeskChannelSchema>;

export const DESK_PLATFORMS = ['win', 'mac'] as const;
export const DeskPlatformSchema = z.enum(DESK_PLATFORMS);
export type DeskPlatform = z.infer<typeof DeskPlatformSchema>;

/** The feed file electron-updater's generic provider asks for, per platform. */
export const FEED_FILES: Record<DeskPlatform, string> = { win: 'latest.yml', mac: 'latest-mac.yml' };

/**
 * The oldest desk the cloud accepts. A desk sends its version in `x-desk-version` on every /sync and
 * /desktop call; an older one is refused (`desktop.tooOld`, 426) and stops taking sales until it
 * updates. Desks of releases before the fleet send no version: they are taken as 0.1.0, accepted while
 * the floor is 0.1.0. Raise it (and `DESK_OLDEST_VERSION` in the environment overrides it) only when a
 * release drops a command version the older desks still send.
 */
export const OLDEST_DESK_VERSION = '0.1.0';
export const DESK_VERSION_HEADER = 'x-desk-version';
/** The version a desk that sends none is taken for (the releases before the fleet). */
export const PRE_FLEET_DESK_VERSION = '0.1.0';

const SEMVER = /^\d{1,5}\.\d{1,5}\.\d{1,5}(?:-[0-9A-Za-z.-]{1,40})?$/;
export const DeskVersionSchema = z.string().regex(SEMVER, 'not a version (major.minor.patch)');

/** A station has not synced for this long: the back office flags it. */
export const STALE_SYNC_HOURS = 4;

export const PRINTER_STATES = ['ok', 'paperOut', 'paperLow', 'error', 'offline'] as const;
export const PrinterReportSchema = z.strictObject({
  state: z.enum(PRINTER_STATES),
  /** The driver's last message (e.g. the fiscal printer's error text), shown as it is. */
  message: z.string().max(200).nullable(),
  /** Receipts whose outcome the desk does not know yet (pos_receipts printing/needsAttention). */
  unsettled: z.int().min(0).max(100_000),
});
export type PrinterReport = z.infer<typeof PrinterReportSchema>;

export const StationErrorSchema = z.strictObject({
  at: z.iso.datetime({ offset: true }),
  source: z.string().min(1).max(40),
  message: z.string().min(1).max(500),
});
export type StationError = z.infer<typeof StationErrorSchema>;

export const StationPrintersSchema = z.strictObject({
  fiscal: PrinterReportSchema.nullable(),
  ticket: PrinterReportSchema.nullable(),
});

/** `POST /desktop/station/report` (device token): what the station says at each contact. */
export const StationReportInputSchema = z.strictObject({
  version: DeskVersionSchema,
  platform: z.string().min(1).max(16),
  mode: z.enum(['desk', 'kiosk']),
  outboxDepth: z.int().min(0).max(10_000_000),
  lastSyncAt: z.iso.datetime({ offset: true }).nullable(),
  printers: StationPrintersSchema,
  recentErrors: z.array(StationErrorSchema).max(20),
});
export type StationReportInput = z.infer<typeof StationReportInputSchema>;

export const StationReportResultSchema = z.object({
  channel: DeskChannelSchema,
  /** Feed URL path of the channel (`/desktop/updates/stable`), for electron-updater's generic provider. */
  feedPath: z.string(),
  oldestAccepted: DeskVersionSchema,
  accepted: z.boolean(),
  /** Staff asked for the station's logs: upload them now (`POST /desktop/station/logs`). */
  uploadLogs: z.boolean(),
  serverTime: z.iso.datetime(),
});
export type StationReportResult = z.infer<typeof StationReportResultSchema>;

/** `POST /desktop/station/logs` (device token): the station's log tail, as text. */
export const StationLogsInputSchema = z.strictObject({ text: z.string().max(900_000) });

export const CrashSummarySchema = z.object({
  id: z.uuid(),
  receivedAt: z.iso.datetime(),
  version: z.string(),
  processType: z.string(),
  size: z.int(),
});

export const FleetStationSchema = z.object({
  deviceId: z.uuid(),
  name: z.string(),
  mode: z.enum(['desk', 'kiosk']).nullable(),
  registeredAt: z.iso.datetime(),
  /** Last contact of any kind (sync calls and reports). */
  lastContactAt: z.iso.datetime().nullable(),
  lastSyncAt: z.iso.datetime().nullable(),
  version: z.string().nullable(),
  platform: z.string().nullable(),
  outboxDepth: z.int().nullable(),
  printers: StationPrintersSchema,
  recentErrors: z.array(StationErrorSchema),
  /** Not synced for STALE_SYNC_HOURS (or never). */
  stale: z.boolean(),
  /** Older than the oldest version the cloud accepts. */
  tooOld: z.boolean(),
  /** Inside the staged rollout of its channel's newest release for its platform (null: none published). */
  inRollout: z.boolean().nullable(),
  logs: z.object({ requestedAt: z.iso.datetime().nullable(), uploadedAt: z.iso.datetime().nullable() }),
  crashes: z.array(CrashSummarySchema),
});
export type FleetStation = z.infer<typeof FleetStationSchema>;

export const DeskReleaseSchema = z.object({
  id: z.uuid(),
  channel: DeskChannelSchema,
  platform: DeskPlatformSchema,
  version: z.string(),
  stagingPercentage: z.int().nullable(),
  publishedAt: z.iso.datetime(),
});
export type DeskRelease = z.infer<typeof DeskReleaseSchema>;

export const DeskFleetSchema = z.object({
  channel: DeskChannelSchema,
  oldestAccepted: z.string(),
  staleAfterHours: z.int(),
  releases: z.array(DeskReleaseSchema),
  /** Older releases of each channel and platform (no longer in the feed), newest first. */
  pastReleases: z.array(DeskReleaseSchema),
  /** The signed-in person may delete past releases (DESK_RELEASE_MANAGERS, cloud README). */
  canDeleteReleases: z.boolean(),
  stations: z.array(FleetStationSchema),
});
export type DeskFleet = z.infer<typeof DeskFleetSchema>;

export const DeskChannelInputSchema = z.strictObject({ channel: DeskChannelSchema });

/**
 * Who may delete past releases from the back office: releases are the product's, shared by every
 * studio, so a studio's rights are not enough — the operators' e-mails are listed in the cloud's
 * `DESK_RELEASE_MANAGERS` (comma-separated). Nobody when unset.
 */
export function isReleaseManager(email: string, managers: string | undefined): boolean {
  const list = (managers ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return list.includes(email.trim().toLowerCase());
}
