import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  StationTicketPrinterSchema,
  TicketPrinterSchema,
  type TicketPrinter,
} from '../../../shared/contracts/api/ticket-printers';
import { REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '../../../shared/contracts/page-context';
import { FileTicketInterface, TcpTicketInterface, type TicketPrinterInterface } from './escpos/interfaces';
import { TicketPrintersApi } from '../../../shared/contracts/http/stations';
import { fillPath } from '../../../shared/contracts/http/define';

/**
 * Which ESC/POS printer a station's tickets go to (desktop/main/printing/README.md "Which ticket
 * printer"): the POS station's (shift summaries, the drawer) or the kiosk's (check-in slips).
 *
 * 1. An override (`DESKTOP_TICKET_PRINTER`, or an interface the host attaches) wins for both.
 * 2. Else the cloud's setting for the POS station (`studio-pos`, by slug) or the kiosk
 *    (`studio-kiosk`, by id), read with the station's device token and kept in
 *    `ticket-printers.json` next to station.json, so it keeps printing while the cloud is away.
 * 3. `none`, or nothing known yet: no ticket printer.
 *
 * Plain Node (global fetch, node:fs): unit-tested without Electron.
 */

export type TicketPrinterTarget = { kind: 'pos'; slug: string } | { kind: 'kiosk'; kioskId: string };

export const TICKET_PRINTERS_FILE = 'ticket-printers.json';
/** How often the cloud is asked again for a printer already known (a change in the back office). */
export const TICKET_PRINTER_REFRESH_MS = 5 * 60_000;

interface CacheEntry {
  settings: TicketPrinter;
  savedAt: string;
}

interface CacheFile {
  version: 1;
  entries: Record<string, CacheEntry>;
}

export interface TicketPrinterResolverOptions {
  /** Where ticket-printers.json lives (the station's data folder). */
  dataDir: string;
  cloudUrl: string;
  /** The station's studio (null before a staff sign-in set the station up). */
  studioUuid: () => string | null;
  /** The sync engine's device token (null before the station is registered). */
  deviceToken: () => string | null;
  /** `DESKTOP_TICKET_PRINTER` (`tcp://host:port`, `file:/path`) or an attached interface: wins over the cloud. */
  override?: string | TicketPrinterInterface | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
  refreshMs?: number;
  clock?: () => Date;
  onError?: (error: unknown) => void;
}

export type TicketPrinterSource = 'override' | 'cloud' | 'none';

export interface ResolvedTicketPrinter {
  source: TicketPrinterSource;
  /** The cloud's setting as last received (null with an override or when none is known). */
  settings: TicketPrinter | null;
  savedAt: string | null;
  interface: TicketPrinterInterface | null;
}

const keyOf = (target: TicketPrinterTarget) =>
  target.kind === 'pos' ? `pos:${target.slug}` : `kiosk:${target.kioskId}`;

/** `tcp://host:port` (port 9100 if left out) or `file:/path`; anything else is a configuration mistake. */
export function ticketInterfaceFromOverride(value: string): TicketPrinterInterface {
  if (value.startsWith('file:')) return new FileTicketInterface(value.slice('file:'.length));
  const tcp = /^tcp:\/\/(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?\/?$/.exec(value);
  if (tcp) return new TcpTicketInterface(tcp[1]!.replace(/^\[(.*)\]$/, '$1'), Number(tcp[2] ?? 9100));
  throw new Error(`DESKTOP_TICKET_PRINTER: expected tcp://host:port or file:/path, got ${value}`);
}

/** A TicketPrinterInterface that also tells the printer its paper width and whether it cuts. */
class ConfiguredTicketInterface implements TicketPrinterInterface {
  constructor(
    private readonly inner: TicketPrinterInterface,
    readonly widthChars: number,
    readonly cut: boolean,
  ) {}

  execute(buffer: Buffer, options?: unknown): Promise<unknown> {
    return this.inner.execute(buffer, options);
  }

  isPrinterConnected(): Promise<boolean> {
    return this.inner.isPrinterConnected();
  }

  getPrinterName(): string {
    return this.inner.getPrinterName?.() ?? 'ticket printer';
  }
}

/** The cloud's setting → the interface to print on (null for `none`). */
export function ticketInterfaceFromSettings(settings: TicketPrinter): TicketPrinterInterface | null {
  switch (settings.kind) {
    case 'tcp':
      return new ConfiguredTicketInterface(
        new TcpTicketInterface(settings.address, settings.port ?? 9100),
        settings.widthChars,
        settings.cut,
      );
    case 'usb-file':
      return new ConfiguredTicketInterface(
        new FileTicketInterface(settings.address),
        settings.widthChars,
        settings.cut,
      );
    default:
      return null;
  }
}

export class TicketPrinterResolver {
  private readonly file: string;
  private readonly fetchImpl: typeof fetch;
  private readonly clock: () => Date;
  private readonly override: TicketPrinterInterface | null;
  private readonly fetchedAt = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<ResolvedTicketPrinter>>();
  /** One interface object per key and setting, so a printer's queue is not rebuilt for every ticket. */
  private readonly built = new Map<string, { json: string; iface: TicketPrinterInterface | null }>();

  constructor(private readonly options: TicketPrinterResolverOptions) {
    this.file = path.join(options.dataDir, TICKET_PRINTERS_FILE);
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.clock = options.clock ?? (() => new Date());
    const override = options.override ?? null;
    this.override = typeof override === 'string' ? ticketInterfaceFromOverride(override) : override;
  }

  /**
   * The printer for a target now, from the override or the kept setting (never waits for the
   * cloud). A setting not asked for in a while is refreshed in the background for the next ticket.
   */
  resolve(target: TicketPrinterTarget | null): ResolvedTicketPrinter {
    if (this.override) return { source: 'override', settings: null, savedAt: null, interface: this.override };
    if (!target) return { source: 'none', settings: null, savedAt: null, interface: null };
    const key = keyOf(target);
    const last = this.fetchedAt.get(key) ?? 0;
    if (this.clock().getTime() - last >= (this.options.refreshMs ?? TICKET_PRINTER_REFRESH_MS))
      void this.refresh(target).catch((error: unknown) => this.options.onError?.(error));
    return this.fromCache(key);
  }

  /** Just the interface (what the POS and the kiosk print on). */
  interfaceFor(target: TicketPrinterTarget | null): TicketPrinterInterface | null {
    return this.resolve(target).interface;
  }

  /**
   * Asks the cloud for the target's setting and keeps it. No answer (offline), or an answer other
   * than the setting or 404, keeps what was kept: the station prints on as before. 404 (the station
   * or kiosk is gone) forgets it.
   */
  refresh(target: TicketPrinterTarget): Promise<ResolvedTicketPrinter> {
    const key = keyOf(target);
    const running = this.inFlight.get(key);
    if (running) return running;
    const job = this.fetchSetting(target, key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }

  private async fetchSetting(target: TicketPrinterTarget, key: string): Promise<ResolvedTicketPrinter> {
    const studio = this.options.studioUuid();
    const token = this.options.deviceToken();
    if (this.override || !studio || !token) return this.resolveKept(key);
    this.fetchedAt.set(key, this.clock().getTime());
    const path =
      target.kind === 'pos'
        ? fillPath(TicketPrintersApi.getStationTicketPrinterPos.path, { uuid: studio, slug: target.slug })
        : fillPath(TicketPrintersApi.getStationTicketPrinterKiosk.path, {
            uuid: studio,
            kioskGuid: target.kioskId,
          });
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.options.cloudUrl.replace(/\/+$/, '')}/api${path}`, {
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
        },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      this.options.onError?.(error);
      return this.resolveKept(key);
    }
    if (response.status === 404) {
      this.write(key, null);
      return this.resolveKept(key);
    }
    if (!response.ok) {
      this.options.onError?.(new Error(`ticket printer settings: HTTP ${response.status}`));
      return this.resolveKept(key);
    }
    const parsed = StationTicketPrinterSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) {
      this.options.onError?.(new Error('ticket printer settings: unexpected answer'));
      return this.resolveKept(key);
    }
    this.write(key, { settings: parsed.data.ticketPrinter, savedAt: this.clock().toISOString() });
    return this.resolveKept(key);
  }

  private resolveKept(key: string): ResolvedTicketPrinter {
    if (this.override) return { source: 'override', settings: null, savedAt: null, interface: this.override };
    return this.fromCache(key);
  }

  private fromCache(key: string): ResolvedTicketPrinter {
    const entry = this.read().entries[key];
    if (!entry) return { source: 'none', settings: null, savedAt: null, interface: null };
    const json = JSON.stringify(entry.settings);
    let built = this.built.get(key);
    if (built?.json !== json) {
      built = { json, iface: ticketInterfaceFromSettings(entry.settings) };
      this.built.set(key, built);
    }
    return {
      source: built.iface ? 'cloud' : 'none',
      settings: entry.settings,
      savedAt: entry.savedAt,
      interface: built.iface,
    };
  }

  private read(): CacheFile {
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as CacheFile;
      const entries: Record<string, CacheEntry> = {};
      for (const [key, entry] of Object.entries(raw.entries ?? {})) {
        const settings = TicketPrinterSchema.safeParse(entry?.settings);
        if (settings.success) entries[key] = { settings: settings.data, savedAt: String(entry.savedAt) };
      }
      return { version: 1, entries };
    } catch {
      return { version: 1, entries: {} };
    }
  }

  private write(key: string, entry: CacheEntry | null): void {
    const file = this.read();
    if (entry) file.entries[key] = entry;
    else delete file.entries[key];
    mkdirSync(this.options.dataDir, { recursive: true, mode: 0o700 });
    // Written aside and renamed: a crash leaves the old file or the new one, never half of one.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(file), { mode: 0o600 });
    renameSync(temp, this.file);
  }
}
