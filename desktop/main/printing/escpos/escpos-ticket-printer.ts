import { CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import { formatPrice, POLISH_PRICE_NUMBER_FORMAT } from '../../../../shared/domain/money';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Translate } from '../i18n';
import type { CheckInSlip, ClassTicket, ShiftSummary, Ticket, TicketPrinter } from '../ticket-printer';
import type { TicketPrinterInterface } from './interfaces';

/** The two code pages that print Polish letters; set explicitly, never left to the printer's default. */
export type TicketCharacterSet = 'PC852_LATIN2' | 'WPC1250_LATIN2';

export interface EscPosTicketPrinterOptions {
  /** "tcp://192.168.1.50:9100", or an interface object (serial, capture). */
  interface: string | TicketPrinterInterface;
  characterSet?: TicketCharacterSet;
  type?: 'epson' | 'star';
  /** Characters per line: 48 for 80 mm paper (font A), 32 for 58 mm. Default: the interface's `widthChars`, else 48. */
  width?: number;
  /** False: no cutter, each ticket is fed out. Default: the interface's `cut`, else true. */
  cut?: boolean;
  locale: Locale;
  translate: Translate;
}

/**
 * TicketPrinter over node-thermal-printer. Each job gets its own ThermalPrinter object (execute()
 * does not empty the buffer, so a shared one would print earlier jobs again). The character set is
 * set explicitly at the start and again after every cut(), which sends ESC @ and resets the printer
 * to its default code page.
 */
export class EscPosTicketPrinter implements TicketPrinter {
  private readonly characterSet: TicketCharacterSet;

  constructor(private readonly options: EscPosTicketPrinterOptions) {
    this.characterSet = options.characterSet ?? 'PC852_LATIN2';
  }

  private newJob(): ThermalPrinter {
    return new ThermalPrinter({
      type: this.options.type === 'star' ? PrinterTypes.STAR : PrinterTypes.EPSON,
      // A custom interface object is accepted at run time; the typings only mention the string form.
      interface: this.options.interface as string,
      width: this.options.width ?? this.iface()?.widthChars ?? 48,
      characterSet: CharacterSet[this.characterSet],
      removeSpecialCharacters: false,
    });
  }

  private iface(): TicketPrinterInterface | null {
    return typeof this.options.interface === 'string' ? null : this.options.interface;
  }

  /** The bytes of a job, without sending them (also what print() sends). */
  render(tickets: Ticket | Ticket[]): Buffer {
    return this.build(tickets).getBuffer();
  }

  async print(tickets: Ticket | Ticket[]): Promise<void> {
    await this.build(tickets).execute();
  }

  isConnected(): Promise<boolean> {
    return this.newJob().isPrinterConnected();
  }

  private build(tickets: Ticket | Ticket[]): ThermalPrinter {
    const printer = this.newJob();
    for (const ticket of Array.isArray(tickets) ? tickets : [tickets]) {
      switch (ticket.kind) {
        case 'checkIn':
          this.checkIn(printer, ticket);
          break;
        case 'classTicket':
          this.classTicket(printer, ticket);
          break;
        case 'shiftSummary':
          this.shiftSummary(printer, ticket);
          break;
      }
      if (this.options.cut ?? this.iface()?.cut ?? true) {
        printer.cut();
        // cut() ends with ESC @, which puts the printer back on its default code page.
        printer.setCharacterSet(CharacterSet[this.characterSet]);
      } else {
        // No cutter: feed the ticket past the tear bar.
        for (let i = 0; i < 5; i += 1) printer.newLine();
      }
    }
    return printer;
  }

  private t(key: string, values?: Record<string, string | number>): string {
    return this.options.translate(key, values);
  }

  private money(amount: number, currency: string): string {
    const format = this.options.locale === 'pl' ? POLISH_PRICE_NUMBER_FORMAT : {};
    return formatPrice(amount, currency, { ...format, keepTrailingZeros: true });
  }

  private heading(printer: ThermalPrinter, studioName: string, title: string): void {
    printer.alignCenter();
    printer.bold(true);
    printer.println(studioName);
    printer.bold(false);
    printer.setTextDoubleHeight();
    printer.println(title);
    printer.setTextNormal();
    printer.drawLine();
    printer.alignLeft();
  }

  private row(printer: ThermalPrinter, label: string, value: string | number | undefined): void {
    if (value === undefined || value === '') return;
    printer.leftRight(`${label}:`, String(value));
  }

  private footer(printer: ThermalPrinter, text: string): void {
    printer.drawLine();
    printer.alignCenter();
    printer.println(text);
    printer.alignLeft();
  }

  private checkIn(printer: ThermalPrinter, slip: CheckInSlip): void {
    this.heading(printer, slip.studioName, this.t('tickets.checkIn.title'));
    this.row(printer, this.t('tickets.checkIn.client'), slip.clientName);
    this.row(printer, this.t('tickets.checkIn.checkedInAt'), slip.checkedInAt);
    this.row(printer, this.t('tickets.checkIn.class'), slip.className);
    this.row(printer, this.t('tickets.checkIn.startsAt'), slip.startsAt);
    this.row(printer, this.t('tickets.checkIn.room'), slip.room);
    this.row(printer, this.t('tickets.checkIn.pass'), slip.passName);
    this.row(printer, this.t('tickets.checkIn.entriesLeft'), slip.entriesLeft);
    this.footer(printer, this.t('tickets.checkIn.footer'));
  }

  private classTicket(printer: ThermalPrinter, ticket: ClassTicket): void {
    this.heading(printer, ticket.studioName, this.t('tickets.classTicket.title'));
    this.row(printer, this.t('tickets.classTicket.number'), ticket.ticketNumber);
    this.row(printer, this.t('tickets.classTicket.class'), ticket.className);
    this.row(printer, this.t('tickets.classTicket.startsAt'), ticket.startsAt);
    this.row(printer, this.t('tickets.classTicket.instructor'), ticket.instructor);
    this.row(printer, this.t('tickets.classTicket.room'), ticket.room);
    this.row(printer, this.t('tickets.classTicket.client'), ticket.clientName);
    printer.alignCenter();
    printer.code128(ticket.ticketNumber);
    printer.alignLeft();
    this.footer(printer, this.t('tickets.classTicket.footer'));
  }

  private shiftSummary(printer: ThermalPrinter, summary: ShiftSummary): void {
    this.heading(printer, summary.studioName, this.t('tickets.shiftSummary.title'));
    this.row(printer, this.t('tickets.shiftSummary.station'), summary.stationName);
    this.row(printer, this.t('tickets.shiftSummary.cashier'), summary.cashierName);
    this.row(printer, this.t('tickets.shiftSummary.openedAt'), summary.openedAt);
    this.row(printer, this.t('tickets.shiftSummary.closedAt'), summary.closedAt);
    this.row(printer, this.t('tickets.shiftSummary.receipts'), summary.receipts);
    this.row(printer, this.t('tickets.shiftSummary.cancelledReceipts'), summary.cancelledReceipts);
    printer.drawLine();
    printer.println(this.t('tickets.shiftSummary.byPayment'));
    for (const line of summary.byPayment)
      printer.leftRight(line.label, this.money(line.amount, summary.currency));
    printer.drawLine();
    printer.bold(true);
    printer.leftRight(this.t('tickets.shiftSummary.total'), this.money(summary.total, summary.currency));
    printer.bold(false);
    this.footer(printer, this.t('tickets.shiftSummary.notFiscal'));
  }
}
