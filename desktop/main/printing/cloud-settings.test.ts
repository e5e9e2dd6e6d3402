import { describe, expect, it } from 'vitest';
import {
  DiagnoseResultSchema,
  FiscalDocumentInputSchema,
  StationPrinterStatusSchema,
} from '../../../shared/contracts/api/fiscal-printers';
import { computeReceiptTotals } from '../../../shared/domain/receipts';
import {
  CloudRequestError,
  diagnoseResult,
  documentReport,
  FiscalPrinterCloudClient,
  statusReport,
} from './cloud-settings';
import { createPosnetPrinter } from './connection';
import { listenTcp } from './emulator/endpoints';
import { PosnetEmulator } from './emulator/emulator';
import { FAST_TIMING, inProcessRig, sampleReceipt } from './emulator/test-rig';

const SESSION = {
  baseUrl: 'https://studio.example/',
  studioUuid: '0195a5a0-0000-7000-8000-000000000001',
  userId: 'u1',
  sessionId: 's1',
  csrfToken: 'csrf',
};

function answer(connection: unknown) {
  return {
    printer: {
      id: '0195a5a0-0000-7000-8000-0000000000aa',
      name: 'Recepcja',
      stationSlug: 'front 1',
      connection,
      vatSlots: [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'],
      updatedAt: '2026-11-22T12:00:00.000Z',
    },
    pendingDiagnoses: [{ id: 'd1', requestedAt: '2026-11-22T12:00:00.000Z' }],
  };
}

/** A fetch that records the request and answers with a fixed status and JSON body. */
function fakeFetch(status: number, body: unknown) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fn, calls };
}

describe('FiscalPrinterCloudClient', () => {
  it('maps GET fiscal-printer/{slug} to the driver’s serial connection, with the spec’s headers', async () => {
    const serial = {
      kind: 'serial',
      path: '/dev/ttyUSB0',
      baudRate: 19200,
      parity: 'even',
      dataBits: 7,
      stopBits: 2,
      flowControl: 'rtscts',
    };
    const { fn, calls } = fakeFetch(200, answer(serial));
    const client = new FiscalPrinterCloudClient({ ...SESSION, fetch: fn });
    const got = await client.settings('front 1');
    expect(got?.connection).toEqual(serial);
    expect(got?.settings.pendingDiagnoses).toHaveLength(1);
    expect(calls[0]!.url).toBe(
      `https://studio.example/api/v4/${SESSION.studioUuid}/fiscal-printer/front%201`,
    );
    expect(calls[0]!.init.headers).toMatchObject({
      'x-auth-token': 'u1:s1',
      'x-csrf-token': 'csrf',
      'x-requested-with': 'XMLHttpRequest',
    });
  });

  it('a TCP setting opens a POSNET printer that prints (emulator on TCP)', async () => {
    const emulator = new PosnetEmulator();
    const server = await listenTcp(emulator);
    try {
      const { fn } = fakeFetch(200, answer({ kind: 'tcp', host: '127.0.0.1', port: server.port }));
      const got = await new FiscalPrinterCloudClient({ ...SESSION, fetch: fn }).settings('front-1');
      const printer = createPosnetPrinter(got!.connection, { timing: FAST_TIMING });
      await printer.open();
      expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
      await printer.close();
    } finally {
      await server.close();
    }
  });

  it('no printer for the station is null; other refusals and answers off the contract throw', async () => {
    expect(
      await new FiscalPrinterCloudClient({ ...SESSION, fetch: fakeFetch(404, {}).fn }).settings('x'),
    ).toBeNull();
    await expect(
      new FiscalPrinterCloudClient({ ...SESSION, fetch: fakeFetch(403, { error: {} }).fn }).settings('x'),
    ).rejects.toBeInstanceOf(CloudRequestError);
    const wrong = answer({ kind: 'serial', path: '/dev/ttyS0', baudRate: 9601 });
    await expect(
      new FiscalPrinterCloudClient({ ...SESSION, fetch: fakeFetch(200, wrong).fn }).settings('x'),
    ).rejects.toThrow();
  });
});

describe('reports the cloud accepts', () => {
  it('a diagnosis of the emulated printer is a valid diagnose result with its VAT table', async () => {
    const rig = await inProcessRig();
    try {
      await rig.printer.printReceipt(sampleReceipt());
      rig.emulator.paperOut();
      const result = DiagnoseResultSchema.parse(diagnoseResult(await rig.printer.diagnose()));
      expect(result.status).toMatchObject({ online: true, paperOut: true, lastReceiptNumber: 1 });
      expect(result.status.vatSlots).toHaveLength(7);
      expect(result.ok).toBe(false);
      expect(result.messageKey).toBe('printing:cashier.paperOut');
    } finally {
      await rig.close();
    }
  });

  it('an offline printer reports not responding', () => {
    const status = StationPrinterStatusSchema.parse(
      statusReport({ online: false, mechanism: 'error', device: 'ready' }),
    );
    expect(status).toMatchObject({ online: false, vatSlots: null, lastReceiptNumber: null });
  });

  it('a printed receipt becomes a document whose total is the shared function’s total', async () => {
    const rig = await inProcessRig();
    try {
      const receipt = sampleReceipt({
        id: '0195a5a0-0000-7000-8000-0000000000bb',
        discount: 101,
        payments: [{ type: 'cash', amount: 30000 }],
      });
      receipt.lines.push({
        name: 'Ręcznik',
        unitPrice: 1999,
        quantity: { thousandths: 1500 },
        vatRate: 'exempt',
      });
      const outcome = await rig.printer.printReceipt(receipt);
      const document = FiscalDocumentInputSchema.parse(documentReport(receipt, outcome));
      expect(document.lines[3]!.quantity).toBe('1.5');
      expect(document.outcome).toMatchObject({ status: 'printed', receiptNumber: 1 });
      const total = computeReceiptTotals({ lines: document.lines, discount: document.discount }).total;
      expect(document.outcome.status === 'printed' && document.outcome.total).toBe(total);
    } finally {
      await rig.close();
    }
  });
});
