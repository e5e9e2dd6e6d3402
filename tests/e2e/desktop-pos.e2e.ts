import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { listenTcp } from '../../desktop/main/printing/emulator/endpoints';
import { PosnetEmulator } from '../../desktop/main/printing/emulator/emulator';
import type { PrintedDocument } from '../../desktop/main/printing/emulator/device';
import { ROOT } from './support/paths';
import { startChild, stopChild } from './support/processes';

/**
 * A full shift at the desktop POS through desktop/host, with a real cloud process and the POSNET
 * emulator on TCP (configured in the cloud as the station's fiscal printer, as a real printer is):
 * set up the station and its POS, open the shift with a float, sell products (cash with change) and a
 * pass to a client with a split payment (cash + card terminal); the emulator printed both receipts
 * (lines, totals, payments); the cloud goes away and the desk keeps selling (recorded locally,
 * printed); the cloud comes back and the sales go up once (the cloud's shift counts them); the shift
 * closes with the daily report on the emulator and the drawer was kicked on the ESC/POS printer.
 *
 * Own ports: DESKTOP_POS_PORT_BASE (5100): cloud +0, host +1, fiscal emulator +2, ticket printer +3.
 */
const BASE = Number(process.env.DESKTOP_POS_PORT_BASE ?? 5100);
const CLOUD_PORT = BASE;
const HOST_PORT = BASE + 1;
const FISCAL_PORT = BASE + 2;
const TICKET_PORT = BASE + 3;
const RENDERER_DIR =
  process.env.DESKTOP_RENDERER_DIR ??
  (process.env.WEB_DIST_DIR
    ? path.join(path.dirname(path.resolve(process.env.WEB_DIST_DIR)), 'desktop-renderer')
    : path.join(ROOT, 'out', 'renderer'));
const SHOTS_DIR = process.env.DESKTOP_SHOTS_DIR ?? path.join(ROOT, 'test-results', 'screenshots');
const HOST_URL = `http://localhost:${HOST_PORT}`;
const MANAGER = { email: 'manager@demo.studio', password: 'demo1234', name: 'Anna Kowalska' };
const DRAWER_KICK = Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]);

let cloud: ChildProcess | null = null;
let host: ChildProcess | null = null;
let workDir = '';
const emulator = new PosnetEmulator();
let fiscalServer: { close(): Promise<void> } | null = null;
let ticketServer: net.Server | null = null;
const ticketBytes: Buffer[] = [];

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
      DESKTOP_TICKET_PRINTER: `tcp://127.0.0.1:${TICKET_PORT}`,
    },
    /station on http/,
  );

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  workDir = mkdtempSync(path.join(tmpdir(), 'desktop-pos-e2e-'));
  fiscalServer = await listenTcp(emulator, { port: FISCAL_PORT });
  ticketServer = net.createServer((socket) => socket.on('data', (chunk) => ticketBytes.push(chunk)));
  await new Promise<void>((resolve) => ticketServer!.listen(TICKET_PORT, '127.0.0.1', resolve));
  cloud = await startCloud();
  host = await startHost();
});

test.afterAll(async () => {
  await stopChild(host);
  await stopChild(cloud);
  await fiscalServer?.close();
  await new Promise((resolve) => ticketServer?.close(resolve));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

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
      if (!result.ok || result.value.status >= 300) throw new Error(`${apiPath}: ${JSON.stringify(result)}`);
      return JSON.parse(result.value.body) as T;
    },
    { method, apiPath, body },
  ) as Promise<T>;
}

async function studioUuid(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch('/ipc/stationState', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const result = (await response.json()) as { value: { device: { studioUuid: string } } };
    return result.value.device.studioUuid;
  });
}

