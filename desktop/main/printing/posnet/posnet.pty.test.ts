import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PosnetEmulator } from '../emulator/emulator';
import { createPtyPair, SOCAT, socatAvailable, type PtyPair } from '../emulator/pty';
import { FAST_TIMING, sampleReceipt } from '../emulator/test-rig';
import { PosnetFiscalPrinter } from './posnet-printer';
import { SERIAL_SETTINGS_PREFILL, SerialTransport } from './serial-transport';

/**
 * End to end through a real pseudo-terminal pair (socat) and `serialport` on both sides: the
 * driver opens one pty by its explicit path, the emulator the other. socat is installed here and in
 * CI (.ci/run); without it this suite is skipped with the reason below.
 */
const hasSocat = socatAvailable();
if (!hasSocat) console.warn(`skipping the pty end-to-end tests: ${SOCAT} is missing (apt-get install socat)`);

describe.skipIf(!hasSocat)('POSNET over a real pty pair (socat + serialport)', () => {
  let pty: PtyPair;
  let emulator: PosnetEmulator;
  let device: SerialTransport;
  let printer: PosnetFiscalPrinter;

  beforeAll(async () => {
    pty = await createPtyPair();
    emulator = new PosnetEmulator();
    device = new SerialTransport({ ...SERIAL_SETTINGS_PREFILL, path: pty.devicePath });
    await device.open();
    emulator.attach(device);
    printer = new PosnetFiscalPrinter({
      transport: new SerialTransport({ ...SERIAL_SETTINGS_PREFILL, path: pty.appPath, baudRate: 115200 }),
      timing: { ...FAST_TIMING, commandTimeoutMs: 400, probeTimeoutMs: 300, linkLostAfterMs: 3000 },
    });
    await printer.open();
  });

  afterAll(async () => {
    await printer?.close();
    await device?.close();
    await pty?.close();
  });

  it('prints receipts with Polish names through the tty layer', async () => {
    for (let i = 0; i < 5; i++) expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(emulator.receipts().map((r) => r.lines[2]!.name)).toEqual(Array(5).fill('Joga — zajęcia'));
  });

  it('recovers a dropped trend reply and a cable pulled mid-frame, printing each receipt once', async () => {
    const before = emulator.device.completed;
    emulator.dropNextReply('trend');
    expect(await printer.printReceipt(sampleReceipt())).toMatchObject({ status: 'printed', recovered: true });
    emulator.disconnect({ forMs: 300, during: 'reply', match: { command: 'trline', nth: 2 } });
    expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    emulator.corruptNextCommand('trpayment');
    expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(emulator.device.completed - before).toBe(3);
    expect(
      emulator
        .receipts()
        .slice(-3)
        .map((r) => r.lines.length),
    ).toEqual([3, 3, 3]);
  });

  it('tells the cashier about paper out and waits', async () => {
    emulator.runOutOfPaper({ after: 'trinit' });
    const outcome = await printer.printReceipt(sampleReceipt(), {
      onAttention: (a) => a?.mechanism === 'paperOut' && setTimeout(() => emulator.loadPaper(), 50),
    });
    expect(outcome.status).toBe('printed');
  });
});
