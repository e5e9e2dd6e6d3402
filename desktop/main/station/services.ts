import type { AppInfo } from '../../../shared/contracts/ipc';
import { CloudClient } from './cloud-client';
import { OfflineApi } from './offline-api';
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
}

export interface MainServices {
  station: StationService;
  /** The engine behind the status bar (null without one). */
  sync: SyncEnginePort | null;
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
  sync?.start?.();
  return {
    station,
    sync,
    info: {
      version: options.version,
      runtime: options.runtime,
      platform: options.platform ?? process.platform,
      cloudUrl: cloud.baseUrl,
    },
    async stop() {
      probe.stop();
      await sync?.stop?.();
    },
  };
}
