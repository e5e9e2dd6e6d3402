import {
  DESK_VERSION_HEADER,
  StationReportResultSchema,
  type PrinterReport,
  type StationError,
  type StationReportInput,
  type StationReportResult,
} from '../../../shared/contracts/api/desk-fleet';
import { AppError } from '../../../shared/errors/app-error';
import type { PosState } from '../../../shared/contracts/ipc/pos';

export interface StationReporterOptions {
  cloudUrl: string;
  version: string;
  platform: string;
  mode: 'desk' | 'kiosk';
  /** The sync engine's device token (null until the station is registered). */
  deviceToken(): string | null;
  /** Outbox depth and last sync from the engine. */
  sync(): { pending: number; lastSyncAt: string | null } | null;
  /** The POS's state (printers, receipts to settle), when this desk sells. */
  pos(): PosState | null;
  /**
   * The ticket printer's state (desktop/main/fleet/ticket-health.ts): null when none is set up. Absent:
   * derived from the POS's printers and the recent errors noted as `ticket`.
   */
  ticket?(): PrinterReport | null;
  /** The log tail sent when staff ask for it (Back office → Stations → Upload logs). */
  logs(): string;
  /** Each error noted (the desk's log file writes it). */
  onError?(source: string, message: string): void;
  /** Each answer of the cloud: the channel's feed, the version floor, a logs request. */
  onAnswer?(answer: StationReportResult): void;
  fetch?: typeof fetch;
  intervalMs?: number;
  clock?: () => Date;
}

const MAX_ERRORS = 20;

/** The fiscal printer as the POS sees it: paper out / an error from the receipts it left unsettled. */
export function fiscalReport(pos: PosState | null, errors: StationError[]): PrinterReport | null {
  if (!pos?.printer.fiscal) return null;
  const issues = pos.receiptIssues.filter((i) => i.status !== 'awaitingCloud');
  const key = issues.find((i) => i.messageKey)?.messageKey ?? null;
  const lastError = errors.find((e) => e.source === 'fiscal')?.message ?? null;
  const text = `${key ?? ''} ${lastError ?? ''}`;
  const state: PrinterReport['state'] = /paper/i.test(text) ? 'paperOut' : issues.length > 0 ? 'error' : 'ok';
  return { state, message: (key ?? lastError)?.slice(0, 200) ?? null, unsettled: issues.length };
}

/**
 * The station's contact with the fleet (issue 29): every minute (and after each sync) it reports
 * its version, outbox depth, last sync, printers and recent errors to `POST /desktop/station/report`,
 * learns its studio's update channel and whether the cloud still accepts it, and uploads its logs
 * when staff asked. Offline, nothing is sent: the next contact says it all.
 */
export class StationReporter {
  private readonly errors: StationError[] = [];
  private timer: NodeJS.Timeout | null = null;
  private last: StationReportResult | null = null;
  private running: Promise<StationReportResult | null> | null = null;
  private readonly fetchFn: typeof fetch;
  private readonly clock: () => Date;

  constructor(private readonly options: StationReporterOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.clock = options.clock ?? (() => new Date());
  }

  /** Keeps an error for the next report (newest first, the last 20). */
  noteError(source: string, message: string): void {
    this.errors.unshift({
      at: this.clock().toISOString(),
      source: source.slice(0, 40),
      message: message.slice(0, 500) || '?',
    });
    this.errors.length = Math.min(this.errors.length, MAX_ERRORS);
    this.options.onError?.(source, message);
  }

  /** The station's device token (null until registered). */
  deviceToken(): string | null {
    return this.options.deviceToken();
  }

  /** The cloud's last answer (null before the first contact). */
  answer(): StationReportResult | null {
    return this.last;
  }

  /** The refusal of a desk the cloud no longer accepts; null while accepted (or not known yet). */
  refusal(): AppError | null {
    if (!this.last || this.last.accepted) return null;
    // The versions ride in `fields` (the envelope's only structured part): the POS says them.
    return new AppError('desktop.tooOld', {
      message: `this desk runs ${this.options.version}; the studio's cloud needs ${this.last.oldestAccepted} or newer: it is updating`,
      fields: { version: [this.options.version], oldestAccepted: [this.last.oldestAccepted] },
    });
  }

  body(): StationReportInput {
    const sync = this.options.sync();
    const pos = this.options.pos();
    return {
      version: this.options.version,
      platform: this.options.platform.slice(0, 16),
      mode: this.options.mode,
      outboxDepth: sync?.pending ?? 0,
      lastSyncAt: sync?.lastSyncAt ?? null,
      printers: {
        fiscal: fiscalReport(pos, this.errors),
        ticket: this.options.ticket
          ? this.options.ticket()
          : pos?.printer.ticket
            ? (() => {
                const e = this.errors.find((x) => x.source === 'ticket');
                return e
                  ? {
                      state: /paper/i.test(e.message) ? 'paperOut' : 'error',
                      message: e.message.slice(0, 200),
                      unsettled: 0,
                    }
                  : { state: 'ok', message: null, unsettled: 0 };
              })()
            : null,
      },
      recentErrors: [...this.errors],
    };
  }

  /** One contact: report, then upload the logs if asked. Answers null when it could not. */
  report(): Promise<StationReportResult | null> {
    this.running ??= this.contact().finally(() => (this.running = null));
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.report(), this.options.intervalMs ?? 60_000);
    this.timer.unref?.();
    void this.report();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async contact(): Promise<StationReportResult | null> {
    const token = this.options.deviceToken();
    if (!token) return null;
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      [DESK_VERSION_HEADER]: this.options.version,
    };
    const base = this.options.cloudUrl.replace(/\/$/, '');
    try {
      const res = await this.fetchFn(`${base}/desktop/station/report`, {
        method: 'POST',
        headers,
        body: JSON.stringify(this.body()),
      });
      if (!res.ok) return null;
      const answer = StationReportResultSchema.parse(await res.json());
      this.last = answer;
      if (answer.uploadLogs) {
        await this.fetchFn(`${base}/desktop/station/logs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: this.options.logs().slice(-800_000) }),
        });
      }
      this.options.onAnswer?.(answer);
      return answer;
    } catch {
      return null;
    }
  }
}
