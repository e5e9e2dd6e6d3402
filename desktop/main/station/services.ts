import type { AppInfo } from '../../../shared/contracts/ipc';
import type { SmartLockDriver } from '../../../shared/domain/smart-locks/http-relay';
import { KioskStation } from '../kiosk/kiosk-station';
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
  const local =
    options.sync === 'local'
      ? openStationSync(options.dataDir, options.fetch ? { fetch: options.fetch } : {})
      : null;
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
  const station = new StationService({
    store,
    cloud,
    probe,
    sync,
    offline,
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
  const pos = local
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
        ticketInterface: options.pos?.ticketInterface ?? (() => ticketPrinters.interfaceFor(posTarget())),
        onBackgroundError: (error) => console.warn('[pos]', error instanceof Error ? error.message : error),
      })
    : null;
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
    ticketPrinter: options.kiosk?.ticketPrinter ?? (() => ticketPrinters.interfaceFor(kioskTarget())),
    // The sync engine's device token (its meta 'deviceToken'): the door's relay is given to, and sealed
    // for, this registered station only (desktop/README.md "The door offline").
    deviceToken: () => local?.engine.store.getMeta('deviceToken') ?? null,
    secretBox: options.secretBox ?? null,
    ...(options.kiosk?.doorDriver ? { doorDriver: options.kiosk.doorDriver } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  sync?.start?.();
  return {
    station,
    sync,
    notices,
    pos,
    kiosk,
    info: {
      version: options.version,
      runtime: options.runtime,
      platform: options.platform ?? process.platform,
      cloudUrl: cloud.baseUrl,
    },
    async stop() {
      probe.stop();
      await pos?.close();
      await sync?.stop?.();
    },
  };
}
