/**
 * A station process for the kill -9 tests: opens the database, runs one action with the engine and
 * SIGKILLs itself at the named point (`CRASH_AT=point` or `point:n` for the n-th time it is reached).
 * Usage: tsx crash-child.ts <db file> <action: mutate|sync|pull|bootstrap> [json args]
 */
import { openLocalDatabase } from '../../db/database';
import { SyncEngine, type CrashPoint } from '../engine';

const [file, action, json] = process.argv.slice(2);
const [point, nth] = (process.env.CRASH_AT ?? '').split(':');
let seen = 0;
const db = openLocalDatabase(file!);
const engine = new SyncEngine(db, {
  bootstrapPageSize: Number(process.env.PAGE_SIZE ?? 5000),
  pullPageSize: Number(process.env.PAGE_SIZE ?? 1000),
  hook: (at: CrashPoint) => {
    if (at === point && ++seen >= Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
  },
});
const args = json ? (JSON.parse(json) as { name: string; version: number; args: unknown }) : null;
if (action === 'mutate' && args) engine.mutate(args.name, args.version, args.args);
if (action === 'sync') await engine.syncOnce();
if (action === 'pull') await engine.pull();
if (action === 'bootstrap') await engine.bootstrap();
db.close();
process.stdout.write('finished\n');
