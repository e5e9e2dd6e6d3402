import { MockBinding } from '@serialport/binding-mock';
import { describe, expect, it } from 'vitest';
import { listenTcp, mockSerialBinding } from '../emulator/endpoints';
import { PosnetEmulator } from '../emulator/emulator';
import { FAST_TIMING, sampleReceipt } from '../emulator/test-rig';
import { PosnetFiscalPrinter } from './posnet-printer';
import {
  describeSerialSettings,
  SERIAL_SETTINGS_PREFILL,
  SerialSettingsSchema,
  SerialTransport,
  type SerialSettings,
} from './serial-transport';
import { TcpTransport } from './tcp-transport';

describe('SerialTransport over @serialport/binding-mock (the driver’s serial code, no hardware)', () => {
  it('opens the port with the station’s settings and prints through it', async () => {
    const emulator = new PosnetEmulator();
    const binding = mockSerialBinding(emulator, '/dev/ttyMOCK-posnet-1');
    const settings: SerialSettings = {
      path: '/dev/ttyMOCK-posnet-1',
      baudRate: 57600,
      parity: 'even',
      dataBits: 7,
      stopBits: 2,
      flowControl: 'rtscts',
    };
    const transport = new SerialTransport(settings, { binding });
    expect(transport.label).toBe('serial /dev/ttyMOCK-posnet-1 57600 7E2 rtscts');
    const printer = new PosnetFiscalPrinter({ transport, timing: FAST_TIMING });
    await printer.open();
    const opened = await MockBinding.open({ path: '/dev/ttyMOCK-posnet-1', baudRate: 1 }).catch(
      (e: Error) => e.message,
    );
    expect(opened).toMatch(/locked/); // our open took the port
    emulator.dropNextReply('trend');
    expect(await printer.printReceipt(sampleReceipt())).toMatchObject({ status: 'printed', recovered: true });
    expect(emulator.receipts()).toHaveLength(1);
    await printer.close();
  });

  it('passes parity, data and stop bits and flow control to serialport', async () => {
    const emulator = new PosnetEmulator();
    const path = '/dev/ttyMOCK-posnet-2';
    const binding = mockSerialBinding(emulator, path);
    const opens: Record<string, unknown>[] = [];
    const spy = {
      ...binding,
      open: (o: Record<string, unknown>) => (opens.push(o), binding.open(o as never)),
    };
    const transport = new SerialTransport(
      { path, baudRate: 1200, parity: 'odd', dataBits: 8, stopBits: 1, flowControl: 'xonxoff' },
      { binding: spy as never },
    );
    await transport.open();
    expect(opens[0]).toMatchObject({
      path,
      baudRate: 1200,
      parity: 'odd',
      dataBits: 8,
      stopBits: 1,
      rtscts: false,
      xon: true,
      xoff: true,
    });
    await transport.close();
  });

  it('validates station settings; the prefill is a POSNET printer’s factory setting', () => {
    expect(SerialSettingsSchema.safeParse({ path: 'COM3', ...SERIAL_SETTINGS_PREFILL }).success).toBe(true);
    expect(describeSerialSettings({ path: 'COM3', ...SERIAL_SETTINGS_PREFILL })).toBe('serial COM3 9600 8N1');
    const bad = SerialSettingsSchema.safeParse({
      path: ' ',
      baudRate: 14400,
      parity: 'x',
      dataBits: 6,
      stopBits: 3,
      flowControl: 'no',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual(
      ['baudRate', 'dataBits', 'flowControl', 'parity', 'path', 'stopBits'].sort(),
    );
  });
});

describe('TcpTransport', () => {
  it('prints to a LAN printer (the emulator listening on TCP)', async () => {
    const emulator = new PosnetEmulator();
    const server = await listenTcp(emulator);
    const printer = new PosnetFiscalPrinter({
      transport: new TcpTransport({ host: '127.0.0.1', port: server.port }),
      timing: FAST_TIMING,
    });
    await printer.open();
    emulator.corruptNextReply('trline');
    expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(emulator.receipts()).toHaveLength(1);
    await printer.close();
    await server.close();
  });

  it('fails to open when nothing listens', async () => {
    const server = await listenTcp(new PosnetEmulator());
    const port = server.port;
    await server.close();
    await expect(
      new TcpTransport({ host: '127.0.0.1', port, connectTimeoutMs: 500 }).open(),
    ).rejects.toThrow();
  });
});
