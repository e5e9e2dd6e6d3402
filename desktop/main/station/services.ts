import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppInfo } from '../../../shared/contracts/ipc';
import type { SmartLockDriver } from '../../../shared/domain/smart-locks/http-relay';
import { KioskStation } from '../kiosk/kiosk-station';
import { StudioPictures } from './studio-pictures';
import { CloudClient } from './cloud-client';
import { OfflineApi } from './offline-api';
import { SyncNotices } from '../sync/notices';
import type { FiscalPrinter } from '../printing/fiscal-printer';
import type { TicketPrinterInterface } from '../printing/escpos/interfaces';
import { TicketPrinterResolver, type TicketPrinterTarget } from '../printing/ticket-printer-resolver';
import { StationPos } from './pos.service';
import { StationService } from './station.service';
import { StationStore, type SecretBox } from './station-store';
import { openStationSync } from './station-sync';
import { ReachabilityProbe, type SyncEnginePort } from './sync-port';
import type { PosState } from '../../../shared/contracts/ipc/pos';
import type { AppError } from '../../../shared/errors/app-error';
import { DESK_VERSION_HEADER } from '../../../shared/contracts/api/desk-fleet';
import { DeskUpdater, type UpdaterLike } from '../fleet/desk-updater';
import { deskLogText } from '../fleet/desk-log';
import { StationReporter } from '../fleet/station-reporter';
import { TicketPrinterHealth } from '../fleet/ticket-health';
import { createDeskLogger, type DeskLogger } from '../fleet/desk-logger';

export interface MainServicesOptions {
  /** Where station.json lives: Electron's userData folder, a temporary folder on the host. */
  dataDir: string;
  cloudUrl: string;
  runtime: AppInfo['runtime'];
  version: string;
  platform?: string;
  /**
   * The sync engine: `'local'` opens desktop/main/sync's engine on `dataDir/station.db` (the app and
   * the host); tests pass their own port; null or absent: no engine (pending and last sync unknown).
   */
  sync?: SyncEnginePort | 'local' | null;
  secretBox?: SecretBox | null;
  probeIntervalMs?: number;
  fetch?: typeof fetch;
  /**
   * `DESKTOP_TICKET_PRINTER` (`tcp://host:port`, `file:/path`) or an attached interface: the ESC/POS
   * printer of both the POS and the kiosk, over the cloud's settings (desktop/main/printing/README.md
   * "Which ticket printer"). Absent: each prints where the back office set it up.
   */
  ticketPrinter?: string | TicketPrinterInterface | null;
  /** The POS's printers when the app or host attaches them (the emulator); else the cloud's settings. */
  pos?: { fiscalPrinter?: FiscalPrinter | null; ticketInterface?: TicketPrinterInterface | null };
  /** Kiosk mode (desktop/main/kiosk): `kiosk` shows the kiosk screens; the slip printer (`tcp://…`, `file:…`). */
  kiosk?: {
    mode?: 'desk' | 'kiosk';
    ticketPrinter?: string | TicketPrinterInterface | null;
    /** The door's relay driver (tests); the HTTP relay by default. */
    doorDriver?: SmartLockDriver;
  };
  /**
   * Self-update (desktop/main/fleet, issue 29): electron-updater's autoUpdater in the app (absent on
   * the host: it never installs), how to run the downloaded installer, and the file electron-updater
   * reads its staging id from (`userData/.updaterId`; the station's device id is written there).
   */
  updates?: { updater: UpdaterLike; install: () => void; stagingIdFile?: string; checkEveryMs?: number };
  /** How often the station reports to the fleet (Back office → Stations); 60 s. */
  reportIntervalMs?: number;
  /** The desk's log files (desktop/main/fleet/desk-logger.ts); `<dataDir>/logs` by default. */
  logDir?: string;
}

export interface MainServices {
  station: StationService;
  /** The engine behind the status bar (null without one). */
  sync: SyncEnginePort | null;
  /** Outcomes to show the desk (only with the station's own engine). */
  notices: SyncNotices | null;
  /** The point of sale (only with the station's own engine: sales are recorded in station.db). */
  pos: StationPos | null;
  /** The kiosk screens' calls (kiosk mode). */
  kiosk: KioskStation;
  /** The station's contact with the fleet (only with the station's own engine). */
  reporter: StationReporter | null;
  /** The self-update decision (only in the app). */
  updater: DeskUpdater | null;
  /** The desk's rotating log files ("Upload logs" sends their tail). */
  log: DeskLogger;
  info: AppInfo;
  stop(): Promise<void>;
}

