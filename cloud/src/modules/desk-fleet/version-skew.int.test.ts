import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentMethod } from '../../../../shared/enums';
import { useTestApp } from '../../../../tests/support/test-app';
import { registeredCommands } from '../../sync/commands/registry';
import { bookingStudio } from '../bookings/bookings-fixtures';
import { addVat23, addWater } from '../sales/sales-support';

/**
 * Version skew (issue 29): the PREVIOUS release's desk — its code checked out from git in the test —
 * runs its sync engine against this cloud: it registers, goes offline, queues a check-in and a sale,
 * crashes right after its push reached the cloud, then delivers again. Both reach the cloud exactly
 * once. Only the engine runs (tsx in Node, this checkout's node_modules): no Electron, no browser.
 *
 * The previous release is PREVIOUS_DESK_COMMIT (move it to the released commit at each release;
 * DESK_PREVIOUS_RELEASE overrides it). A shallow clone is deepened first; if the commit still cannot
 * be had the test is skipped and says why.
 */
const PREVIOUS_DESK_COMMIT = process.env.DESK_PREVIOUS_RELEASE ?? '9f5709329d179ac809a5f1d97b3d62af6acf033d';
const ROOT = path.resolve(__dirname, '../../../..');
const SCRIPT = 'cloud/src/modules/desk-fleet/testing/old-desk.ts';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
function haveCommit(): boolean {
  try {
    git('cat-file', '-e', `${PREVIOUS_DESK_COMMIT}^{commit}`);
    return true;
  } catch {
    return false;
  }
}
/** The previous release, or why not: deepens a shallow clone once. */
function previousRelease(): string | null {
  if (haveCommit()) return null;
  try {
    if (git('rev-parse', '--is-shallow-repository').trim() === 'true')
      execFileSync('git', ['fetch', '--quiet', '--unshallow'], {
        cwd: ROOT,
        stdio: 'pipe',
        timeout: 120_000,
      });
  } catch {
    // no remote or no network: reported below
  }
  return haveCommit()
    ? null
    : `commit ${PREVIOUS_DESK_COMMIT} is not in this clone (shallow, or history rewritten)`;
}

const app = useTestApp();
let tree = '';
let unavailable: string | null = null;
beforeAll(() => {
  unavailable = previousRelease();
  if (unavailable) {
    console.warn(`version-skew test skipped: ${unavailable}`);
    return;
  }
  tree = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-previous-'));
  // The previous release's desk and shared code (git archive: a checkout without touching this repo's
  // worktrees), this checkout's node_modules, and the script at the same place in that tree.
  const archive = execFileSync(
    'git',
    ['archive', PREVIOUS_DESK_COMMIT, 'desktop', 'shared', 'package.json'],
    {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
  fs.mkdirSync(path.dirname(path.join(tree, SCRIPT)), { recursive: true });
  fs.copyFileSync(path.join(ROOT, SCRIPT), path.join(tree, SCRIPT));
}, 180_000);
afterAll(() => {
  if (tree) fs.rmSync(tree, { recursive: true, force: true });
});

type Run = {
  code: number | null;
  out: {
    status: { pending: number; lastError: string | null };
    outbox: Array<{ name: string; version: number; status: string; outcome: { status: string } | null }>;
    deviceId: string;
  } | null;
  stderr: string;
};
/** Runs the old desk's script (asynchronously: the cloud it talks to runs in this process). */
function oldDesk(job: Record<string, unknown>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
      cwd: tree,
      env: { ...process.env, OLD_DESK: JSON.stringify(job) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').at(-1);
      resolve({ code, out: line ? JSON.parse(line) : null, stderr });
    });
  });
}

describe('a desk one release behind against this cloud', () => {
  it('its offline check-in and sale reach the cloud exactly once, across a crash after the push', async (ctx) => {
    if (unavailable) ctx.skip();
    expect(git('merge-base', '--is-ancestor', PREVIOUS_DESK_COMMIT, 'HEAD') === '').toBe(true);
    const st = await bookingStudio(app, new Date(Date.now() + 30 * 60_000));
    const vat = await addVat23(app, st.studio);
    const waterId = await addWater(app, st.studio, vat, 10);
    const client = await st.addClient();
    const owner = await app.signedIn(st.manager.email, st.manager.password);
    const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
    const dataDir = path.join(tree, 'station');
    const base = { dataDir, cloudUrl: app.url };

    const registered = await oldDesk({ ...base, phase: 'register', cookie });
    expect(registered.code, registered.stderr).toBe(0);
    const deviceId = registered.out!.deviceId;

    const visitId = uuidv7();
    const saleId = uuidv7();
    const queued = await oldDesk({
      ...base,
      phase: 'offline',
      checkIn: { visitId, userId: client.user.id, scheduleEventId: st.eventId },
      sale: {
        saleId,
        clientId: client.user.id,
        lines: [{ type: 'product', id: waterId, name: 'Woda', quantity: 2, unitPrice: 500, vatRate: 2300 }],
        payments: [{ method: PaymentMethod.cash, amount: 1000 }],
        change: 0,
        stationSlug: 'front-1',
      },
    });
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.out!.status.pending).toBe(2);
    // The old desk queues checkIn@1; this release's desk sends checkIn@2 (the pass it counted):
    // the cloud runs both.
    expect(registeredCommands()).toEqual(expect.arrayContaining(['checkIn@1', 'checkIn@2']));
    expect(queued.out!.outbox.map((m) => `${m.name}@${m.version}:${m.status}`)).toEqual([
      'checkIn@1:pending',
      'recordSale@1:pending',
    ]);

    // Back online: the cloud takes the push, the desk dies before keeping the answer…
    const crashed = await oldDesk({ ...base, phase: 'deliver', crashAfterPush: true });
    expect(crashed.code).toBe(9);
    expect(await app.knex('sync_mutations').where({ deviceId })).toHaveLength(2);
    // …and pushes the same two again when it starts: answered from the cloud's record, not redone.
    const delivered = await oldDesk({ ...base, phase: 'deliver' });
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(delivered.out!.status).toMatchObject({ pending: 0, lastError: null });
    expect(delivered.out!.outbox.map((m) => m.outcome?.status)).toEqual(['applied', 'applied']);

    expect(await app.knex('sync_mutations').where({ deviceId })).toHaveLength(2);
    const visits = await app
      .knex('client_visits')
      .where({ scheduleEventId: st.eventId, clientId: client.user.id });
    expect(visits.map((v) => v.id)).toEqual([visitId]);
    expect(await app.knex('retail_sales').where({ id: saleId })).toHaveLength(1);
  });
});
