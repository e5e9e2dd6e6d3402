import type { KioskTicket } from '../../../shared/contracts/api/kiosk';
import { isLocale, type Locale } from '../../../shared/i18n/locales';
import { EscPosTicketPrinter } from '../printing/escpos/escpos-ticket-printer';
import { FileTicketInterface, type TicketPrinterInterface } from '../printing/escpos/interfaces';
import { printingTranslator } from '../printing/i18n';
import type { CheckInSlip } from '../printing/ticket-printer';

/**
 * Where the kiosk's check-in slips go. `tcp://host:9100` is a network ESC/POS printer; `file:/path`
 * appends every job's bytes to a file (what the Playwright test reads; also handy to look at a slip
 * with `xxd`). Empty: no ticket printer at this station.
 */
export type TicketTarget = string | TicketPrinterInterface;

export { FileTicketInterface };

export function ticketInterfaceOf(target: string): string | TicketPrinterInterface {
  return target.startsWith('file:') ? new FileTicketInterface(target.slice('file:'.length)) : target;
}

/** Date and time on the studio's wall clock, as the printer prints them ("2026-11-24 18:05"). */
function wallClock(iso: string, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The cloud's (or the offline) ticket → the printer's CheckInSlip, times in the studio's zone. */
export function checkInSlipOf(ticket: KioskTicket, timeZone: string): CheckInSlip {
  const at = wallClock(ticket.checkedInAt, timeZone);
  return {
    kind: 'checkIn',
    studioName: ticket.studioName,
    clientName: ticket.clientName,
    checkedInAt: `${at.date} ${at.time}`,
    ...(ticket.className ? { className: ticket.className } : {}),
    ...(ticket.startsAt ? { startsAt: wallClock(ticket.startsAt, timeZone).time } : {}),
    ...(ticket.passName ? { passName: ticket.passName } : {}),
    ...(ticket.entriesLeft !== undefined ? { entriesLeft: ticket.entriesLeft } : {}),
  };
}

/** Prints the kiosk's slips in the kiosk's language (EN/PL labels from locales/{en,pl}/printing.json). */
export class KioskTicketPrinter {
  private readonly target: string | TicketPrinterInterface;

  constructor(target: TicketTarget) {
    this.target = typeof target === 'string' ? ticketInterfaceOf(target) : target;
  }

  printer(locale: string): EscPosTicketPrinter {
    const lang: Locale = isLocale(locale) ? locale : 'en';
    return new EscPosTicketPrinter({
      interface: this.target,
      locale: lang,
      translate: printingTranslator(lang),
    });
  }

  /** True when the job went to the printer; a printer that fails never fails the check-in (it is recorded first). */
  async print(ticket: KioskTicket, timeZone: string, locale: string): Promise<boolean> {
    try {
      await this.printer(locale).print(checkInSlipOf(ticket, timeZone));
      return true;
    } catch (error) {
      console.error('[kiosk] ticket not printed', error);
      return false;
    }
  }
}
