import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { PrintedDocument } from '../../../desktop/main/printing/emulator/device';
import { listenTcp } from '../../../desktop/main/printing/emulator/endpoints';
import { PosnetEmulator } from '../../../desktop/main/printing/emulator/emulator';
import { ROOT } from './paths';
import { capture, screenVariants } from './screenshots';
import { startChild, stopChild } from './processes';

/**
 * The desktop e2e rig, one Playwright fixture for every desktop spec: a cloud of its own (the demo
 * studio on a fresh embedded database, `desktop/host/test-cloud.ts`), the desktop's main process
 * served to Chromium by `desktop/host/server.ts` (no Electron binary needed), a work directory for
 * both, and — where the spec asks — the POSNET fiscal emulator on TCP and an ESC/POS ticket printer
 * (a TCP socket or a file). A spec picks its ports and parts with `test.use({ deskOptions })`; its
 * tests get `desk` (worker-scoped: started once for the file, stopped after it) and stop and start
 * the cloud or the station themselves to go offline or crash.
 */
export interface DeskOptions {
  /** Names the work directory and screenshots. */
  name: string;
  cloudPort: number;
  hostPort: number;
  /** Start the station with the rig (default) or leave it to the test (`desk.startHost()`). */
  startHost?: boolean;
  /** The POSNET emulator on this TCP port (the station's fiscal printer is configured by the test). */
  fiscalPort?: number;
  /** An ESC/POS ticket printer: a TCP port that records what it is sent, or a file the station writes. */
  ticketPrinter?: { tcpPort: number } | 'file';
  /** More environment for the station (`DESKTOP_MODE: 'kiosk'` …). */
  hostEnv?: Record<string, string>;
}

const RENDERER_DIR =
  process.env.DESKTOP_RENDERER_DIR ??
  (process.env.WEB_DIST_DIR
    ? path.join(path.dirname(path.resolve(process.env.WEB_DIST_DIR)), 'desktop-renderer')
    : path.join(ROOT, 'out', 'renderer'));
export const SHOTS_DIR = process.env.DESKTOP_SHOTS_DIR ?? path.join(ROOT, 'test-results', 'screenshots');
export const MANAGER = { email: 'manager@demo.studio', password: 'demo1234', name: 'Anna Kowalska' };
export const FRONT_DESK = { email: 'frontdesk@demo.studio', password: 'demo1234' };
/** ESC p 0 25 250: the drawer kick the station sends with a cash sale. */
export const DRAWER_KICK = Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]);

export class Desk {
  readonly workDir: string;
  readonly cloudUrl: string;
  readonly hostUrl: string;
  readonly emulator: PosnetEmulator | null;
  private cloud: ChildProcess | null = null;
  private host: ChildProcess | null = null;
  private fiscalServer: { close(): Promise<void> } | null = null;
  private ticketServer: net.Server | null = null;
  private readonly ticketChunks: Buffer[] = [];

  constructor(readonly options: DeskOptions) {
    this.workDir = mkdtempSync(path.join(tmpdir(), `${options.name}-e2e-`));
    this.cloudUrl = `http://localhost:${options.cloudPort}`;
    this.hostUrl = `http://localhost:${options.hostPort}`;
    this.emulator = options.fiscalPort ? new PosnetEmulator() : null;
  }

  async start(): Promise<void> {
    if (this.emulator) this.fiscalServer = await listenTcp(this.emulator, { port: this.options.fiscalPort! });
    const printer = this.options.ticketPrinter;
    if (printer && printer !== 'file') {
      this.ticketServer = net.createServer((socket) =>
        socket.on('data', (chunk) => this.ticketChunks.push(chunk)),
      );
      await new Promise<void>((resolve) => this.ticketServer!.listen(printer.tcpPort, '127.0.0.1', resolve));
    }
    await this.startCloud();
    if (this.options.startHost !== false) await this.startHost();
  }

  /** The cloud (again, after `stopCloud`), on its port or another one ("online elsewhere"). */
  async startCloud(port = this.options.cloudPort): Promise<void> {
    this.cloud = await startChild(
      ['desktop/host/test-cloud.ts', String(port), path.join(this.workDir, 'cloud')],
      {},
      /^READY /m,
    );
  }

  /** Stops the cloud: the station goes offline. */
  async stopCloud(): Promise<void> {
    // A paused cloud would keep SIGTERM pending until continued.
    this.resumeCloud();
    await stopChild(this.cloud);
    this.cloud = null;
  }

  /**
   * The cloud goes silent (SIGSTOP): it still accepts connections — the kernel's backlog — but never
   * answers, as a hung server or a broken proxy does. `resumeCloud` (SIGCONT) lets it answer again.
   */
  pauseCloud(): void {
    this.cloud?.kill('SIGSTOP');
  }

  resumeCloud(): void {
    this.cloud?.kill('SIGCONT');
  }

