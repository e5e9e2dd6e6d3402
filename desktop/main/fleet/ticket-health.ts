import type { PrinterReport } from '../../../shared/contracts/api/desk-fleet';
import type { TicketPrinterInterface } from '../printing/escpos/interfaces';

/** A failed job's message → the state Back office → Stations shows. */
export function ticketState(message: string): PrinterReport['state'] {
  if (/paper/i.test(message)) return 'paperOut';
  if (
    /ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOENT|timed? ?out|not connected|unreachable/i.test(
      message,
    )
  )
    return 'offline';
  return 'error';
}

/**
 * The ticket printer's state for the fleet report (issue 29): every job of the POS (shift summary,
 * drawer) and the kiosk (slips) goes through `watch()`, which notes how the last one ended. A failed
 * job is also kept as a recent error (`source: 'ticket'`) and reported with the next contact; the
 * next job that prints clears the state (the error stays in the recent errors).
 */
export class TicketPrinterHealth {
  private last: { ok: true } | { ok: false; message: string } | null = null;

  constructor(private readonly onError: (message: string) => void = () => {}) {}

  /** The printer with each job's outcome noted (null stays null: no printer set up). */
  watch(target: TicketPrinterInterface | null): TicketPrinterInterface | null {
    if (!target) return null;
    const failed = (error: unknown) => {
      const message =
        (error instanceof Error ? error.message : String(error)).slice(0, 200) || 'ticket printer error';
      this.last = { ok: false, message };
      this.onError(message);
    };
    return {
      execute: async (buffer, options) => {
        try {
          const result = await target.execute(buffer, options);
          this.last = { ok: true };
          return result;
        } catch (error) {
          failed(error);
          throw error;
        }
      },
      isPrinterConnected: async () => {
        const connected = await target.isPrinterConnected().catch(() => false);
        if (!connected) failed(new Error('ticket printer not connected'));
        return connected;
      },
      getPrinterName: () => target.getPrinterName?.() ?? 'ticket printer',
      get widthChars() {
        return target.widthChars;
      },
      get cut() {
        return target.cut;
      },
    };
  }

  /** The report's `printers.ticket`: null when none is set up; ready until a job fails. */
  report(configured: boolean): PrinterReport | null {
    if (!configured) return null;
    if (!this.last || this.last.ok) return { state: 'ok', message: null, unsettled: 0 };
    return { state: ticketState(this.last.message), message: this.last.message, unsettled: 0 };
  }
}
