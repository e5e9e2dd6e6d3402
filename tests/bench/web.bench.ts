/**
 * Time to usable content of eight web flows in a real browser (`npm run bench:web`, issue 26).
 *
 * Starts the e2e demo server (tests/e2e/support/server.ts: a fresh embedded database with the demo
 * studio; it builds dist/web first when it is stale) on BENCH_WEB_PORT (else E2E_PORT, else 4170), and drives
 * Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) through Playwright, laptop-sized, in
 * English, against the demo studio:
 *
 * | flow | what is timed (the element a user waits for) |
 * |---|---|
 * | timetable | client: opening the front office's timetable → the week's first class |
 * | account tabs | client: visits, passes, purchases, wallet, profile through the menu → each screen's content (one sample per tab) |
 * | booking | client: "Book" on a class of the timetable → the card says booked |
 * | pos sale | front desk: opening the POS → its search; "Sell" (a drink, cash) → the sale's receipt panel |
 * | invoice | manager: opening a paid order → "Issue invoice"; the form; "Issue" → the invoice |
 * | kiosk identify | kiosk: a card number + Enter → "Hello, …" with the client's classes |
 * | client search | manager: typing a client's e-mail in the clients list → that one row |
 * | schedule week | manager: opening the schedule → the week with its classes |
 *
 * A flow of several waits counts their sum (the time the person spent waiting, not typing). Each
 * flow runs BENCH_WEB_ROUNDS times (default 7) after one warm-up round; the browser cache is on (a
 * returning user), every round a fresh page. Prints each flow's p50/p95, the load average beside
 * them (the machine is shared), with BENCH_WEB_VERBOSE=1 the requests of each flow's slowest round
 * (from the page's performance entries: start, duration, transfer size, Server-Timing), and last
 * `web flows p95 ms = N, slowest = NAME M` (N = the worst flow's p95). It prints figures; it never
 * passes or fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { HttpClient } from '../support/http-client';
import type { DemoDetails } from '../e2e/support/demo';
import { addClassService, call, studioDay } from '../e2e/support/studio-api';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORT = Number(process.env.BENCH_WEB_PORT ?? process.env.E2E_PORT ?? 4170);
const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 7);
const VERBOSE = process.env.BENCH_WEB_VERBOSE === '1';
const ONLY = process.env.BENCH_WEB_FLOWS?.split(',').map((s) => s.trim());
const RESULTS = path.join(ROOT, 'test-results-bench-web');
const VIEWPORT = { width: 1280, height: 800 };

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// ------------------------------------------------------------------------------------------ server

async function startDemoServer(): Promise<{ child: ChildProcess; demo: DemoDetails & Record<string, any> }> {
  rmSync(RESULTS, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/support/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), E2E_RESULTS_DIR: RESULTS, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the demo server exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (VERBOSE) process.stdout.write(text);
      if (text.includes('[e2e] cloud server on')) resolve();
    });
  });
  const file = path.join(RESULTS, 'demo.json');
  if (!existsSync(file)) throw new Error('the demo server wrote no demo.json');
  return { child, demo: JSON.parse(readFileSync(file, 'utf8')) };
}

// ---------------------------------------------------------------------------------------- browser

interface Sample {
  ms: number;
  /** The page's requests during the timed waits (for the verbose waterfall). */
  entries: string[];
}

/** The requests the page made since `since` (ms on its clock): start, duration, size, server timing. */
async function requestsSince(page: Page, since: number): Promise<string[]> {
  return page.evaluate((from) => {
    return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.startTime >= from - 1)
      .map((e) => {
        const server = (e.serverTiming ?? []).map((s) => `${s.name}=${Math.round(s.duration)}`).join(' ');
        const url = e.name.replace(location.origin, '');
        return `${Math.round(e.startTime - from)
          .toString()
          .padStart(5)} +${Math.round(e.duration)
          .toString()
          .padStart(
            4,
          )} ms ${String(Math.round(e.transferSize / 1024)).padStart(4)} KB  ${url.slice(0, 110)}${server ? `  [${server}]` : ''}`;
      });
  }, since);
}

/** Times `wait` after `act`: the user's action, then the element they wait for. */
class Timer {
  total = 0;
  entries: string[] = [];
  constructor(readonly page: Page) {}
  async measure(act: () => Promise<unknown>, wait: () => Promise<unknown>): Promise<void> {
    const from = await this.page.evaluate(() => performance.now()).catch(() => 0);
    const started = performance.now();
    await act();
    await wait();
    this.total += performance.now() - started;
    if (VERBOSE) this.entries.push(...(await requestsSince(this.page, from).catch(() => [])));
  }
  /** A navigation: the page's clock restarts, so the entries are read from 0. */
  async navigate(url: string, wait: () => Promise<unknown>): Promise<void> {
    const started = performance.now();
    await this.page.goto(url, { waitUntil: 'commit' });
    await wait();
    this.total += performance.now() - started;
    if (VERBOSE) this.entries.push(...(await requestsSince(this.page, 0).catch(() => [])));
  }
  sample(): Sample {
    return { ms: this.total, entries: this.entries };
  }
}

