import { z } from 'zod';
import type { FiscalPrinter, PrinterAttention } from './fiscal-printer';
import { PosnetFiscalPrinter, type PosnetTiming } from './posnet/posnet-printer';
import { SerialSettingsSchema, SerialTransport } from './posnet/serial-transport';
import { TcpTransport } from './posnet/tcp-transport';

/**
 * How this station reaches its fiscal printer: a serial port (USB virtual COM ports included) with
 * the line settings configured on the printer, or TCP. Stored with the station's local settings.
 */
export const FiscalPrinterConnectionSchema = z.discriminatedUnion('kind', [
  SerialSettingsSchema.extend({ kind: z.literal('serial') }),
  z.object({
    kind: z.literal('tcp'),
    host: z.string().trim().min(1),
    port: z.number().int().min(1).max(65535),
  }),
]);
export type FiscalPrinterConnection = z.infer<typeof FiscalPrinterConnectionSchema>;

export function createPosnetPrinter(
  connection: FiscalPrinterConnection,
  options: {
    timing?: Partial<PosnetTiming>;
    onAttention?: (attention: PrinterAttention | null) => void;
  } = {},
): FiscalPrinter {
  const { kind, ...settings } = FiscalPrinterConnectionSchema.parse(connection);
  const transport =
    kind === 'serial'
      ? new SerialTransport(settings as z.infer<typeof SerialSettingsSchema>)
      : new TcpTransport(settings as { host: string; port: number });
  return new PosnetFiscalPrinter({ transport, ...options });
}