/**
 * The composition root of main's services, free of Electron: desktop/main/index.ts and desktop/host
 * both build the same services from here, so the host tests what the app runs.
 */
export function createMainServices(options: MainServicesOptions): MainServices {
  // The store first: it creates the data folder 0700 before the database file goes into it.
  const store = new StationStore(options.dataDir, options.secretBox ?? null);
  const log = createDeskLogger({ dir: options.logDir ?? path.join(options.dataDir, 'logs') });
  log.info(
    'start',
    `studio desk ${options.version} (${options.runtime}, ${options.platform ?? process.platform})`,
  );
  // Every sync call says the desk's version: the cloud refuses versions it no longer accepts.
  const baseFetch = options.fetch ?? fetch;
  const versionedFetch: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(DESK_VERSION_HEADER, options.version);
    return baseFetch(input, { ...init, headers });
  };
  const local = options.sync === 'local' ? openStationSync(options.dataDir, { fetch: versionedFetch }) : null;
  const sync: SyncEnginePort | null = local ?? (options.sync === 'local' ? null : (options.sync ?? null));
  // The offline subset of the API, from the engine's mirror (only with the station's own engine).
  const offline = local ? new OfflineApi(local.engine) : null;
  // Outcomes that came back different from the desk's offline guess (desktop/main/sync/notices.ts).
  const notices = local ? new SyncNotices(local.engine.db, local.engine.store) : null;
  // The cloud answers again: push what waited now rather than at the engine's next poll.
  const probe = new ReachabilityProbe(options.probeIntervalMs, (online) => {
    if (online) sync?.kick?.();
  });
  const cloud = new CloudClient(options.cloudUrl, {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onReachability: (reachable, error) => probe.report(reachable, error),
  });
  probe.attach(cloud);
  probe.start();
  // The studio's look (appearance, logo, cover) for the renderer, kept in <dataDir>/studio-look.
  const pictures = new StudioPictures({
    dataDir: options.dataDir,
    cloudUrl: cloud.baseUrl,
    report: (reachable, error) => probe.report(reachable, error),
    // A silent cloud does not hold the logo long: the kept copy answers after 3 s.
    timeoutMs: 3_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const station = new StationService({
    store,
    cloud,
    probe,
    sync,
    offline,
    pictures,
  });
  // The ticket printers the back office set for this desk's POS station and kiosk, kept for offline.
  const ticketPrinters = new TicketPrinterResolver({
    dataDir: options.dataDir,
    cloudUrl: cloud.baseUrl,
    studioUuid: () => station.state().device?.studioUuid ?? null,
    deviceToken: () => local?.engine.store.getMeta('deviceToken') ?? null,
    override: options.ticketPrinter ?? null,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // How the ticket printer's last job ended, for Back office → Stations (a failure is a recent error).
  const ticketHealth = new TicketPrinterHealth((message) => reporter?.noteError('ticket', message));
  const posTarget = (): TicketPrinterTarget | null => {
    const row = local?.engine.db.prepare('select slug from pos_station where id = 1').get() as
      { slug: string } | undefined;
    return row ? { kind: 'pos', slug: row.slug } : null;
  };
  const kioskTarget = (): TicketPrinterTarget | null => {
    // Not kiosk.state(): that asks for the printer, which asks for this target.
    const kioskId = kiosk.kioskId();
    return kioskId ? { kind: 'kiosk', kioskId } : null;
  };
  const pos: StationPos | null = local
    ? new StationPos({
        engine: local.engine,
        forward: (request) => station.forwardApi(request),
        staff: () => {
          const staff = station.state().staff;
          return staff ? { userId: staff.userId, name: `${staff.firstName} ${staff.lastName}` } : null;
        },
        studioUuid: () => station.state().device?.studioUuid ?? null,
        deviceId: () => station.state().device?.deviceId ?? null,
        studioName: () => station.state().device?.studioName ?? '',
        locale: () => station.state().locale,
        isOnline: () => probe.isOnline,
        fiscalPrinter: options.pos?.fiscalPrinter ?? null,
        ticketInterface:
          ticketHealth.watch(options.pos?.ticketInterface ?? null) ??
          (() => ticketHealth.watch(ticketPrinters.interfaceFor(posTarget()))),
        onBackgroundError: (error) => {
          reporter?.noteError('pos', error instanceof Error ? error.message : String(error));
          console.warn('[pos]', error instanceof Error ? error.message : error);
        },
        refuseSales: (): AppError | null => reporter?.refusal() ?? null,
      })
    : null;
  const reporter: StationReporter | null = local
    ? new StationReporter({
        cloudUrl: cloud.baseUrl,
        version: options.version,
        platform: options.platform ?? process.platform,
        mode: options.kiosk?.mode ?? 'desk',
        deviceToken: () => local.engine.store.getMeta('deviceToken'),
        sync: () => local.engine.status(),
        pos: (): PosState | null => (pos?.state().station ? pos.state() : null),
        ticket: () =>
          ticketHealth.report(
            (options.kiosk?.mode === 'kiosk' ? kiosk.state().ticketPrinter : pos?.state().printer.ticket) ??
              false,
          ),
        // Staff asked: the state now goes into the log, and the log files' tail is what is sent.
        logs: () => {
          log.info('upload', deskLogText(local.engine, reporter!, options));
          return log.tail(800_000);
        },
        onError: (source, message) => log.error(source, message),
        onAnswer: (answer) => {
          if (!updater) return;
          const deviceId = local.engine.deviceId;
          if (deviceId && options.updates?.stagingIdFile)
            writeStagingId(options.updates.stagingIdFile, deviceId);
          updater.feed(`${cloud.baseUrl}${answer.feedPath}`);
          const now = Date.now();
          if (
            now - lastCheck >= (options.updates?.checkEveryMs ?? 15 * 60_000) ||
            answer.channel !== lastChannel
          ) {
            lastCheck = now;
            lastChannel = answer.channel;
            void updater.check();
          }
          updater.tick();
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.reportIntervalMs ? { intervalMs: options.reportIntervalMs } : {}),
      })
    : null;
  let lastCheck = 0;
  let lastChannel = '';
  const updater =
    local && options.updates
      ? new DeskUpdater({
          updater: options.updates.updater,
          install: options.updates.install,
          state: () => ({
            shiftOpen: pos?.shiftOpen() ?? false,
            pending: local.engine.pendingCount(),
            tooOld: reporter?.refusal() !== null,
          }),
          timeZone: () => local.engine.studio()?.timeZone ?? 'Europe/Warsaw',
        })
      : null;
  let lastSyncError: string | null = null;
  let wasOnline: boolean | null = null;
  local?.engine.on('status', (status: { lastError: string | null; online?: boolean; pending?: number }) => {
    if (status.online !== undefined && status.online !== wasOnline) {
      log.info('sync', `${status.online ? 'online' : 'offline'}, ${status.pending ?? 0} waiting`);
      wasOnline = status.online;
    }
    if (status.lastError && status.lastError !== 'offline' && status.lastError !== lastSyncError)
      reporter?.noteError('sync', status.lastError);
    lastSyncError = status.lastError;
  });
  const kiosk = new KioskStation({
    dataDir: options.dataDir,
    cloudUrl: cloud.baseUrl,
    mode: options.kiosk?.mode ?? 'desk',
    stationStudio: () => station.state().device?.studioUuid ?? null,
    lockStaff: () => station.lock(),
    locale: () => station.state().locale,
    online: () => probe.isOnline,
    report: (reachable, error) => probe.report(reachable, error),
    engine: local?.engine ?? null,
    ticketPrinter:
      options.kiosk?.ticketPrinter ?? (() => ticketHealth.watch(ticketPrinters.interfaceFor(kioskTarget()))),
    // The sync engine's device token (its meta 'deviceToken'): the door's relay is given to, and sealed
    // for, this registered station only (desktop/README.md "The door offline").
    deviceToken: () => local?.engine.store.getMeta('deviceToken') ?? null,
    secretBox: options.secretBox ?? null,
    pictures,
    ...(options.kiosk?.doorDriver ? { doorDriver: options.kiosk.doorDriver } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  sync?.start?.();
  reporter?.start();
  return {
    station,
    sync,
    notices,
    pos,
    kiosk,
    reporter,
    updater,
    log,
    info: {
      version: options.version,
      runtime: options.runtime,
      platform: options.platform ?? process.platform,
      cloudUrl: cloud.baseUrl,
    },
    async stop() {
      probe.stop();
      reporter?.stop();
      await pos?.close();
      await sync?.stop?.();
    },
  };
}

/** electron-updater's staging id is the station's device id, so the cloud can say who is in a rollout. */
function writeStagingId(file: string, deviceId: string): void {
  try {
    if (existsSync(file) && readFileSync(file, 'utf8') === deviceId) return;
    writeFileSync(file, deviceId);
  } catch {
    // Not fatal: electron-updater makes its own id.
  }
}
