import path from 'node:path';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import type { SyncEnginePort } from '../station/sync-port';
import { SyncEngine, type SyncEngineOptions } from './engine';

export { SyncEngine, type SyncEngineOptions, type SyncStatus, type OutboxRow } from './engine';
export { LocalStore } from './local-store';
export { LocalDatabaseTooNewError } from '../db/database';

/** The file of the station's database inside its data folder (Electron's userData, the host's temp dir). */
export const STATION_DB_FILE = 'station.db';

/**
 * Opens the station's SQLite database (WAL, synchronous=FULL, migrations; refuses a newer one) and its
 * sync engine. This is what the station shell passes as `createMainServices({ sync })`: the engine
 * has the `SyncEnginePort` shape (status, registerDevice, stop). Call `engine.start()` once the
 * station is registered (`engine.isRegistered()`), and `close()` on quit.
 */
export function openStationSync(
  dataDir: string,
  options: SyncEngineOptions = {},
): { engine: SyncEngine; db: LocalDatabase; close(): Promise<void> } {
  const db = openLocalDatabase(path.join(dataDir, STATION_DB_FILE));
  const engine = new SyncEngine(db, options);
  const port: SyncEnginePort = engine;
  void port;
  return {
    engine,
    db,
    async close() {
      await engine.stop();
      db.close();
    },
  };
}