const receipts = () =>
  emulator.roll.filter((d): d is Extract<PrintedDocument, { kind: 'receipt' }> => d.kind === 'receipt');

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [width, height] of [
    [1024, 768],
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const locale of ['EN', 'PL'] as const) {
      await page
        .getByTestId('language-switch')
        .first()
        .getByText(locale, { exact: true })
        .dispatchEvent('click');
      await expect(page.locator('html')).toHaveAttribute('lang', locale.toLowerCase());
      await page.screenshot({
        path: path.join(SHOTS_DIR, `desktop-pos-${name}-${locale.toLowerCase()}-${width}.png`),
        animations: 'disabled',
      });
    }
  }
  await page.getByTestId('language-switch').first().getByText('EN', { exact: true }).dispatchEvent('click');
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** "120 zł" or "1 234,50 zł" → minor units. */
function minor(text: string): number {
  const [whole, cents = '0'] = text
    .replace(/[^\d,.]/g, '')
    .replace('.', ',')
    .split(',');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

async function addItem(page: Page, name: string): Promise<void> {
  await page.getByTestId('pos-result').filter({ hasText: name }).first().click();
}

test('a shift at the desktop POS: sell online and offline, fiscal receipts on the emulator, synced once, daily report', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(HOST_URL);
  const form = page.getByTestId('station-sign-in');
  await form.locator('input[name="emailAddress"]').fill(MANAGER.email);
  await form.locator('input[name="password"]').fill(MANAGER.password);
  await form.locator('input[name="stationName"]').fill('Front desk POS');
  await page.getByTestId('station-sign-in-submit').click();
  const pinForm = page.getByTestId('set-pin-form');
  await pinForm.locator('input[name="pin"]').fill('1357');
  await pinForm.locator('input[name="repeat"]').fill('1357');
  await page.getByTestId('set-pin-submit').click();
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);
  const pending = page.getByTestId('sync-pending');
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });

  // The studio's till and its fiscal printer (the emulator on TCP), set up in the cloud.
  const studio = await studioUuid(page);
  const pos = await viaStation<{ id: string }>(page, 'POST', `v4/${studio}/studio-pos`, {
    name: 'Recepcja',
    slug: 'recepcja-1',
  });
  await viaStation(page, 'POST', `v4/${studio}/fiscal-printer`, {
    name: 'POSNET Thermal',
    stationSlug: 'recepcja-1',
    connection: { kind: 'tcp', host: '127.0.0.1', port: FISCAL_PORT },
  });

  // The POS: choose the station, open the shift with 200 zł.
  await page.getByTestId('nav-pos').click();
  await expect(page.getByTestId('pos-station-screen')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('pos-station').selectOption(pos.id);
  await page.getByTestId('shift-float').fill('200');
  await page.getByTestId('shift-open').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible();
  await expect(page.getByTestId('pos-printer')).toHaveText('Fiscal printer ready');

  // Sale 1: products by category, paid in cash with change (2 × water 5,00 + small towel 25,00 = 35,00).
  await page.getByTestId('pos-groups').getByText('Napoje').click();
  await addItem(page, 'Woda mineralna 0,5 l');
  await addItem(page, 'Woda mineralna 0,5 l');
  await page.getByTestId('pos-groups').getByText('Ręczniki').click();
  await addItem(page, 'Ręcznik mały');
  await expect(page.getByTestId('pos-due')).toHaveText(/^35([.,]00)? zł$/);
  await expect(page.getByTestId('pos-discount')).toBeVisible(); // the manager holds sales.discount
  await page.getByTestId('pos-payment-amount-0').fill('50');
  await expect(page.getByTestId('pos-change')).toHaveText(/^15([.,]00)? zł$/);
  await shoot(page, 'basket');
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done-receipt')).toHaveAttribute('data-status', 'printed', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('pos-done-change')).toHaveText(/^15([.,]00)? zł$/);
  await shoot(page, 'sold');
  const first = receipts().at(-1)!;
  expect(first.lines.map((l) => l.name)).toEqual(['Woda mineralna 0,5 l', 'Ręcznik mały']);
  expect(first.total).toBe(3500);
  expect(first.payments).toEqual([expect.objectContaining({ amount: 5000 })]);
  expect(first.change).toBe(1500);
  // The drawer was kicked for the cash.
  await expect.poll(() => Buffer.concat(ticketBytes).includes(DRAWER_KICK)).toBe(true);

  // Sale 2: a pass to a client, split cash 20,00 + card terminal for the rest.
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('pos-client-search').fill('Nowak');
  await page.getByTestId('pos-client-option').filter({ hasText: 'Julia' }).first().click();
  await expect(page.getByTestId('pos-client')).toHaveText(/Julia Nowak/);
  await page.getByTestId('pos-groups').getByText('Pass', { exact: true }).click();
  await page.getByTestId('pos-result').first().click();
  const passDue = (await page.getByTestId('pos-due').textContent())!;
  await page.getByTestId('pos-payment-amount-0').fill('20');
  await page.getByTestId('pos-add-payment').click();
  await page.getByTestId('pos-payment-rest-1').click();
  await expect(page.getByTestId('pos-remaining')).toHaveCount(0);
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done-receipt')).toHaveAttribute('data-status', 'printed', {
    timeout: 30_000,
  });
  const second = receipts().at(-1)!;
  expect(second.lines).toHaveLength(1);
  expect(second.payments.map((p) => p.amount)).toContain(2000);
  expect(second.payments).toHaveLength(2);
  expect(second.total).toBe(second.payments.reduce((s, p) => s + p.amount, 0));
  expect(minor(passDue)).toBe(second.total);
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });

  // The cloud goes away: the desk keeps selling (recorded here, printed, waiting to sync).
  await stopChild(cloud);
  cloud = null;
  await expect(page.getByTestId('sync-online')).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('pos-search').fill('Kombucha');
  await page.getByTestId('pos-search').press('Enter');
  await page.getByTestId('pos-payment-rest-0').click();
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done-receipt')).toHaveAttribute('data-status', 'printed', {
    timeout: 30_000,
  });
  expect(
    receipts()
      .at(-1)!
      .lines.map((l) => l.name),
  ).toEqual(['Kombucha']);
  await expect(pending).toHaveText('1 change waiting to sync', { timeout: 10_000 });
  await shoot(page, 'offline-sold');
  // The close waits for the sale to reach the cloud.
  await page.getByTestId('pos-new-sale').click();
  await page.getByTestId('shift-close').click();
  await page.getByTestId('shift-counted').fill('264');
  await page.getByTestId('shift-close-confirm').click();
  await expect(page.getByTestId('shift-error')).toContainText('waiting to sync');
  await page.keyboard.press('Escape');

  // Back online: the sales go up, once; the cloud's shift counts all three.
  cloud = await startCloud();
  await expect(page.getByTestId('sync-online')).toHaveAttribute('data-state', 'online', { timeout: 20_000 });
  await expect(pending).toHaveText('All changes synced', { timeout: 30_000 });
  await expect
    .poll(
      async () =>
        (
          await viaStation<{ shift: { sales: number } | null }>(
            page,
            'GET',
            `v4/${studio}/studio-pos/${pos.id}/shift/current`,
          )
        ).shift?.sales ?? null,
      { timeout: 30_000 },
    )
    .toBe(3);

  // The prices are the cloud's again: no "offline" badge left behind.
  await expect(page.getByTestId('pos-offline')).toHaveCount(0, { timeout: 30_000 });

  // Close with the counted cash: the daily report prints on the emulator.
  const expected = (await page.getByTestId('shift-expected').textContent())!;
  await page.getByTestId('shift-close').click();
  await page.getByTestId('shift-counted').fill(expected.replace(/[^\d,.]/g, '').replace(/\s/g, ''));
  await page.getByTestId('shift-close-confirm').click();
  await expect(page.getByTestId('shift-closed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('shift-closed')).toContainText('Daily fiscal report printed');
  await expect(page.getByTestId('shift-difference')).toHaveText('The cash agrees');
  const report = emulator.roll.filter((d) => d.kind === 'dailyReport');
  expect(report).toHaveLength(1);
  expect(report[0]).toMatchObject({ receipts: 3 });
  await shoot(page, 'closed');
  // The summary stays until dismissed (the screen's state poll has long seen the shift closed), then
  // the next shift can be opened.
  await expect(page.getByTestId('shift-closed')).toContainText('Daily fiscal report printed');
  await page.getByTestId('shift-next').click();
  await expect(page.getByTestId('shift-closed')).toHaveCount(0);
  await expect(page.getByTestId('shift-float')).toBeVisible();
  await expect(page.getByTestId('shift-bar')).toHaveCount(0);
});
