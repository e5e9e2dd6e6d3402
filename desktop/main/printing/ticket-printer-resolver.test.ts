import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TicketPrinter } from '../../../shared/contracts/api/ticket-printers';
import { EscPosTicketPrinter } from './escpos/escpos-ticket-printer';
import { CaptureInterface, FileTicketInterface, TcpTicketInterface } from './escpos/interfaces';
import { printingTranslator } from './i18n';
import type { ShiftSummary } from './ticket-printer';
import {
  TICKET_PRINTERS_FILE,
  TicketPrinterResolver,
  ticketInterfaceFromOverride,
  type TicketPrinterResolverOptions,
} from './ticket-printer-resolver';

const STUDIO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const KIOSK = '0190a1b2-c3d4-7e5f-8a9b-aaaaaaaaaaaa';
const POS = { kind: 'pos', slug: 'desk-1' } as const;
const CUT = Buffer.from([0x1d, 0x56, 0x00]); // GS V 0

const summary: ShiftSummary = {
  kind: 'shiftSummary',
  studioName: 'Studio Harmonia',
  stationName: 'Front desk',
  cashierName: 'Anna Nowak',
  openedAt: '2026-11-24 08:00',
  closedAt: '2026-11-24 16:00',
  receipts: 3,
  cancelledReceipts: 0,
  currency: 'PLN',
  byPayment: [{ label: 'Cash', amount: 4500 }],
  total: 4500,
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ticket-printers-'));
  dirs.push(dir);
  return dir;
}

