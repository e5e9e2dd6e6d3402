import fs from 'node:fs';
import path from 'node:path';
import { openLocalDatabase } from '../../../../../desktop/main/db/database';
import { recordSale } from '../../../../../desktop/main/station/sales';
import { SyncEngine } from '../../../../../desktop/main/sync/engine';

/**
 * A desk's sync engine run as a script: the version-skew test copies this file into a checkout of the
 * PREVIOUS release and runs it there with tsx, so the relative imports above load that release's
 * desk code (engine, SQLite schema, recordSale) — not this one's. It must only use what both have.
 *
 * OLD_DESK (JSON): { phase, dataDir, cloudUrl, cookie?, checkIn?, sale?, crashAfterPush? }
 * - register: registers with the staff cookie and syncs once (bootstrap) while online;
 * - offline: the network is down: queues the check-in (checkIn@1) and the sale (recordSale@1);
 * - deliver: syncs; with crashAfterPush the process dies right after the cloud answered the push
 *   (before the desk kept the answer), so the next deliver pushes the same mutations again.
 * Prints one JSON line: the engine's status and outbox.
 */
const job = JSON.parse(process.env.OLD_DESK ?? '{}') as {
  phase: 'register' | 'offline' | 'deliver';
  dataDir: string;
  cloudUrl: string;
  cookie?: string;
  checkIn?: Record<string, unknown>;
  sale?: Record<string, unknown>;
  crashAfterPush?: boolean;
};
fs.mkdirSync(job.dataDir, { recursive: true });
const db = openLocalDatabase(path.join(job.dataDir, 'station.db'));
const offline: typeof fetch = async () => {
  throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
};
const engine = new SyncEngine(db, {
  fetch: job.phase === 'offline' ? offline : fetch,
  hook: (point) => {
    if (job.crashAfterPush && point === 'afterPushResponse') process.exit(9);
  },
});
if (job.phase === 'register') {
  await engine.registerDevice(job.cloudUrl, job.cookie!, 'Desk of the previous release');
  await engine.syncOnce();
} else if (job.phase === 'offline') {
  engine.mutate('checkIn', 1, job.checkIn!);
  recordSale(engine, job.sale as never);
  await engine.syncOnce().catch(() => undefined);
} else {
  await engine.syncOnce();
}
const status = engine.status();
const deviceId = engine.deviceId;
const outbox = engine
  .outbox()
  .map((r) => ({ name: r.name, version: r.version, status: r.status, outcome: r.outcome }));
await engine.stop();
db.close();
process.stdout.write(`${JSON.stringify({ status, outbox, deviceId })}\n`);