  async startHost(): Promise<void> {
    const printer = this.options.ticketPrinter;
    this.host = await startChild(
      ['desktop/host/server.ts'],
      {
        DESKTOP_HOST_PORT: String(this.options.hostPort),
        STUDIO_CLOUD_URL: this.cloudUrl,
        DESKTOP_DATA_DIR: path.join(this.workDir, 'station'),
        DESKTOP_RENDERER_DIR: RENDERER_DIR,
        DESKTOP_PROBE_MS: '1000',
        ...(printer === 'file' ? { DESKTOP_TICKET_PRINTER: `file:${this.ticketsFile}` } : {}),
        ...(printer && printer !== 'file'
          ? { DESKTOP_TICKET_PRINTER: `tcp://127.0.0.1:${printer.tcpPort}` }
          : {}),
        ...this.options.hostEnv,
      },
      /station on http/,
    );
  }

  /** Stops the station (SIGKILL: the desk process crashes). */
  async stopHost(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await stopChild(this.host, signal);
    this.host = null;
  }

  get stationDir(): string {
    return path.join(this.workDir, 'station');
  }

  get ticketsFile(): string {
    return path.join(this.workDir, 'tickets.bin');
  }

  /** Every byte the ticket printer received so far. */
  ticketBytes(): Buffer {
    if (this.options.ticketPrinter === 'file')
      return existsSync(this.ticketsFile) ? readFileSync(this.ticketsFile) : Buffer.alloc(0);
    return Buffer.concat(this.ticketChunks);
  }

  /** The fiscal receipts on the emulator's roll. */
  receipts() {
    return (this.emulator?.roll ?? []).filter(
      (d): d is Extract<PrintedDocument, { kind: 'receipt' }> => d.kind === 'receipt',
    );
  }

  async stop(): Promise<void> {
    await this.stopHost();
    await this.stopCloud();
    await this.fiscalServer?.close();
    await new Promise((resolve) => (this.ticketServer ? this.ticketServer.close(resolve) : resolve(null)));
    if (process.env.DESKTOP_KEEP_WORKDIR === '1') console.log(`[${this.options.name}] kept ${this.workDir}`);
    else rmSync(this.workDir, { recursive: true, force: true });
  }
}

