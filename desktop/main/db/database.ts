import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LOCAL_MIGRATIONS, type LocalMigration } from './migrations';

export type LocalDatabase = Database.Database;

/** The database holds migrations this build does not know: a newer version wrote it. */
export class LocalDatabaseTooNewError extends Error {
  constructor(readonly unknown: number[]) {
    super(
      `the local database was written by a newer version (migrations ${unknown.join(', ')}); update the app`,
    );
    this.name = 'LocalDatabaseTooNewError';
  }
}

/**
 * Opens (creating) the station's database: WAL so reads never wait for the writer, synchronous=FULL
 * so a committed sale and its outbox row survive a power cut, then the migrations.
 */
export function openLocalDatabase(
  file: string,
  options: { migrations?: readonly LocalMigration[] } = {},
): LocalDatabase {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrateLocalDatabase(db, options.migrations ?? LOCAL_MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Runs the migrations not applied yet, each in one transaction; refuses unknown applied ones. */
export function migrateLocalDatabase(db: LocalDatabase, migrations: readonly LocalMigration[]): number[] {
  db.exec(`create table if not exists schema_migrations (
    id integer primary key, name text not null, applied_at text not null)`);
  const applied = db.prepare('select id, name from schema_migrations order by id').all() as Array<{
    id: number;
    name: string;
  }>;
  const known = new Map(migrations.map((m) => [m.id, m]));
  const unknown = applied.filter((a) => known.get(a.id)?.name !== a.name).map((a) => a.id);
  if (unknown.length > 0) throw new LocalDatabaseTooNewError(unknown);
  const done = new Set(applied.map((a) => a.id));
  const ran: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
    if (done.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('insert into schema_migrations (id, name, applied_at) values (?, ?, ?)').run(
        m.id,
        m.name,
        new Date().toISOString(),
      );
    })();
    ran.push(m.id);
  }
  return ran;
}