const visible = (page: Page, selector: string) =>
  page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });

async function signInBackoffice(context: BrowserContext, demo: DemoDetails, email: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${demo.baseURL}/${demo.studioUuid}/backoffice`);
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name="emailAddress"]').fill(email);
  await form.locator('input[name="password"]').fill(demo.managerPassword);
  await page.getByTestId('sign-in-submit').click();
  await visible(page, '[data-testid="welcome-card"]');
  await page.close();
}

async function signInFrontoffice(context: BrowserContext, demo: DemoDetails): Promise<void> {
  const page = await context.newPage();
  const query = new URLSearchParams({
    username: demo.clientEmail!,
    showLoginForm: '1',
    redirectAfterLogin: 'timetable',
  });
  await page.goto(`${demo.baseURL}/${demo.studioUuid}/frontoffice/login?${query}`);
  await page.getByTestId('sign-in-form').locator('input[name="password"]').fill(demo.clientPassword!);
  await page.getByTestId('sign-in-submit').click();
  await page.waitForURL(/\/frontoffice\/timetable/);
  await page.close();
}

// ------------------------------------------------------------------------------------------ setup

interface Fixture {
  demo: DemoDetails & Record<string, any>;
  manager: HttpClient;
  clientId: string;
  /** The bench's free class the client books and cancels (tomorrow, on the studio's clock). */
  className: string;
  cardNumber: string;
  kioskUrl: string;
}

async function arrange(demo: DemoDetails & Record<string, any>, kiosk: BrowserContext): Promise<Fixture> {
  const studio = demo.studioUuid;
  const manager = await HttpClient.signedIn(demo.baseURL, demo.managerEmail, demo.managerPassword, studio);
  const init = await call(manager, 'GET', `/api/v4/${studio}/schedule/init`);
  // A free class tomorrow at 05:00 (the demo's timetable starts later): bookable without a pass.
  const className = `Bench flow ${Date.now().toString(36)}`;
  const service = await addClassService(manager, studio, {
    serviceType: 'classroom',
    name: { en: { value: className }, pl: { value: `${className} PL` } },
    durationMinutes: 45,
    freeOfCharge: true,
  });
  const meta = await call(
    manager,
    'POST',
    `/api/v2/${studio}/class-services/${service.id}/schedule-metas`,
    {
      locationId: init.locations[0].id,
      daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
      startTime: '05:00',
      durationMinutes: 45,
      firstDate: studioDay(1),
      lastDate: studioDay(1),
      capacity: 20,
    },
    201,
  );
  await call(manager, 'POST', `/api/v2/${studio}/schedule-events/generate`, { scheduleMetaIds: [meta.id] });

  const found = await call(
    manager,
    'GET',
    `/api/v4/${studio}/client/search?q=${encodeURIComponent(demo.clientEmail!)}`,
  );
  const clientId = found.items[0].id as string;
  const cardNumber = `BENCH-${Date.now().toString(36).toUpperCase()}`;
  const identity = await manager.request('POST', `/api/v4/${studio}/client/${clientId}/client-identity`, {
    cardNumber,
  });
  if (identity.status >= 300) throw new Error(`client identity: ${identity.status} ${identity.text}`);

  // The kiosk: set up once the way a studio does (entry app's /kiosk, uuid + kiosk key); its session
  // stays in this context.
  const page = await kiosk.newPage();
  await page.goto(`${demo.baseURL}/kiosk`);
  await page.locator('input[name="uuid"]').fill(studio);
  await page.locator('input[name="kioskKey"]').fill(demo.kioskKey);
  await page.getByTestId('kiosk-submit').click();
  await page.waitForURL(new RegExp(`/${studio}/kiosk/[0-9a-f-]{36}$`));
  const kioskUrl = page.url();
  await page.close();
  return { demo, manager, clientId, className, cardNumber, kioskUrl };
}

/** A paid order of the demo client (a drink, cash) to invoice: its id. */
async function paidOrder(f: Fixture, round: number): Promise<string> {
  const api = `/api/v4/${f.demo.studioUuid}`;
  const init = await call(f.manager, 'GET', `${api}/retail/init`);
  const product = (init.items as { type: string; id: string; price: number; stock: number | null }[]).find(
    (i) => i.type === 'product' && i.price > 0 && (i.stock ?? 1) > 0,
  )!;
  const res = await f.manager.request(
    'POST',
    `${api}/retail/checkout`,
    {
      clientId: f.clientId,
      items: [{ type: 'product', id: product.id }],
      payments: [{ method: 2, amount: product.price }],
    },
    { headers: { 'idempotency-key': `bench-web-${Date.now()}-${round}` } },
  );
  if (res.status !== 201) throw new Error(`checkout: ${res.status} ${res.text}`);
  return res.body.orders[0].id as string;
}

// ------------------------------------------------------------------------------------------ flows

type Flow = (f: Fixture, contexts: Contexts, round: number) => Promise<Sample[]>;
interface Contexts {
  client: BrowserContext;
  manager: BrowserContext;
  desk: BrowserContext;
  kiosk: BrowserContext;
}

async function onPage(context: BrowserContext, run: (page: Page) => Promise<Sample[]>): Promise<Sample[]> {
  const page = await context.newPage();
  try {
    return await run(page);
  } finally {
    await page.close();
  }
}

const FLOWS: Record<string, Flow> = {
  timetable: (f, c) =>
    onPage(c.client, async (page) => {
      const timer = new Timer(page);
      await timer.navigate(`${f.demo.baseURL}/${f.demo.studioUuid}/frontoffice/timetable`, () =>
        visible(page, '[data-testid="timetable-event"]'),
      );
      return [timer.sample()];
    }),

  'account tabs': (f, c) =>
    onPage(c.client, async (page) => {
      const samples: Sample[] = [];
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/frontoffice/timetable`);
      await visible(page, '[data-testid="timetable-event"]');
      const tabs: [string, string][] = [
        ['visits', '[data-testid="visits-list"], [data-testid="visits-empty"]'],
        ['passes', '[data-testid="my-passes"]'],
        ['purchases', '[data-testid="purchase"]'],
        ['wallet', '[data-testid="wallet-balance"]'],
        ['profile', '[data-testid="account-profile"]'],
      ];
      for (const [tab, ready] of tabs) {
        const timer = new Timer(page);
        await timer.measure(
          () => page.getByTestId(`frontoffice-menu-${tab}`).first().click(),
          () => visible(page, ready),
        );
        samples.push(timer.sample());
      }
      return samples;
    }),

  booking: (f, c) =>
    onPage(c.client, async (page) => {
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/frontoffice/timetable`);
      await visible(page, '[data-testid="timetable-event"]');
      let card = page.getByTestId('timetable-event').filter({ hasText: f.className });
      if ((await card.count()) === 0) {
        await page.getByTestId('timetable-next').click();
        card = page.getByTestId('timetable-event').filter({ hasText: f.className });
      }
      await card.getByTestId('timetable-book').waitFor({ state: 'visible' });
      const timer = new Timer(page);
      await timer.measure(
        () => card.getByTestId('timetable-book').click(),
        () => card.getByTestId('my-status').waitFor({ state: 'visible' }),
      );
      // Cancel again (not timed) so the next round books anew.
      await card.getByTestId('timetable-cancel').click();
      await page.getByTestId('timetable-cancel-confirm').click();
      await card.getByTestId('timetable-book').waitFor({ state: 'visible' });
      return [timer.sample()];
    }),

  'pos sale': (f, c) =>
    onPage(c.desk, async (page) => {
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/backoffice`);
      await visible(page, '[data-testid="welcome-card"]');
      const timer = new Timer(page);
      await timer.measure(
        () => page.getByTestId('nav-pos').click(),
        () => visible(page, '[data-testid="pos-result"]'),
      );
      await page.getByTestId('pos-search').fill('Woda mineralna');
      await page.getByTestId('pos-result').filter({ hasText: 'Woda mineralna' }).first().click();
      await visible(page, '[data-testid="pos-basket-line"]');
      // Cash, the exact amount due (the drink's price as the summary shows it).
      // The amount due comes from the cloud's quote ("…" until it answers).
      await page.waitForFunction(() =>
        /\d/.test(document.querySelector('[data-testid="pos-due"]')?.textContent ?? ''),
      );
      const due = (await page.getByTestId('pos-due').innerText()).replace(/[^\d,.]/g, '').replace(',', '.');
      await page.getByTestId('pos-payment-amount-0').fill(due);
      const sell = page.getByTestId('pos-sell');
      await page.waitForFunction(
        () => !document.querySelector<HTMLButtonElement>('[data-testid="pos-sell"]')?.disabled,
      );
      await timer.measure(
        () => sell.click(),
        () => visible(page, '[data-testid="pos-done"]'),
      );
      return [timer.sample()];
    }),

  invoice: async (f, c, round) => {
    const orderId = await paidOrder(f, round);
    return onPage(c.manager, async (page) => {
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/backoffice`);
      await visible(page, '[data-testid="welcome-card"]');
      const timer = new Timer(page);
      await timer.measure(
        () => page.evaluate((id) => (location.hash = `#/orders/${id}`), orderId),
        () => visible(page, '[data-testid="order-issue-invoice"]'),
      );
      await timer.measure(
        () => page.getByTestId('order-issue-invoice').click(),
        () => visible(page, '[data-testid="invoice-issue-form"] input[name="buyer.name"]'),
      );
      const form = page.getByTestId('invoice-issue-form');
      await form.locator('input[name="buyer.addressLine"]').fill('ul. Złota 44/12');
      await form.locator('input[name="buyer.postalCode"]').fill('00-120');
      await form.locator('input[name="buyer.city"]').fill('Warszawa');
      await timer.measure(
        () => page.getByTestId('invoice-issue-submit').click(),
        () => visible(page, '[data-testid="invoice-detail"]'),
      );
      return [timer.sample()];
    });
  },

  'kiosk identify': (f, c) =>
    onPage(c.kiosk, async (page) => {
      await page.goto(f.kioskUrl);
      await visible(page, '[data-testid="kiosk-code"]');
      await page.getByTestId('kiosk-code').fill(f.cardNumber);
      const timer = new Timer(page);
      await timer.measure(
        () => page.keyboard.press('Enter'),
        () => visible(page, '[data-testid="kiosk-hello"]'),
      );
      return [timer.sample()];
    }),

  'client search': (f, c) =>
    onPage(c.manager, async (page) => {
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/backoffice#/clients`);
      await visible(page, '[data-testid="client-row"]');
      const timer = new Timer(page);
      await timer.measure(
        () => page.getByTestId('clients-search').fill(f.demo.clientEmail!),
        () =>
          page.waitForFunction(
            (email) => {
              const rows = document.querySelectorAll('[data-testid="client-row"]');
              return rows.length === 1 && (rows[0]!.textContent ?? '').includes(email);
            },
            f.demo.clientEmail!,
            { polling: 'raf', timeout: 30_000 },
          ),
      );
      return [timer.sample()];
    }),

  'schedule week': (f, c) =>
    onPage(c.manager, async (page) => {
      await page.goto(`${f.demo.baseURL}/${f.demo.studioUuid}/backoffice`);
      await visible(page, '[data-testid="welcome-card"]');
      const timer = new Timer(page);
      await timer.measure(
        () => page.getByTestId('nav-schedule').first().click(),
        () => visible(page, '[data-testid="schedule-event"]'),
      );
      return [timer.sample()];
    }),
};