export const test = base.extend<object, { deskOptions: DeskOptions; desk: Desk }>({
  deskOptions: [
    { name: 'desktop', cloudPort: 4328, hostPort: 4327 },
    { option: true, scope: 'worker' },
  ],
  desk: [
    async ({ deskOptions }, use) => {
      const desk = new Desk(deskOptions);
      try {
        await desk.start();
        await use(desk);
      } finally {
        await desk.stop();
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
});
export { expect };

// ------------------------------------------------------------------------- the station, from a page

/** A call through the station as the renderer makes it: its answer `{ status, body }` (cloud or offline). */
export async function stationCall(
  page: Page,
  method: 'GET' | 'POST',
  apiPath: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
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
      return { status: result.value.status, body: JSON.parse(result.value.body) as unknown };
    },
    { method, apiPath, body },
  );
}

/** The same, for a call that must succeed: its body (throws with the answer otherwise). */
export async function viaStation<T>(
  page: Page,
  method: 'GET' | 'POST',
  apiPath: string,
  body?: unknown,
): Promise<T> {
  const answer = await stationCall(page, method, apiPath, body);
  if (answer.status >= 300) throw new Error(`${apiPath}: ${JSON.stringify(answer)}`);
  return answer.body as T;
}

/** Who is signed in at the station and for which studio. */
export async function stationState(page: Page): Promise<{ managerId: string; studioUuid: string }> {
  return page.evaluate(async () => {
    const response = await fetch('/ipc/stationState', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const result = (await response.json()) as {
      value: { staff: { userId: string }; device: { studioUuid: string } };
    };
    return { managerId: result.value.staff?.userId, studioUuid: result.value.device.studioUuid };
  });
}

export async function setLanguage(page: Page, locale: 'EN' | 'PL'): Promise<void> {
  await page.getByTestId('language-switch').first().getByText(locale, { exact: true }).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('lang', locale.toLowerCase());
}

/**
 * Screenshots of the page in EN and PL at the given sizes (`<prefix>-<name>-<locale>-<width>.png` in
 * DESKTOP_SHOTS_DIR); `ready` waits for what must show at each before it is taken. Back to the page's
 * language and size after. With E2E_SCREENSHOTS=0, only the pairs of `screenVariants(sizes)`.
 */
export async function shoot(
  page: Page,
  name: string,
  options: {
    prefix?: string;
    sizes?: ReadonlyArray<readonly [number, number]>;
    ready?: () => Promise<void>;
    fullPage?: boolean;
  } = {},
): Promise<void> {
  const sizes = options.sizes ?? [[1280, 800]];
  const was = (await page.locator('html').getAttribute('lang')) === 'pl' ? 'PL' : 'EN';
  const before = page.viewportSize();
  mkdirSync(SHOTS_DIR, { recursive: true });
  let shown: 'EN' | 'PL' | null = null;
  for (const [locale, [width, height]] of screenVariants(sizes)) {
    if (locale !== shown) await setLanguage(page, locale);
    shown = locale;
    await page.setViewportSize({ width, height });
    await options.ready?.();
    await capture(page, {
      path: path.join(
        SHOTS_DIR,
        `${options.prefix ?? 'desktop'}-${name}-${locale.toLowerCase()}-${width}.png`,
      ),
      animations: 'disabled',
      fullPage: options.fullPage ?? false,
    });
  }
  await setLanguage(page, was);
  await page.setViewportSize(before ?? { width: sizes[0]![0], height: sizes[0]![1] });
}

/** The station's first sign-in form (and its name, the first time). */
export async function signInStation(
  page: Page,
  email: string,
  password: string,
  stationName?: string,
): Promise<void> {
  const form = page.getByTestId('station-sign-in');
  await form.locator('input[name="emailAddress"]').fill(email);
  await form.locator('input[name="password"]').fill(password);
  if (stationName) await form.locator('input[name="stationName"]').fill(stationName);
  await page.getByTestId('station-sign-in-submit').click();
}

/** The PIN the station asks for after the first sign-in. */
export async function setStationPin(page: Page, pin: string): Promise<void> {
  const dialog = page.getByTestId('set-pin-form');
  await expect(dialog).toBeVisible();
  await dialog.locator('input[name="pin"]').fill(pin);
  await dialog.locator('input[name="repeat"]').fill(pin);
  await page.getByTestId('set-pin-submit').click();
  await expect(dialog).toBeHidden();
}

// ------------------------------------------------------------------------------------------ the POS

/** The manager's first sign-in at this station (its name, a PIN); waits until everything is synced. */
export async function signInManager(page: Page, desk: Desk, stationName = 'Front desk POS'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(desk.hostUrl);
  await signInStation(page, MANAGER.email, MANAGER.password, stationName);
  await setStationPin(page, '1357');
  await expect(page.getByTestId('status-staff')).toHaveText(MANAGER.name);
  await expect(page.getByTestId('sync-pending')).toHaveText('All changes synced', { timeout: 30_000 });
}

/**
 * The studio's till with the rig's emulator as its fiscal printer (set up in the cloud through the
 * station, as staff do), then the POS screen with a shift opened with `float` zł in the drawer.
 */
export async function openTill(
  page: Page,
  desk: Desk,
  float: number,
): Promise<{ studio: string; posId: string }> {
  const { studioUuid: studio } = await stationState(page);
  const pos = await viaStation<{ id: string }>(page, 'POST', `v4/${studio}/studio-pos`, {
    name: 'Recepcja',
    slug: 'recepcja-1',
  });
  await viaStation(page, 'POST', `v4/${studio}/fiscal-printer`, {
    name: 'POSNET Thermal',
    stationSlug: 'recepcja-1',
    connection: { kind: 'tcp', host: '127.0.0.1', port: desk.options.fiscalPort },
  });
  await page.getByTestId('nav-pos').click();
  await expect(page.getByTestId('pos-station-screen')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('pos-station').selectOption(pos.id);
  await page.getByTestId('shift-float').fill(String(float));
  await page.getByTestId('shift-open').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible();
  await expect(page.getByTestId('pos-printer')).toHaveText('Fiscal printer ready');
  return { studio, posId: pos.id };
}

/** Adds a product from the POS's results to the basket. */
export async function addPosItem(page: Page, name: string): Promise<void> {
  await page.getByTestId('pos-result').filter({ hasText: name }).first().click();
}

/** The POS specs' screenshots: 1024, 1280 and 1920 wide, EN and PL. */
export const POS_SIZES = [
  [1024, 768],
  [1280, 800],
  [1920, 1080],
] as const;

/** "120 zł" or "1 234,50 zł" → minor units. */
export function zlotyToMinor(text: string): number {
  const [whole, cents = '0'] = text
    .replace(/[^\d,.]/g, '')
    .replace('.', ',')
    .split(',');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

/**
 * A desktop POS spec's desk (serial tests): its own ports from DESKTOP_POS_PORT_BASE (5100): cloud +0,
 * host +1, fiscal emulator +2, ticket printer (TCP) +3. Answers its screenshot function (POS sizes,
 * names `desktop-pos-…`).
 */
export function usePosDesk(name: string): (page: Page, shot: string) => Promise<void> {
  const portBase = Number(process.env.DESKTOP_POS_PORT_BASE ?? 5100);
  test.use({
    deskOptions: {
      name,
      cloudPort: portBase,
      hostPort: portBase + 1,
      fiscalPort: portBase + 2,
      ticketPrinter: { tcpPort: portBase + 3 },
    },
  });
  test.describe.configure({ mode: 'serial' });
  return (page, shot) => shoot(page, shot, { prefix: 'desktop-pos', sizes: POS_SIZES });
}

/** Presses Sell at the POS and waits until the sale's receipt is printed: the names on the emulator's last receipt. */
export async function sellPrinted(page: Page, desk: Desk): Promise<string[]> {
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done-receipt')).toHaveAttribute('data-status', 'printed', {
    timeout: 30_000,
  });
  return desk
    .receipts()
    .at(-1)!
    .lines.map((l) => l.name);
}
