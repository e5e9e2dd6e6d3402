import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ClientVisitStatus } from '../../shared/enums/visits';
import { ROOT } from './support/paths';

/**
 * The station keeps working offline through the back office's own screens, answered from SQLite by
 * main (desktop/main/station/offline-api.ts), and delivers what was done once the cloud is back,
 * through desktop/host with the real sync engine and a real cloud process:
 * the station is set up and syncs, a client is added online; the cloud is stopped (Offline); the
 * client list finds the client; today's class shows its attendees; the client is enrolled and
 * marked present (2 changes waiting); the desktop process is killed and started again (still 2
 * waiting, still present at the desk); the cloud starts again → All changes synced; the cloud has
 * the client on today's classes exactly once, present.
 *
 * The sale of the flow waits for the POS screen (recordSale is ready for it:
 * desktop/main/station/sales.ts).
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

/** A call through the station (as the renderer makes it): the cloud's answer, or the offline one. */
async function viaStation<T>(
  page: Page,
  method: 'GET' | 'POST',
  apiPath: string,
  body?: unknown,
): Promise<T> {
  return page.evaluate(
    async ({ method, apiPath, body }) => {
      const response = await fetch('/ipc/apiRequest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          method,
          path: apiPath,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      });
      const result = (await response.json()) as { ok: boolean; value: { status: number; body: string } };
      if (!result.ok) throw new Error(`${apiPath}: ${JSON.stringify(result)}`);
      return JSON.parse(result.value.body) as T;
    },
    { method, apiPath, body },
  ) as Promise<T>;
}

async function stationState(page: Page): Promise<{ managerId: string; studioUuid: string }> {
  return page.evaluate(async () => {
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
}

/** Today's first class in the week view, opened in its drawer (attendees loaded). */
async function openTodaysClass(page: Page, today: string): Promise<void> {
  await page.getByTestId('nav-schedule').click();
  const day = page.getByTestId(`schedule-day-${today}`);
  await expect(day).toBeVisible({ timeout: 15_000 });
  await day.locator('[data-testid="schedule-event"][data-status="scheduled"]').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByTestId('event-attendees')).toBeVisible({ timeout: 15_000 });
}

test('offline at the desk: search a client, enrol and check them in from SQLite; survives a killed desktop; reaches the cloud once', async ({
  page,
}) => {
  test.setTimeout(300_000);
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

  // Online, the desk adds a client (the cloud pokes the station, which pulls it into SQLite) and
  // looks at today's class once (the station keeps the timetable's settings and what staff may do).
  const { studioUuid } = await stationState(page);
  const lastName = `Offline${Date.now().toString(36)}`;
  const beforeCreate = await last.textContent();
  const created = await viaStation<{ id?: string; client?: { id: string } }>(
    page,
    'POST',
    `v4/${studioUuid}/client`,
    {
      firstName: 'Ewa',
      lastName,
    },
  );
  expect(created).toBeTruthy();
  await expect(last).not.toHaveText(beforeCreate!, { timeout: 30_000 });
  const { timeZone } = await viaStation<{ timeZone: string }>(page, 'GET', `v4/${studioUuid}/schedule/init`);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  await openTodaysClass(page, today);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.getByTestId('nav-clients').click();
  await expect(page.getByTestId('client-row').first()).toBeVisible();

  // The internet goes away.
  await stop(cloud);
  cloud = null;
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  const firstSync = await last.textContent();

  // Client search, answered from SQLite.
  await page.getByTestId('clients-search').fill(lastName);
  await expect(page.getByTestId('client-row')).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('client-row')).toContainText(`${lastName} Ewa`);

  // Today's class: its attendees from SQLite; the client enrolled and checked in at the desk.
  await openTodaysClass(page, today);
  await page.getByTestId('enrol-search').fill(lastName);
  await page.getByTestId('enrol-option').filter({ hasText: lastName }).click();
  const row = page.getByTestId('attendee-row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await row.getByTestId('attendee-present').click();
  await expect(row.getByTestId('visit-status')).toHaveText('Present', { timeout: 15_000 });
  await expect(pending).toHaveText('2 changes waiting to sync', { timeout: 10_000 });
  await expect(last).toHaveText(firstSync!);
  await shoot(page, 'offline-check-in');

  // The desktop process dies (kill -9) and starts again, still without the cloud.
  await stop(host, 'SIGKILL');
  host = await startHost();
  await page.reload();
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);
  await expect(online).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await expect(pending).toHaveText('2 changes waiting to sync');
  // What was done offline is still there at the desk.
  await openTodaysClass(page, today);
  await expect(
    page.getByTestId('attendee-row').filter({ hasText: lastName }).getByTestId('visit-status'),
  ).toHaveText('Present');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // The cloud is back: the changes go up on their own, once.
  cloud = await startCloud();
  await expect(online).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect(last).not.toHaveText(firstSync!);

  // The cloud has the client on today's classes exactly once, present.
  const week = await viaStation<{ items: Array<{ id: string }> }>(
    page,
    'POST',
    `v4/${studioUuid}/schedule/find`,
    {
      from: today,
      to: today,
    },
  );
  const visits: number[] = [];
  for (const event of week.items) {
    const enrollments = await viaStation<{
      attendees: Array<{ status: number; client: { lastName: string } }>;
    }>(page, 'GET', `v4/${studioUuid}/schedule-event/${event.id}/enrollments/init`);
    visits.push(...enrollments.attendees.filter((a) => a.client.lastName === lastName).map((a) => a.status));
  }
  expect(visits).toEqual([ClientVisitStatus.present]);
  await openTodaysClass(page, today);
  await expect(page.getByTestId('attendee-row').filter({ hasText: lastName })).toHaveCount(1);
  await shoot(page, 'synced-check-in');
});
