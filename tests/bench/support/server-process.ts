import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from '../../../cloud/src/db/knex';
import { ROOT_DIR } from '../../../cloud/src/paths';
import { freePort } from '../../support/free-port';
import type { HttpClient } from '../../support/http-client';
import { signedInClient } from './session-client';

/**
 * The cloud as production runs it (`npm start`: the bundle `npm run build:server` writes,
 * `node dist/server/server.mjs`), in a process of its own over a bench's database, so that a bench can
 * measure the server's memory apart from its own (the seed, the HTTP reader). The bundle is built
 * first (about a second: never a stale one), then started with `npm start`'s own node command line,
 * read from package.json, without npm in between, so that `pid` is the server's own process.
 */
export interface ServerProcess {
  url: string;
  pid: number;
  /** An HTTP client holding a fresh session of this user (no password round trip). */
  signedIn(userId: string): Promise<HttpClient>;
  /** The process's resident memory now (`VmRSS`) and its high-water mark (`VmHWM`), in bytes. */
  memory(): { rss: number; hwm: number };
  /** Resets the high-water mark to the current resident size (Linux `clear_refs` 5); false if refused. */
  resetPeak(): boolean;
  close(): Promise<void>;
}

export async function startServerProcess(
  knex: Knex,
  databaseUrl: string,
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT_DIR, stdio: 'inherit' });
  // BENCH_SERVER_CPU_PROFILE_DIR: the server writes a CPU profile of its whole life there when it exits.
  const profileDir = process.env.BENCH_SERVER_CPU_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...startArguments()], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: url,
      FIELD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_CONCURRENCY: '1',
      DEMO_SEED: 'false',
      DATA_DIR: options.dataDir ?? path.join(os.tmpdir(), 'studio-bench'),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the server process exited (${code})`))),
  );
  exited.catch(() => {});
  // Ready when it answers (migrations are already applied by the bench).
  for (let i = 0; ; i++) {
    const ok = await Promise.race([
      fetch(`${url}/api/v4/auth/csrf`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ok) break;
    if (i > 600) throw new Error('the server process did not answer within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = child.pid!;
  const status = (field: string, text: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return {
    url,
    pid,
    signedIn: (userId) => signedInClient(knex, url, userId),
    memory() {
      const text = readFileSync(`/proc/${pid}/status`, 'utf8');
      return { rss: status('VmRSS', text), hwm: status('VmHWM', text) };
    },
    resetPeak() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (child.exitCode !== null) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** `npm start`'s arguments to node (`node [flags] dist/server/server.mjs`), from package.json. */
function startArguments(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = (pkg.scripts.start ?? '').trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is not a plain node command line: ${pkg.scripts.start}`);
  return args;
}
