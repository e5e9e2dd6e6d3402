/**
 * Fiscal receipts per second through a real pseudo-terminal pair (socat) and `serialport`, the POSNET
 * driver on one end and the emulator on the other. Prints figures; never passes or fails on time.
 *
 *   npm run bench:fiscal            (RECEIPTS=300 LINES=6 by default)
 */
import { computeReceiptTotals, type VatRate } from '../../shared/domain/receipts';
import { PosnetEmulator } from '../../desktop/main/printing/emulator/emulator';
import { createPtyPair, socatAvailable } from '../../desktop/main/printing/emulator/pty';
import type { FiscalReceipt } from '../../desktop/main/printing/fiscal-printer';
import { PosnetFiscalPrinter } from '../../desktop/main/printing/posnet/posnet-printer';
import { SerialTransport, type SerialSettings } from '../../desktop/main/printing/posnet/serial-transport';

const RECEIPTS = Number(process.env.RECEIPTS ?? 300);
const LINES = Number(process.env.LINES ?? 6);
const RATES: VatRate[] = [2300, 800, 500, 0, 'exempt'];

function receipt(i: number): FiscalReceipt {
  const lines = Array.from({ length: LINES }, (_, j) => ({
    name: `Towar ${j + 1} — ${['karnet', 'woda', 'ręcznik', 'zajęcia', 'książka'][j % 5]}`,
    unitPrice: 199 + ((i * 7919 + j * 104729) % 20000),
    quantity: j % 3 === 0 ? '1.5' : '1',
    vatRate: RATES[j % RATES.length]!,
    ...(j % 4 === 1 && { discount: { percent: 1000 } }),
  }));
  const discount = i % 5 === 0 ? 150 : 0;
  const total = computeReceiptTotals({ lines, discount }).total;
  return {
    id: `bench-${i}`,
    lines,
    ...(discount > 0 && { discount }),
    payments: i % 2 === 0 ? [{ type: 'card', amount: total }] : [{ type: 'cash', amount: total + 1000 }],
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  if (!socatAvailable()) {
    console.log('socat is missing (apt-get install socat): cannot make a pty pair');
    console.log('receipts per s = 0');
    return;
  }
  const pty = await createPtyPair();
  const line: Omit<SerialSettings, 'path'> = {
    baudRate: 115200,
    parity: 'none',
    dataBits: 8,
    stopBits: 1,
    flowControl: 'none',
  };
  const device = new SerialTransport({ path: pty.devicePath, ...line });
  await device.open();
  const emulator = new PosnetEmulator();
  emulator.attach(device);
  const printer = new PosnetFiscalPrinter({ transport: new SerialTransport({ path: pty.appPath, ...line }) });
  try {
    await printer.open();
    for (let i = 0; i < 10; i++) await printer.printReceipt(receipt(RECEIPTS + i)); // warm-up
    const warm = emulator.receipts().length;

    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < RECEIPTS; i++) {
      const t = performance.now();
      const outcome = await printer.printReceipt(receipt(i));
      latencies.push(performance.now() - t);
      if (outcome.status !== 'printed') throw new Error(`receipt ${i}: ${JSON.stringify(outcome)}`);
    }
    const seconds = (performance.now() - started) / 1000;

    const printed = emulator.receipts().slice(warm);
    const mismatches = printed.filter((r, i) => r.total !== computeReceiptTotals(receipt(i)).total).length;
    const { link } = await printer.diagnose();
    latencies.sort((a, b) => a - b);
    const perSecond = RECEIPTS / seconds;
    console.log(`fiscal receipts through a socat pty pair (serialport both ends, POSNET emulator)`);
    console.log(`receipts                 ${RECEIPTS} × ${LINES} lines (5 VAT rates, discounts, card/cash)`);
    console.log(`elapsed                  ${seconds.toFixed(2)} s`);
    console.log(`frames sent / received   ${link.framesSent} / ${link.framesReceived}`);
    console.log(`bytes sent / received    ${link.bytesSent} / ${link.bytesReceived}`);
    console.log(`frames per receipt       ${((link.framesSent ?? 0) / (RECEIPTS + warm)).toFixed(1)}`);
    console.log(
      `latency per receipt      p50 ${percentile(latencies, 0.5).toFixed(1)} ms · p95 ${percentile(latencies, 0.95).toFixed(1)} ms · max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    console.log(`lines per s              ${Math.round((RECEIPTS * LINES) / seconds)}`);
    // A pty has no line speed; a real serial line would. 10 bits per byte on an 8N1 line.
    const bytesPerReceipt = ((link.bytesSent ?? 0) + (link.bytesReceived ?? 0)) / (RECEIPTS + warm);
    for (const baud of [9600, 115200]) {
      console.log(
        `wire time at ${String(baud).padEnd(6)}     ${((bytesPerReceipt * 10 * 1000) / baud).toFixed(1)} ms per receipt`,
      );
    }
    console.log(`printed / totals differ  ${printed.length} / ${mismatches}`);
    console.log(`receipts per s = ${Math.round(perSecond)}`);
  } finally {
    await printer.close();
    await device.close();
    await pty.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