// ------------------------------------------------------------------------------------------- main

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  console.log(`bench:web — ${os.cpus().length} cores, load average ${load()} at the start`);
  const { child, demo } = await startDemoServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const newContext = () => browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
    const contexts: Contexts = {
      client: await newContext(),
      manager: await newContext(),
      desk: await newContext(),
      kiosk: await newContext(),
    };
    for (const context of Object.values(contexts))
      await context.addCookies([{ name: 'locale', value: 'en', url: demo.baseURL }]);
    const f = await arrange(demo, contexts.kiosk);
    await signInFrontoffice(contexts.client, demo);
    await signInBackoffice(contexts.manager, demo, demo.managerEmail);
    await signInBackoffice(contexts.desk, demo, 'frontdesk@demo.studio');

    const names = Object.keys(FLOWS).filter((n) => !ONLY || ONLY.includes(n));
    const samples = new Map<string, Sample[]>(names.map((n) => [n, []]));
    const loads: string[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      for (const name of names) {
        const got = await FLOWS[name]!(f, contexts, round);
        if (round > 0) samples.get(name)!.push(...got); // round 0 warms the caches up
      }
      loads.push(load());
      console.log(`round ${round}${round === 0 ? ' (warm-up)' : ''} done, load average ${load()}`);
    }

    console.log(
      `\nflow              p50 ms   p95 ms   samples   (load average during the run: ${loads.join(' | ')})`,
    );
    let worst = { name: '', p95: 0 };
    for (const name of names) {
      const list = samples.get(name)!;
      const sorted = list.map((s) => s.ms).sort((a, b) => a - b);
      const p50 = percentile(sorted, 50);
      const p95 = percentile(sorted, 95);
      if (p95 > worst.p95) worst = { name, p95 };
      console.log(
        `${name.padEnd(16)} ${p50.toFixed(0).padStart(7)} ${p95.toFixed(0).padStart(8)} ${String(sorted.length).padStart(9)}`,
      );
      if (VERBOSE) {
        const slowest = list.reduce((a, b) => (b.ms > a.ms ? b : a));
        console.log(`  slowest round ${slowest.ms.toFixed(0)} ms — requests (start ms, duration, size):`);
        for (const line of slowest.entries) console.log(`    ${line}`);
      }
    }
    console.log(`machine: ${os.cpus().length} cores, load average ${load()} at the end`);
    console.log(
      `web flows p95 ms = ${worst.p95.toFixed(0)}, slowest = ${worst.name} ${worst.p95.toFixed(0)}`,
    );
  } finally {
    await browser.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
