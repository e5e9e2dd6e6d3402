import { appendFileSync } from 'node:fs';
import { createPosnetPrinter } from '../main/printing/connection';
import { CaptureInterface, TcpTicketInterface } from '../main/printing/escpos/interfaces';
import type { TicketPrinterInterface } from '../main/printing/escpos/interfaces';
import { PosnetEmulator } from '../main/printing/emulator/emulator';
import { PosnetFiscalPrinter } from '../main/printing/posnet/posnet-printer';
import { createInProcessPair } from '../main/printing/posnet/transport';
import type { FiscalPrinter } from '../main/printing/fiscal-printer';
import { FileTicketInterface } from '../main/kiosk/kiosk-tickets';

/**
 * The POS printers the host attaches instead of the station's cloud settings (tests, demos):
 *
 * - `DESKTOP_FISCAL_PRINTER=emulator`: a POSNET emulator in this process (in-process byte pair);
 *   every document it prints is written as one JSON line to `DESKTOP_FISCAL_ROLL` (a file) when set,
 *   else to stdout as `[fiscal] {json}`;
 * - `DESKTOP_FISCAL_PRINTER=tcp://host:port`: a POSNET printer (or `listenTcp` emulator) on TCP;
 * - `DESKTOP_TICKET_PRINTER=tcp://host:port`: the ESC/POS ticket printer and its drawer on TCP;
 *   `capture`: kept in memory (nothing printed); `file:/path`: each job appended to a file. The
 *   kiosk mode's slips go to the same printer (one ESC/POS printer per station).
 *
 * Unset: the fiscal printer comes from the cloud's settings for the station (as in the app).
 */
export interface HostPosPrinters {
  fiscalPrinter: FiscalPrinter | null;
  ticketInterface: TicketPrinterInterface | null;
  emulator: PosnetEmulator | null;
}

function tcpAddress(value: string, name: string): { host: string; port: number } {
  const match = /^tcp:\/\/([^:/]+):(\d{1,5})$/.exec(value);
  if (!match) throw new Error(`${name}: expected tcp://host:port, got ${value}`);
  return { host: match[1]!, port: Number(match[2]) };
}

export function hostPosPrinters(env: NodeJS.ProcessEnv = process.env): HostPosPrinters {
  let fiscalPrinter: FiscalPrinter | null = null;
  let emulator: PosnetEmulator | null = null;
  const fiscal = env.DESKTOP_FISCAL_PRINTER;
  if (fiscal === 'emulator') {
    emulator = new PosnetEmulator();
    const pair = createInProcessPair();
    emulator.attach(pair.device);
    const roll = env.DESKTOP_FISCAL_ROLL;
    emulator.onPrinted((document) => {
      const line = JSON.stringify(document);
      if (roll) appendFileSync(roll, `${line}\n`);
      else console.log(`[fiscal] ${line}`);
    });
    fiscalPrinter = new PosnetFiscalPrinter({ transport: pair.app });
  } else if (fiscal) {
    fiscalPrinter = createPosnetPrinter({ kind: 'tcp', ...tcpAddress(fiscal, 'DESKTOP_FISCAL_PRINTER') });
  }
  const ticket = env.DESKTOP_TICKET_PRINTER;
  const ticketInterface = !ticket
    ? null
    : ticket === 'capture'
      ? new CaptureInterface()
      : ticket.startsWith('file:')
        ? // Each job's bytes appended to a file (the kiosk's e2e test reads its slips there).
          new FileTicketInterface(ticket.slice('file:'.length))
        : (() => {
            const { host, port } = tcpAddress(ticket, 'DESKTOP_TICKET_PRINTER');
            return new TcpTicketInterface(host, port);
          })();
  return { fiscalPrinter, ticketInterface, emulator };
}
