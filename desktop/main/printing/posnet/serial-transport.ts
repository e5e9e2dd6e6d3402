import { SerialPortStream, type OpenOptions } from '@serialport/stream';
import { z } from 'zod';
import { TransportClosedError, type Transport } from './transport';

/**
 * Serial settings are configured on the printer itself (menu or service tool), so they are settings
 * of the station, never constants. The path is always explicit: SerialPort.list() needs udevadm and
 * never lists pseudo-terminals, and a station knows which port its printer is on.
 */
/** A serialport binding: the native one, or @serialport/binding-mock in tests. */
export type SerialBinding = OpenOptions['binding'];

export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

export const SerialSettingsSchema = z.object({
  path: z.string().trim().min(1),
  baudRate: z
    .number()
    .int()
    .refine((v) => (SERIAL_BAUD_RATES as readonly number[]).includes(v), 'unsupported baud rate'),
  parity: z.enum(['none', 'even', 'odd', 'mark', 'space']),
  dataBits: z.union([z.literal(7), z.literal(8)]),
  stopBits: z.union([z.literal(1), z.literal(2)]),
  flowControl: z.enum(['none', 'rtscts', 'xonxoff']),
});
export type SerialSettings = z.infer<typeof SerialSettingsSchema>;

/** What a new station form is pre-filled with (a POSNET printer's factory setting). */
export const SERIAL_SETTINGS_PREFILL: Omit<SerialSettings, 'path'> = {
  baudRate: 9600,
  parity: 'none',
  dataBits: 8,
  stopBits: 1,
  flowControl: 'none',
};

export function describeSerialSettings(s: SerialSettings): string {
  const parity = { none: 'N', even: 'E', odd: 'O', mark: 'M', space: 'S' }[s.parity];
  const flow = s.flowControl === 'none' ? '' : ` ${s.flowControl}`;
  return `serial ${s.path} ${s.baudRate} ${s.dataBits}${parity}${s.stopBits}${flow}`;
}

/** The serialport open options for station settings. */
export function serialOpenOptions(s: SerialSettings) {
  return {
    path: s.path,
    baudRate: s.baudRate,
    dataBits: s.dataBits,
    stopBits: s.stopBits,
    parity: s.parity,
    rtscts: s.flowControl === 'rtscts',
    xon: s.flowControl === 'xonxoff',
    xoff: s.flowControl === 'xonxoff',
  };
}

/**
 * A Transport over `serialport`. The binding defaults to the platform's native one (loaded only when
 * the port is opened); tests pass @serialport/binding-mock.
 */
export class SerialTransport implements Transport {
  readonly label: string;
  private port: SerialPortStream | null = null;
  private readonly listeners = new Set<(chunk: Uint8Array) => void>();

  constructor(
    private readonly settings: SerialSettings,
    private readonly options: { binding?: SerialBinding } = {},
  ) {
    SerialSettingsSchema.parse(settings);
    this.label = describeSerialSettings(settings);
  }

  async open(): Promise<void> {
    if (this.port?.isOpen) return;
    const binding = this.options.binding ?? (await import('serialport')).SerialPort.binding;
    const port = new SerialPortStream({ binding, autoOpen: false, ...serialOpenOptions(this.settings) });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    port.on('data', (chunk: Buffer) => {
      for (const listener of [...this.listeners]) listener(chunk);
    });
    // A pulled USB cable closes the port with a disconnect error; the driver sees silence and recovers.
    port.on('error', () => {});
    this.port = port;
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = null;
    if (!port?.isOpen) return;
    await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  async write(bytes: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port?.isOpen) throw new TransportClosedError(this.label);
    await new Promise<void>((resolve, reject) =>
      port.write(Buffer.from(bytes), (error) => (error ? reject(error) : resolve())),
    );
    await new Promise<void>((resolve, reject) => port.drain((error) => (error ? reject(error) : resolve())));
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
