import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { SyncEngine, type SyncEngineOptions } from '../sync/engine';
import { isErrorEnvelope } from '../../../shared/errors/app-error';
import { CloudHttpError, CloudUnreachableError } from './cloud-client';
import type { SyncEnginePort } from './sync-port';

/** The station's SQLite file, next to station.json. */
export const STATION_DB_FILE = 'station.db';

export interface StationSync extends SyncEnginePort {
  readonly engine: SyncEngine;
  readonly db: LocalDatabase;
  isRegistered(): boolean;
  /** Starts the background push/pull loop (only once the station is registered). */
  start(): void;
  /** Syncs now instead of at the next poll (the cloud answered again). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * The sync engine (desktop/main/sync, helper-owned) behind the station's port: opens the station's
 * database (WAL, synchronous=FULL, migrations; a database from a newer version is refused with
 * LocalDatabaseTooNewError), starts the loop once the station has a device token, and starts it at
 * registration. Registration goes through the engine so its device id and token are the ones it
 * pushes with.
 */
export function openStationSync(dataDir: string, options: SyncEngineOptions = {}): StationSync {
  // The folder is main's alone (0700), like station.json's: the outbox holds clients' data.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = openLocalDatabase(path.join(dataDir, STATION_DB_FILE));
  const engine = new SyncEngine(db, options);
  let started = false;
  let stopped = false;
  const start = () => {
    if (started || stopped || !engine.isRegistered()) return;
    started = true;
    engine.start();
  };
  // The loop's own errors land in status().lastError; nothing may escape as an unhandled event.
  engine.on('error', () => undefined);
  return {
    engine,
    db,
    status: () => engine.status(),
    isRegistered: () => engine.isRegistered(),
    async registerDevice(cloudUrl, staffSessionCookie, name, registerOptions) {
      let result;
      try {
        result = await engine.registerDevice(cloudUrl, staffSessionCookie, name, registerOptions ?? {});
      } catch (error) {
        throw asCloudError(error);
      }
      start();
      engine.kick();
      return {
        deviceToken: result.deviceToken,
        deviceId: result.deviceId,
        studioUuid: result.studioUuid,
        scope: result.scope,
      };
    },
    start,
    // Only the reachability probe calls this (services.ts): the cloud answers again.
    kick: () => engine.kick('reachable'),
    async stop() {
      if (stopped) return;
      stopped = true;
      await engine.stop();
      db.close();
    },
  };
}

/** The engine's errors as the station's: an HTTP answer keeps the cloud's envelope; no answer is offline. */
function asCloudError(error: unknown): Error {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    const body = 'body' in error ? error.body : null;
    return new CloudHttpError(error.status, isErrorEnvelope(body) ? body : null);
  }
  return new CloudUnreachableError('the cloud cannot be reached', { cause: error });
}
