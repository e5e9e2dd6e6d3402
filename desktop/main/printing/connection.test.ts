import { describe, expect, it } from 'vitest';
import { createPosnetPrinter, FiscalPrinterConnectionSchema } from './connection';
import { listenTcp } from './emulator/endpoints';
import { PosnetEmulator } from './emulator/emulator';
import { FAST_TIMING, sampleReceipt } from './emulator/test-rig';

describe('station connection settings', () => {
  it('accepts serial or TCP settings and reports every bad field', () => {
    expect(
      FiscalPrinterConnectionSchema.safeParse({
        kind: 'serial',
        path: '/dev/ttyUSB0',
        baudRate: 9600,
        parity: 'none',
        dataBits: 8,
        stopBits: 1,
        flowControl: 'none',
      }).success,
    ).toBe(true);
    const bad = FiscalPrinterConnectionSchema.safeParse({ kind: 'tcp', host: '', port: 70000 });
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['host', 'port']);
  });

  it('creates a POSNET printer for the connection', async () => {
    const emulator = new PosnetEmulator();
    const server = await listenTcp(emulator);
    const printer = createPosnetPrinter(
      { kind: 'tcp', host: '127.0.0.1', port: server.port },
      { timing: FAST_TIMING },
    );
    await printer.open();
    expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await printer.close();
    await server.close();
  });
});
