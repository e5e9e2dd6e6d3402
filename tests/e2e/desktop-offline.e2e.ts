import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { openLocalDatabase } from '../../desktop/main/db/database';
import { STATION_DB_FILE } from '../../desktop/main/station/station-sync';
import { SyncEngine } from '../../desktop/main/sync/engine';
import { ClientVisitStatus } from '../../shared/enums/visits';
import { ROOT } from './support/paths';

/**
 * The station keeps what was done offline and delivers it once the cloud is back, through
 * desktop/host with the real sync engine and a real cloud process:
 * the station is set up and syncs; the cloud is stopped (Offline); at the desk, offline, a new client
 * is created and checked in at today's class (2 changes waiting); the desktop process is killed and
 * started again (still 2 waiting, the person still at the desk); the cloud starts again → All
 * changes synced; the back office (reading the cloud) lists the client exactly once and the class's
 * attendee list has them present exactly once.
 *
 * The changes are queued with the engine's own `mutate('createClient' | 'checkIn')` on the station's
 * database: no desk screen writes through the engine yet, and the engine has no `recordSale`, so the
 * sale of the flow is missing (desktop/README.md, "Left to do").
 *
 * Own ports (DESKTOP_OFFLINE_CLOUD_PORT, DESKTOP_OFFLINE_HOST_PORT) so it may run next to
 * desktop-station.e2e.ts.
 */
const CLOUD_PORT = Number(process.env.DESKTOP_OFFLINE_CLOUD_PORT ?? 4330);
const HOST_PORT = Number(process.env.DESKTOP_OFFLINE_HOST_PORT ?? 4329);
const RENDERER_DIR =
  process.env.DESKTOP_RENDERER_DIR ??
  (process.env.WEB_DIST_DIR
    ? path.join(path.dirname(path.resolve(process.env.WEB_DIST_DIR)), 'desktop-renderer')
    : path.join(ROOT, 'out', 'renderer'));
const SHOTS_DIR = process.env.DESKTOP_SHOTS_DIR ?? path.join(ROOT, 'test-results', 'screenshots');
const HOST_URL = `http://localhost:${HOST_PORT}`;
const MANAGER = { email: 'manager@demo.studio', password: 'demo1234', name: 'Anna Kowalska' };

let cloud: ChildProcess | null = null;
let host: ChildProcess | null = null;
let workDir = '';

/**
 * Runs a TypeScript entry in ONE Node process (`node --import tsx`, not the tsx CLI, which would put
 * the program in a child of its own): a SIGKILL then really kills the desktop process.
 */
function startChild(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`timed out: ${args.join(' ')}\n${output}`)), 170_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${args.join(' ')}\n${output}`));
    });
  });
}

const startCloud = () =>
  startChild(['desktop/host/test-cloud.ts', String(CLOUD_PORT), path.join(workDir, 'cloud')], {}, /^READY /m);

const startHost = () =>
  startChild(
    ['desktop/host/server.ts'],
    {
      DESKTOP_HOST_PORT: String(HOST_PORT),
      STUDIO_CLOUD_URL: `http://localhost:${CLOUD_PORT}`,
      DESKTOP_DATA_DIR: path.join(workDir, 'station'),
      DESKTOP_RENDERER_DIR: RENDERER_DIR,
      DESKTOP_PROBE_MS: '1000',
    },
    /station on http/,
  );

async function stop(child: ChildProcess | null, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  workDir = mkdtempSync(path.join(tmpdir(), 'desktop-offline-e2e-'));
  cloud = await startCloud();
  host = await startHost();
});

test.afterAll(async () => {
  await stop(host);
  await stop(cloud);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const locale of ['EN', 'PL'] as const) {
    await page
      .getByTestId('language-switch')
      .first()
      .getByText(locale, { exact: true })
      .dispatchEvent('click');
    await expect(page.locator('html')).toHaveAttribute('lang', locale.toLowerCase());
    await page.screenshot({
      path: path.join(SHOTS_DIR, `desktop-${name}-${locale.toLowerCase()}-1280.png`),
      animations: 'disabled',
    });
  }
  await page.getByTestId('language-switch').first().getByText('EN', { exact: true }).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
}