/** A cloud answering each path with what `answers` says (or throwing: offline). */
function fakeCloud(answers: Record<string, TicketPrinter | 404 | 'offline'>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
    const key = Object.keys(answers).find((k) => url.endsWith(k));
    const answer = key ? answers[key] : 404;
    if (answer === 'offline') throw new TypeError('fetch failed');
    if (answer === 404 || answer === undefined)
      return new Response(JSON.stringify({ error: { code: 1200 } }), { status: 404 });
    return new Response(JSON.stringify({ ticketPrinter: answer }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls, answers };
}

function resolver(
  dir: string,
  fetch: typeof globalThis.fetch,
  extra: Partial<TicketPrinterResolverOptions> = {},
) {
  return new TicketPrinterResolver({
    dataDir: dir,
    cloudUrl: 'http://cloud.test/',
    studioUuid: () => STUDIO,
    deviceToken: () => 'sdt.device.secret',
    fetch,
    ...extra,
  });
}

const LAN: TicketPrinter = { kind: 'tcp', address: '127.0.0.1', port: 9100, widthChars: 42, cut: true };

describe('TicketPrinterResolver: the cloud’s setting', () => {
  it('reads the POS station’s printer with the device token and prints on it', async () => {
    const dir = dataDir();
    const cloud = fakeCloud({ '/station-ticket-printer/pos/desk-1': LAN });
    const r = resolver(dir, cloud.fetch);
    expect(r.resolve(null).interface).toBeNull();

    const fresh = await r.refresh(POS);
    expect(cloud.calls[0]!.url).toBe(`http://cloud.test/api/v4/${STUDIO}/station-ticket-printer/pos/desk-1`);
    expect(cloud.calls[0]!.headers.authorization).toBe('Bearer sdt.device.secret');
    expect(fresh.source).toBe('cloud');
    expect(fresh.settings).toEqual(LAN);
    expect(fresh.interface).toMatchObject({ widthChars: 42, cut: true });
    expect(fresh.interface!.getPrinterName!()).toBe('tcp://127.0.0.1:9100');
    // Kept next to station.json, readable only by the station's user.
    expect(
      JSON.parse(readFileSync(path.join(dir, TICKET_PRINTERS_FILE), 'utf8')).entries['pos:desk-1'].settings,
    ).toEqual(LAN);
    expect(statSync(path.join(dir, TICKET_PRINTERS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('prints a shift summary on the LAN printer the cloud names, at its width', async () => {
    const received: Buffer[] = [];
    const server = net.createServer((socket) => socket.on('data', (chunk) => received.push(chunk)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const cloud = fakeCloud({ 'pos/desk-1': { ...LAN, port, widthChars: 32, cut: false } });
      const r = resolver(dataDir(), cloud.fetch);
      const iface = (await r.refresh(POS)).interface!;
      const printer = new EscPosTicketPrinter({
        interface: iface,
        locale: 'en',
        translate: printingTranslator('en'),
      });
      await printer.print(summary);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const bytes = Buffer.concat(received);
      expect(bytes.includes(Buffer.from('Front desk'))).toBe(true);
      // 32 columns: the line under the heading is 32 dashes, not 48; no cutter: no GS V.
      expect(bytes.includes(Buffer.from(`\n${'-'.repeat(32)}\n`))).toBe(true);
      expect(bytes.includes(Buffer.from('-'.repeat(33)))).toBe(false);
      expect(bytes.includes(CUT)).toBe(false);
    } finally {
      server.close();
    }
  });

  it('reads the kiosk’s printer by its id; a USB device file gets the bytes, cut', async () => {
    const dir = dataDir();
    const device = path.join(dir, 'lp0');
    writeFileSync(device, '');
    const cloud = fakeCloud({
      [`kiosk/${KIOSK}`]: { kind: 'usb-file', address: device, port: null, widthChars: 48, cut: true },
    });
    const r = resolver(dir, cloud.fetch);
    const iface = (await r.refresh({ kind: 'kiosk', kioskId: KIOSK })).interface!;
    expect(iface.getPrinterName!()).toBe(`file:${device}`);
    await new EscPosTicketPrinter({
      interface: iface,
      locale: 'en',
      translate: printingTranslator('en'),
    }).print(summary);
    expect(readFileSync(device).includes(CUT)).toBe(true);
  });

  it('none means no printer; a 404 (the station is gone) forgets what was kept', async () => {
    const dir = dataDir();
    const cloud = fakeCloud({ 'pos/desk-1': LAN });
    const r = resolver(dir, cloud.fetch);
    await r.refresh(POS);
    cloud.answers['pos/desk-1'] = { kind: 'none', address: '', port: null, widthChars: 48, cut: true };
    expect((await r.refresh(POS)).interface).toBeNull();
    cloud.answers['pos/desk-1'] = LAN;
    await r.refresh(POS);
    cloud.answers['pos/desk-1'] = 404;
    const gone = await r.refresh(POS);
    expect(gone).toMatchObject({ source: 'none', interface: null, settings: null });
  });

  it('asks nothing before the station is registered', async () => {
    const cloud = fakeCloud({ 'pos/desk-1': LAN });
    const r = resolver(dataDir(), cloud.fetch, { deviceToken: () => null });
    expect((await r.refresh(POS)).interface).toBeNull();
    expect(cloud.calls).toHaveLength(0);
  });
});

describe('TicketPrinterResolver: offline', () => {
  it('keeps printing on the kept printer when the cloud does not answer, also after a restart', async () => {
    const dir = dataDir();
    const cloud = fakeCloud({ 'pos/desk-1': LAN });
    await resolver(dir, cloud.fetch).refresh(POS);

    cloud.answers['pos/desk-1'] = 'offline';
    const errors: unknown[] = [];
    const restarted = resolver(dir, cloud.fetch, { onError: (e) => errors.push(e) });
    // resolve() answers at once from the kept file (and asks the cloud in the background).
    const now = restarted.resolve(POS);
    expect(now.source).toBe('cloud');
    expect(now.interface!.getPrinterName!()).toBe('tcp://127.0.0.1:9100');
    const after = await restarted.refresh(POS);
    expect(after.settings).toEqual(LAN);
    expect(errors.length).toBeGreaterThan(0);

    // A server error keeps it too.
    const broken = fakeCloud({});
    const r500 = resolver(dir, (async () => new Response('oops', { status: 500 })) as typeof fetch);
    expect((await r500.refresh(POS)).settings).toEqual(LAN);
    expect(broken.calls).toHaveLength(0);
  });

  it('refreshes a kept setting in the background once it is older than refreshMs', async () => {
    let now = new Date('2026-11-24T08:00:00Z');
    const cloud = fakeCloud({ 'pos/desk-1': LAN });
    const r = resolver(dataDir(), cloud.fetch, { clock: () => now, refreshMs: 60_000 });
    await r.refresh(POS);
    r.resolve(POS);
    expect(cloud.calls).toHaveLength(1);
    cloud.answers['pos/desk-1'] = { ...LAN, address: '10.0.0.7' };
    now = new Date(now.getTime() + 61_000);
    r.resolve(POS); // still the old one, a refresh starts
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cloud.calls).toHaveLength(2);
    expect(r.resolve(POS).interface!.getPrinterName!()).toBe('tcp://10.0.0.7:9100');
  });
});

describe('TicketPrinterResolver: DESKTOP_TICKET_PRINTER overrides', () => {
  it('wins over the cloud for the POS and the kiosk, and the cloud is not asked', async () => {
    const dir = dataDir();
    const cloud = fakeCloud({ 'pos/desk-1': LAN });
    await resolver(dir, cloud.fetch).refresh(POS);
    const file = path.join(dir, 'slips.bin');
    const r = resolver(dir, cloud.fetch, { override: `file:${file}` });
    const calls = cloud.calls.length;
    for (const target of [POS, { kind: 'kiosk', kioskId: KIOSK } as const]) {
      const resolved = r.resolve(target);
      expect(resolved.source).toBe('override');
      expect(resolved.interface).toBeInstanceOf(FileTicketInterface);
    }
    expect((await r.refresh(POS)).source).toBe('override');
    expect(cloud.calls).toHaveLength(calls);

    const capture = new CaptureInterface();
    expect(resolver(dir, cloud.fetch, { override: capture }).interfaceFor(POS)).toBe(capture);
  });

  it('reads tcp://host:port (9100 by default) and file:/path, and refuses anything else', () => {
    expect(ticketInterfaceFromOverride('tcp://10.1.2.3:9101')).toBeInstanceOf(TcpTicketInterface);
    expect(ticketInterfaceFromOverride('tcp://printer.lan').getPrinterName!()).toBe('tcp://printer.lan:9100');
    expect(ticketInterfaceFromOverride('file:/dev/usb/lp0').getPrinterName!()).toBe('file:/dev/usb/lp0');
    expect(() => ticketInterfaceFromOverride('lp0')).toThrow(/DESKTOP_TICKET_PRINTER/);
  });
});
