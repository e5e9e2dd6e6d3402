import type { FiscalReceipt, PrinterAttention } from '../fiscal-printer';
import { PosnetFiscalPrinter, type PosnetTiming } from '../posnet/posnet-printer';
import { FrameReader, parseBody } from '../posnet/frame';
import { createInProcessPair, type Transport } from '../posnet/transport';
import type { DeviceOptions } from './device';
import { PosnetEmulator } from './emulator';

/** Short time-outs so fault tests run in milliseconds, not seconds. */
export const FAST_TIMING: Partial<PosnetTiming> = {
  commandTimeoutMs: 120,
  probeTimeoutMs: 80,
  pollIntervalMs: 25,
  linkLostAfterMs: 600,
  busyLimitMs: 5000,
  busyRetries: 3,
  busyRetryDelayMs: 20,
  frameRetries: 3,
};

/** Wraps a transport to log the command of every frame written (to prove what was, or was not, sent). */
export function recordingTransport(transport: Transport, sent: string[]): Transport {
  const reader = new FrameReader();
  return {
    label: transport.label,
    open: () => transport.open(),
    close: () => transport.close(),
    onData: (listener) => transport.onData(listener),
    write: (bytes) => {
      for (const raw of reader.push(bytes)) sent.push(parseBody(raw.body).command);
      return transport.write(bytes);
    },
  };
}

/** The POSNET driver wired to an emulator through an in-process byte pipe. */
export async function inProcessRig(options: { device?: DeviceOptions; timing?: Partial<PosnetTiming> } = {}) {
  const emulator = new PosnetEmulator(options.device);
  const pair = createInProcessPair();
  emulator.attach(pair.device);
  const attentions: (PrinterAttention | null)[] = [];
  const sent: string[] = [];
  const printer = new PosnetFiscalPrinter({
    transport: recordingTransport(pair.app, sent),
    timing: { ...FAST_TIMING, ...options.timing },
    onAttention: (a) => attentions.push(a),
  });
  const info = await printer.open();
  /** Commands written since the last call (status probes left out unless asked for). */
  const sentSince = (() => {
    let seen = 0;
    return (withProbes = false) => {
      const commands = sent.slice(seen);
      seen = sent.length;
      return withProbes ? commands : commands.filter((c) => !c.startsWith('!'));
    };
  })();
  sentSince();
  return { emulator, printer, info, attentions, sent, sentSince, close: () => printer.close() };
}

let receiptCounter = 0;

/** A small valid receipt: a pass at 23 %, a drink at 8 %, paid by card. */
export function sampleReceipt(overrides: Partial<FiscalReceipt> = {}): FiscalReceipt {
  receiptCounter += 1;
  return {
    id: `sale-${receiptCounter}`,
    lines: [
      { name: 'Karnet 4 wejścia', unitPrice: 16000, vatRate: 2300 },
      { name: 'Woda mineralna 0,5 l', unitPrice: 450, quantity: '2', vatRate: 800 },
      { name: 'Joga — zajęcia', unitPrice: 4500, vatRate: 2300, discount: { percent: 1000 } },
    ],
    payments: [{ type: 'card', amount: 20950 }],
    ...overrides,
  };
}