/**
 * What the desk does while offline, queued in the station's database by the sync engine: a new
 * client, checked in at the nearest class of the station's own (bootstrapped) timetable.
 */
function actAtTheDesk(lastName: string, actorId: string): { eventId: string } {
  const db = openLocalDatabase(path.join(workDir, 'station', STATION_DB_FILE));
  try {
    const engine = new SyncEngine(db);
    const userId = uuidv7();
    engine.mutate('createClient', 1, { userId, clientId: uuidv7(), firstName: 'Ewa', lastName }, { actorId });
    const now = Date.now();
    const [event] = engine.store
      .list<{ id: string; starts_at: string }>('schedule_events')
      .map((e) => ({ id: e.id, at: Date.parse(String(e.starts_at)) }))
      .filter((e) => Math.abs(e.at - now) < 36 * 3_600_000)
      .sort((a, b) => Math.abs(a.at - now) - Math.abs(b.at - now));
    if (!event) throw new Error('the station holds no class near today');
    engine.mutate('checkIn', 1, { visitId: uuidv7(), userId, scheduleEventId: event.id }, { actorId });
    return { eventId: event.id };
  } finally {
    db.close();
  }
}

test('a client created and checked in offline survives a killed desktop and reaches the cloud exactly once', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(HOST_URL);
  const form = page.getByTestId('station-sign-in');
  await form.locator('input[name="emailAddress"]').fill(MANAGER.email);
  await form.locator('input[name="password"]').fill(MANAGER.password);
  await form.locator('input[name="stationName"]').fill('Front desk 2');
  await page.getByTestId('station-sign-in-submit').click();
  const pinForm = page.getByTestId('set-pin-form');
  await pinForm.locator('input[name="pin"]').fill('2468');
  await pinForm.locator('input[name="repeat"]').fill('2468');
  await page.getByTestId('set-pin-submit').click();
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);

  const online = page.getByTestId('sync-online');
  const pending = page.getByTestId('sync-pending');
  const last = page.getByTestId('sync-last');
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect(last).toHaveText(/^Last sync \d{2}:\d{2}:\d{2}/, { timeout: 30_000 });
  const firstSync = await last.textContent();

  // The internet goes away.
  await stop(cloud);
  cloud = null;
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });

  const lastName = `Offline${Date.now().toString(36)}`;
  const { managerId, studioUuid } = await page.evaluate(async () => {
    const response = await fetch('/ipc/stationState', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const result = (await response.json()) as {
      value: { staff: { userId: string }; device: { studioUuid: string } };
    };
    return { managerId: result.value.staff.userId, studioUuid: result.value.device.studioUuid };
  });
  const { eventId } = actAtTheDesk(lastName, managerId);
  await expect(pending).toHaveText('2 changes waiting to sync', { timeout: 10_000 });
  await expect(last).toHaveText(firstSync!);
  await shoot(page, 'offline-pending');

  // The desktop process dies (kill -9) and starts again, still without the cloud.
  await stop(host, 'SIGKILL');
  host = await startHost();
  await page.reload();
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await expect(pending).toHaveText('2 changes waiting to sync');

  // The cloud is back: the change goes up on its own, once.
  cloud = await startCloud();
  await expect(online).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect(last).not.toHaveText(firstSync!);

  // The back office reads the cloud: the client created offline is there exactly once.
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('clients-search').fill(lastName);
  await expect(page.getByTestId('client-row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('client-row')).toContainText(`${lastName} Ewa`);
  await shoot(page, 'synced-client');

  // …and checked in at that class exactly once (the attendee list the class drawer shows).
  const attendees = await page.evaluate(
    async ({ studio, event }) => {
      const response = await fetch('/ipc/apiRequest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          method: 'GET',
          path: `v4/${studio}/schedule-event/${event}/enrollments/init`,
        }),
      });
      const result = (await response.json()) as { ok: boolean; value: { status: number; body: string } };
      const body = JSON.parse(result.value.body) as {
        attendees: Array<{ status: number; client: { lastName: string } }>;
      };
      return body.attendees;
    },
    { studio: studioUuid, event: eventId },
  );
  const visits = attendees.filter((a) => a.client.lastName === lastName);
  expect(visits).toHaveLength(1);
  expect(visits[0]!.status).toBe(ClientVisitStatus.present);
});
