import { appendFileSync } from 'node:fs';
import { SerialTransport, type SerialBinding, type SerialSettings } from '../posnet/serial-transport';

/**
 * The custom-interface shape node-thermal-printer accepts in place of a "tcp://host:9100" string: an
 * object with execute(buffer) and isPrinterConnected().
 */
export interface TicketPrinterInterface {
  execute(buffer: Buffer, options?: unknown): Promise<unknown>;
  isPrinterConnected(): Promise<boolean>;
  getPrinterName?(): string;
  /** The paper's characters per line when the station's settings say (32/42/48); else the printer's option or 48. */
  readonly widthChars?: number;
  /** False: the printer has no cutter, tickets are fed out instead of cut. */
  readonly cut?: boolean;
}

/**
 * Appends each job to a file: a USB printer's device file (`/dev/usb/lp0`), or a plain file holding
 * the bytes that would reach the printer, job after job (the e2e tests read slips there).
 */
export class FileTicketInterface implements TicketPrinterInterface {
  constructor(private readonly file: string) {}

  async execute(buffer: Buffer): Promise<void> {
    appendFileSync(this.file, buffer);
  }

  async isPrinterConnected(): Promise<boolean> {
    return true;
  }

  getPrinterName(): string {
    return `file:${this.file}`;
  }
}

/** Keeps every job's bytes: tests assert on exactly what would reach the printer. */
export class CaptureInterface implements TicketPrinterInterface {
  readonly jobs: Buffer[] = [];

  async execute(buffer: Buffer): Promise<void> {
    this.jobs.push(Buffer.from(buffer));
  }

  async isPrinterConnected(): Promise<boolean> {
    return true;
  }

  getPrinterName(): string {
    return 'capture';
  }
}

/** A serial ESC/POS printer: the port is opened for a job and closed after it. */
export class SerialTicketInterface implements TicketPrinterInterface {
  constructor(
    private readonly settings: SerialSettings,
    private readonly options: { binding?: SerialBinding } = {},
  ) {}

  async execute(buffer: Buffer): Promise<void> {
    const port = new SerialTransport(this.settings, this.options);
    await port.open();
    try {
      await port.write(buffer);
    } finally {
      await port.close();
    }
  }

  async isPrinterConnected(): Promise<boolean> {
    const port = new SerialTransport(this.settings, this.options);
    try {
      await port.open();
      await port.close();
      return true;
    } catch {
      return false;
    }
  }

  getPrinterName(): string {
    return this.settings.path;
  }
}

/** A LAN ESC/POS printer (raw port 9100): one connection per job, closed when the bytes are written. */
export class TcpTicketInterface implements TicketPrinterInterface {
  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 5000,
  ) {}

  async execute(buffer: Buffer): Promise<void> {
    const net = await import('node:net');
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: this.host, port: this.port });
      socket.setTimeout(this.timeoutMs, () => socket.destroy(new Error('ticket printer timed out')));
      socket.once('error', reject);
      socket.once('connect', () => socket.end(buffer, () => resolve()));
    });
  }

  async isPrinterConnected(): Promise<boolean> {
    try {
      await this.execute(Buffer.alloc(0));
      return true;
    } catch {
      return false;
    }
  }

  getPrinterName(): string {
    return `tcp://${this.host}:${this.port}`;
  }
}
