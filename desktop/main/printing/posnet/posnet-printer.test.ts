import { describe, expect, it } from 'vitest';
import { computeReceiptTotals } from '../../../../shared/domain/receipts';
import type { FiscalReceipt, PrinterAttention } from '../fiscal-printer';
import { PosnetEmulator } from '../emulator/emulator';
import { FAST_TIMING, inProcessRig, recordingTransport, sampleReceipt } from '../emulator/test-rig';
import { encodeFrame, field, FrameReader } from './frame';
import { PosnetFiscalPrinter } from './posnet-printer';
import { createInProcessPair } from './transport';

const count = (commands: string[], name: string) => commands.filter((c) => c === name).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NORMAL = ['scnt', 'trinit', 'trline', 'trline', 'trline', 'trpayment', 'trend', 'scnt'];

describe('PosnetFiscalPrinter against the emulator', () => {
  it('opens by reading the VAT table and prints a receipt whose totals are ours', async () => {
    const rig = await rig0();
    expect(rig.info.vatTable.map((s) => [s.letter, s.rate])).toEqual([
      ['A', 2300],
      ['B', 800],
      ['C', 500],
      ['D', 0],
      ['E', 'exempt'],
      ['F', 'inactive'],
      ['G', 'inactive'],
    ]);
    const receipt = sampleReceipt();
    const started: unknown[] = [];
    const outcome = await rig.printer.printReceipt(receipt, { onStarted: (p) => started.push(p) });
    expect(outcome).toEqual({
      status: 'printed',
      receiptId: receipt.id,
      receiptNumber: 1,
      total: 20950,
      recovered: false,
    });
    // What the POS keeps before anything prints: the counters, and the receipt's own evidence (the
    // totals per VAT slot, payments and change the printer reports once it completed it).
    expect(started).toEqual([
      {
        receiptId: receipt.id,
        completedBefore: 0,
        lastNumberBefore: 0,
        total: 20950,
        slotTotals: [20050, 900, 0, 0, 0, 0, 0],
        payments: 20950,
        change: 0,
      },
    ]);
    expect(rig.sentSince()).toEqual(NORMAL);
    const [printed] = rig.emulator.receipts();
    const ours = computeReceiptTotals(receipt);
    expect(printed).toMatchObject({ total: ours.total, vat: ours.vat });
    expect(printed!.lines.map((l) => [l.name, l.slot, l.quantity, l.total])).toEqual([
      ['Karnet 4 wejścia', 'A', '1', 16000],
      ['Woda mineralna 0,5 l', 'B', '2', 900],
      ['Joga — zajęcia', 'A', '1', 4050],
    ]);
    await rig.close();
  });

  it('maps rates to slots by value, whatever their letters', async () => {
    const rig = await rig0({ device: { vat: [0, 'exempt', 2300, 800, 500, 'inactive', 'inactive'] } });
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(rig.emulator.receipts()[0]!.lines.map((l) => l.slot)).toEqual(['C', 'D', 'C']);
    await rig.close();
  });

  it('refuses a sale whose rate has no active slot before anything is sent', async () => {
    const rig = await rig0({ device: { vat: [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'] } });
    const receipt = sampleReceipt({
      lines: [
        { name: 'Usługa', unitPrice: 1000, vatRate: 700 },
        { name: 'Inna', unitPrice: 1000, vatRate: 700 },
        { name: 'Jeszcze', unitPrice: 1000, vatRate: 2200 },
      ],
      payments: [{ type: 'cash', amount: 3000 }],
    });
    expect(await rig.printer.printReceipt(receipt)).toEqual({
      status: 'notPrinted',
      receiptId: receipt.id,
      reason: 'vatRateNotOnPrinter',
      messageKey: 'printing:cashier.vatRateNotOnPrinter',
      params: { rates: '7%, 22%' },
    });
    expect(rig.sentSince(true)).toEqual([]);
    await rig.close();
  });

  it('refuses an invalid receipt before anything is sent, listing every problem', async () => {
    const rig = await rig0();
    const outcome = await rig.printer.printReceipt(
      sampleReceipt({
        lines: [
          { name: ' \t', unitPrice: 1000, vatRate: 2300 },
          { name: 'Gratis', unitPrice: 0, vatRate: 2300 },
          { name: 'Okruch', unitPrice: 1, quantity: '0.001', vatRate: 2300 },
        ],
        payments: [{ type: 'card', amount: 500 }],
      }),
    );
    expect(outcome).toMatchObject({
      status: 'notPrinted',
      reason: 'invalidReceipt',
      problems: [
        { path: 'lines.0.name', code: 'nameEmpty' },
        { path: 'lines.1.unitPrice', code: 'unitPriceNotPositive' },
        { path: 'lines.2.quantity', code: 'lineTotalZero' },
        { path: 'payments', code: 'paymentsDoNotCover' },
      ],
    });
    const tooMany = sampleReceipt({
      lines: Array.from({ length: 501 }, (_, i) => ({ name: `P${i}`, unitPrice: 100, vatRate: 2300 })),
      payments: [{ type: 'cash', amount: 50100 }],
    });
    expect(await rig.printer.printReceipt(tooMany)).toMatchObject({ problems: [{ code: 'tooManyLines' }] });
    expect(rig.sentSince(true)).toEqual([]);
    await rig.close();
  });

  it('prints 500 lines, the most a receipt takes', async () => {
    const rig = await rig0();
    const lines = Array.from({ length: 500 }, (_, i) => ({
      name: `Pozycja ${i + 1}`,
      unitPrice: 100 + i,
      vatRate: 2300,
    }));
    const total = lines.reduce((a, l) => a + l.unitPrice, 0);
    const outcome = await rig.printer.printReceipt(
      sampleReceipt({ lines, payments: [{ type: 'cash', amount: total }] }),
    );
    expect(outcome).toMatchObject({ status: 'printed', total });
    expect(rig.emulator.receipts()[0]!.lines).toHaveLength(500);
    await rig.close();
  });

  it('hands change back in cash', async () => {
    const rig = await rig0();
    const outcome = await rig.printer.printReceipt(
      sampleReceipt({ payments: [{ type: 'cash', amount: 25000 }] }),
    );
    expect(outcome.status).toBe('printed');
    expect(rig.emulator.receipts()[0]).toMatchObject({
      change: 4050,
      payments: [{ type: 0, amount: 25000 }],
    });
    expect(rig.emulator.device.drawer).toBe(20950);
    await rig.close();
  });

  it('daily report missing (383): not printed, a cashier message, and it prints after the report', async () => {
    const rig = await rig0();
    rig.emulator.requireDailyReport();
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'dailyReportMissing',
      messageKey: 'printing:cashier.dailyReportMissing',
      printerError: 383,
    });
    expect(rig.sentSince()).toEqual(['scnt', 'trinit']);
    expect(await rig.printer.dailyReport()).toEqual({ ok: true });
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await rig.close();
  });

  it('printer busy on another interface (41): waits and tries again, or gives up with a message', async () => {
    const rig = await rig0();
    rig.emulator.setOtherInterfaceBusy(true);
    setTimeout(() => rig.emulator.setOtherInterfaceBusy(false), 40);
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(rig.attentions.some((a) => a?.messageKey === 'printing:cashier.printerBusy')).toBe(true);

    rig.emulator.setOtherInterfaceBusy(true);
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'printerBusy',
      messageKey: 'printing:cashier.printerBusy',
    });
    expect(rig.emulator.receipts()).toHaveLength(1);
    await rig.close();
  });

  it('paper out mid-receipt: the cashier is told, the sale waits, and prints once paper is in', async () => {
    const rig = await rig0();
    rig.emulator.runOutOfPaper({ after: { command: 'trline', nth: 1 } });
    const seen: (PrinterAttention | null)[] = [];
    const outcome = await rig.printer.printReceipt(sampleReceipt(), {
      onAttention: (attention) => {
        seen.push(attention);
        if (attention?.messageKey === 'printing:cashier.paperOut')
          setTimeout(() => rig.emulator.loadPaper(), 30);
      },
    });
    expect(outcome).toMatchObject({ status: 'printed', receiptNumber: 1 });
    expect(seen[0]).toEqual({
      messageKey: 'printing:cashier.paperOut',
      mechanism: 'paperOut',
      device: 'waitingForUser',
    });
    expect(seen.at(-1)).toBeNull();
    expect(count(rig.sentSince(), 'trline')).toBe(3);
    expect(rig.emulator.receipts()[0]!.lines).toHaveLength(3);
    await rig.close();
  });

  it('cover open: told, waits, prints', async () => {
    const rig = await rig0();
    rig.emulator.openCover();
    const outcome = await rig.printer.printReceipt(sampleReceipt(), {
      onAttention: (attention) => {
        if (attention?.messageKey === 'printing:cashier.coverOpen')
          setTimeout(() => rig.emulator.closeCover(), 20);
      },
    });
    expect(outcome.status).toBe('printed');
    expect(rig.attentions.map((a) => a?.messageKey ?? null)).toEqual(['printing:cashier.coverOpen', null]);
    await rig.close();
  });

  it('the cashier gives up waiting for paper: needsAttention, then settled without printing twice', async () => {
    const rig = await rig0();
    rig.emulator.runOutOfPaper({ after: 'trinit' });
    const abort = new AbortController();
    const receipt = sampleReceipt();
    const outcome = await rig.printer.printReceipt(receipt, {
      signal: abort.signal,
      onAttention: (a) => a && abort.abort(),
    });
    expect(outcome).toMatchObject({
      status: 'needsAttention',
      reason: 'abandonedWhileWaiting',
      messageKey: 'printing:cashier.outcomeUnknown',
      pending: { receiptId: receipt.id, completedBefore: 0, total: 20950 },
    });
    if (outcome.status !== 'needsAttention') throw new Error('expected needsAttention');
    // Nothing new until the old one is settled.
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'previousReceiptUnresolved',
      params: { receiptId: receipt.id },
    });
    rig.emulator.loadPaper(); // the held trline now runs
    await sleep(20);
    expect(await rig.printer.resolvePending(outcome.pending)).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledAfterFault',
    });
    expect(rig.emulator.receipts()).toHaveLength(0);
    expect(rig.emulator.device.cancelled).toBe(1);
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await rig.close();
  });

  it('an item name locked to a lower rate (2106): not printed, the open receipt cancelled', async () => {
    const rig = await rig0();
    const water = (vatRate: number) =>
      sampleReceipt({
        lines: [{ name: 'Woda', unitPrice: 300, vatRate }],
        payments: [{ type: 'cash', amount: 300 }],
      });
    expect((await rig.printer.printReceipt(water(800))).status).toBe('printed');
    rig.sentSince();
    expect(await rig.printer.printReceipt(water(500))).toMatchObject({
      status: 'notPrinted',
      reason: 'itemNameLocked',
      messageKey: 'printing:cashier.itemNameLocked',
      printerError: 2106,
    });
    expect(rig.sentSince()).toEqual(['scnt', 'trinit', 'trline', 'prncancel']);
    expect([rig.emulator.device.completed, rig.emulator.device.cancelled]).toEqual([1, 1]);
    await rig.close();
  });

  it('a corrupted byte in a command: the printer says ERR ?5, the command is sent again', async () => {
    const rig = await rig0();
    rig.emulator.corruptNextCommand({ command: 'trline', nth: 2 });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'printed',
      recovered: false,
    });
    expect(count(rig.sentSince(), 'trline')).toBe(4);
    expect(rig.emulator.receipts()[0]!.lines).toHaveLength(3);
    await rig.close();
  });

  it('a corrupted trend frame: never re-sent on an ERR ?5 — settled by rpt/strns and cancelled', async () => {
    const rig = await rig0();
    rig.emulator.corruptNextCommand('trend');
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledAfterFault',
    });
    const sent = rig.sentSince();
    expect(count(sent, 'trend')).toBe(1);
    expect(sent.slice(sent.indexOf('trend'))).toEqual(['trend', 'rpt', 'strns', 'prncancel']);
    expect(rig.emulator.receipts()).toHaveLength(0);
    await rig.close();
  });

  it('a corrupted reply to trend: recovered with rpt, printed once', async () => {
    const rig = await rig0();
    rig.emulator.corruptNextReply('trend');
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'printed',
      recovered: true,
    });
    const sent = rig.sentSince();
    expect(count(sent, 'trend')).toBe(1);
    expect(sent).toContain('rpt');
    expect(rig.emulator.receipts()).toHaveLength(1);
    await rig.close();
  });

  it('a slow printer: the driver sees it busy (!sdev) and keeps waiting', async () => {
    const rig = await rig0();
    rig.emulator.setSlow(300, 'trend'); // > commandTimeoutMs: a long receipt being printed
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    const sent = rig.sentSince(true);
    expect(sent).toContain('!sdev');
    expect(sent).not.toContain('rpt');
    expect(rig.attentions).toEqual([]);
    await rig.close();
  });

  it('status answers at once, also while paper is out; diagnose reports counters and the link', async () => {
    const rig = await rig0();
    rig.emulator.paperOut();
    expect(await rig.printer.status()).toEqual({
      online: true,
      mechanism: 'paperOut',
      device: 'ready',
      messageKey: 'printing:cashier.paperOut',
    });
    rig.emulator.loadPaper();
    await rig.printer.printReceipt(sampleReceipt());
    const diagnosis = await rig.printer.diagnose();
    expect(diagnosis).toMatchObject({
      transport: 'in-process (app)',
      status: { online: true, mechanism: 'ok', device: 'ready' },
      counters: { completed: 1, cancelled: 0, lastReceiptNumber: 1 },
      transactionOpen: false,
    });
    expect(diagnosis.link.framesSent).toBeGreaterThan(8);
    rig.emulator.disconnect({ forMs: 300 });
    expect(await rig.printer.status()).toMatchObject({
      online: false,
      messageKey: 'printing:cashier.printerNotResponding',
    });
    await rig.close();
  });

  it('cash in, cash out and the drawer limit', async () => {
    const rig = await rig0();
    expect(await rig.printer.cashIn(10000)).toEqual({ ok: true });
    expect(await rig.printer.cashOut(4000)).toEqual({ ok: true });
    expect(await rig.printer.cashOut(7000)).toEqual({
      ok: false,
      messageKey: 'printing:cashier.cashOutExceedsDrawer',
      printerError: 503,
    });
    await expect(rig.printer.cashIn(10.5)).rejects.toThrow(RangeError);
    expect(rig.emulator.roll.map((d) => d.kind)).toEqual(['cashIn', 'cashOut']);
    await rig.close();
  });

  it('cancels a receipt a crash left open, at open() and at trinit (2060)', async () => {
    const emulator = new PosnetEmulator();
    const [raw] = new FrameReader().push(encodeFrame({ command: 'trinit', fields: [field('bm', 0)] }));
    emulator.device.receive(raw!);
    const pair = createInProcessPair();
    emulator.attach(pair.device);
    const printer = new PosnetFiscalPrinter({ transport: pair.app, timing: FAST_TIMING });
    expect(await printer.open()).toMatchObject({ cancelledOpenReceipt: true, completedReceipts: 0 });
    expect(emulator.device.cancelled).toBe(1);

    emulator.device.receive(raw!); // opened again behind our back
    expect((await printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect([emulator.device.cancelled, emulator.device.completed]).toEqual([2, 1]);
    expect(await printer.cancel()).toEqual({ ok: true });
    await printer.close();
  });

  it('can be closed and opened again', async () => {
    const rig = await rig0();
    await rig.printer.close();
    await rig.printer.open();
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await rig.close();
  });

  it('refuses to print before open()', async () => {
    const pair = createInProcessPair();
    const printer = new PosnetFiscalPrinter({ transport: pair.app, timing: FAST_TIMING });
    expect(await printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'notConnected',
    });
  });
});

describe('recovery: a receipt is neither lost nor printed twice', () => {
  it('trend reply dropped: rpt returns it; printed once, bn + 1', async () => {
    const rig = await rig0();
    rig.emulator.dropNextReply('trend');
    const outcome = await rig.printer.printReceipt(sampleReceipt());
    expect(outcome).toMatchObject({ status: 'printed', receiptNumber: 1, recovered: true });
    const sent = rig.sentSince();
    expect(count(sent, 'trend')).toBe(1);
    expect(sent.slice(-3)).toEqual(['trend', 'rpt', 'scnt']);
    expect(rig.emulator.receipts()).toHaveLength(1);
    expect(rig.emulator.device.completed).toBe(1);
    await rig.close();
  });

  it('trend ran, then power loss wiped the kept replies: bn went up by one and the last receipt is ours — printed once', async () => {
    const rig = await rig0();
    await rig.printer.printReceipt(sampleReceipt());
    rig.sentSince();
    rig.emulator.powerLoss({ forMs: 50, after: 'trend' });
    const outcome = await rig.printer.printReceipt(sampleReceipt());
    expect(outcome).toMatchObject({ status: 'printed', receiptNumber: 2, recovered: true });
    const sent = rig.sentSince();
    expect(count(sent, 'trend')).toBe(1);
    // strns again: the last receipt's totals per slot, payments and change are the evidence it is ours.
    expect(sent.slice(sent.indexOf('trend'))).toEqual(['trend', 'rpt', 'strns', 'scnt', 'strns']);
    expect(rig.emulator.receipts()).toHaveLength(2);
    expect(rig.emulator.device.completed).toBe(2);
    await rig.close();
  });

  it('trend lost on the way in (never ran): the open receipt is cancelled, never sent again', async () => {
    const rig = await rig0();
    rig.emulator.disconnect({ forMs: 60, during: 'command', match: 'trend' });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledAfterFault',
      messageKey: 'printing:cashier.receiptCancelled',
    });
    const sent = rig.sentSince();
    expect(count(sent, 'trend')).toBe(1);
    expect(sent.slice(sent.indexOf('trend'))).toEqual(['trend', 'rpt', 'strns', 'prncancel']);
    expect(rig.emulator.receipts()).toHaveLength(0);
    expect(rig.emulator.device.cancelled).toBe(1);
    await rig.close();
  });

  it('trend reply cut mid-frame by a lost connection: rpt once the link is back', async () => {
    const rig = await rig0();
    rig.emulator.disconnect({ forMs: 150, during: 'reply', match: 'trend' });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'printed',
      recovered: true,
    });
    expect(count(rig.sentSince(), 'trend')).toBe(1);
    expect(rig.emulator.receipts()).toHaveLength(1);
    await rig.close();
  });

  it('trline reply dropped: rpt returns it; the line is not registered twice', async () => {
    const rig = await rig0();
    rig.emulator.dropNextReply({ command: 'trline', nth: 2 });
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(count(rig.sentSince(), 'trline')).toBe(3);
    expect(rig.emulator.receipts()[0]!.lines).toHaveLength(3);
    await rig.close();
  });

  it('trline lost on the way in: strns shows it did not run, so it alone is sent again', async () => {
    const rig = await rig0();
    rig.emulator.disconnect({ forMs: 60, during: 'command', match: { command: 'trline', nth: 2 } });
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    expect(count(rig.sentSince(), 'trline')).toBe(4);
    expect(rig.emulator.receipts()[0]!.lines.map((l) => l.name)).toEqual([
      'Karnet 4 wejścia',
      'Woda mineralna 0,5 l',
      'Joga — zajęcia',
    ]);
    await rig.close();
  });

  it('power loss mid-receipt, receipt kept open: strns shows the line ran; carries on, printed once', async () => {
    const rig = await rig0();
    rig.emulator.powerLoss({ forMs: 50, after: { command: 'trline', nth: 2 }, openReceipt: 'keep' });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'printed',
      recovered: true,
    });
    expect(count(rig.sentSince(), 'trline')).toBe(3);
    expect(rig.emulator.receipts()[0]!.lines).toHaveLength(3);
    await rig.close();
  });

  it('power loss mid-receipt, receipt cancelled at power-up: not printed, nothing half-done left', async () => {
    const rig = await rig0();
    rig.emulator.powerLoss({ forMs: 50, after: { command: 'trline', nth: 2 } });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledByPrinter',
    });
    expect(rig.sentSince()).not.toContain('trend');
    expect(rig.emulator.receipts()).toHaveLength(0);
    expect(rig.emulator.roll).toMatchObject([{ kind: 'cancelledReceipt', cause: 'powerLoss' }]);
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await rig.close();
  });

  it('the link stays down past the limit during trend: needsAttention, settled later as printed', async () => {
    const rig = await rig0();
    rig.emulator.disconnect({ forMs: 900, during: 'reply', match: 'trend' });
    const receipt = sampleReceipt();
    const outcome = await rig.printer.printReceipt(receipt);
    expect(outcome).toMatchObject({
      status: 'needsAttention',
      reason: 'printerNotResponding',
      pending: { receiptId: receipt.id, completedBefore: 0, total: 20950, endToken: expect.any(String) },
    });
    if (outcome.status !== 'needsAttention') throw new Error('expected needsAttention');
    await sleep(400);
    expect(await rig.printer.resolvePending(outcome.pending)).toMatchObject({
      status: 'printed',
      receiptId: receipt.id,
      receiptNumber: 1,
      recovered: true,
    });
    expect(count(rig.sentSince(), 'trend')).toBe(1);
    expect(rig.emulator.receipts()).toHaveLength(1);
    expect((await rig.printer.printReceipt(sampleReceipt())).status).toBe('printed');
    await rig.close();
  });

  it('a pending receipt can be settled by a new driver after a restart (bn comparison)', async () => {
    const rig = await rig0();
    const receipt = sampleReceipt();
    let pending: Parameters<PosnetFiscalPrinter['resolvePending']>[0] | undefined;
    await rig.printer.printReceipt(receipt, { onStarted: (p) => (pending = p) });
    const pair = createInProcessPair();
    rig.emulator.attach(pair.device);
    const restarted = new PosnetFiscalPrinter({ transport: pair.app, timing: FAST_TIMING });
    await restarted.open();
    expect(await restarted.resolvePending(pending!)).toMatchObject({ status: 'printed', receiptNumber: 1 });
    expect(await restarted.resolvePending({ ...pending!, completedBefore: 1 })).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledByPrinter',
    });
    await rig.close();
  });
});

describe('a receipt is identified by its own evidence, not by the counter', () => {
  it('another receipt completed meanwhile is not taken for ours; two since → cannot be told', async () => {
    const rig = await rig0();
    const ours = sampleReceipt();
    let pending: Parameters<PosnetFiscalPrinter['resolvePending']>[0] | undefined;
    rig.emulator.disconnect({ forMs: 900, during: 'command', match: 'trend' });
    const outcome = await rig.printer.printReceipt(ours, { onStarted: (p) => (pending = p) });
    expect(outcome.status).toBe('needsAttention');
    await sleep(400);
    // Another program cancels our open receipt and prints another one (bn 0 → 1).
    const other = createInProcessPair();
    rig.emulator.attach(other.device);
    const stranger = new PosnetFiscalPrinter({ transport: other.app, timing: FAST_TIMING });
    await stranger.open();
    const theirs = sampleReceipt({
      lines: [{ name: 'Kawa', unitPrice: 900, vatRate: 800 }],
      payments: [{ type: 'cash', amount: 900 }],
    });
    expect(await stranger.printReceipt(theirs)).toMatchObject({ status: 'printed', receiptNumber: 1 });
    // The count went up by one, but the last receipt's totals are not ours: ours was not printed.
    expect(await rig.printer.resolvePending(pending!)).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledByPrinter',
    });
    // Two receipts since: the printer cannot show which is which — left to the cashier, no new sale.
    expect((await stranger.printReceipt({ ...theirs, id: 'again' })).status).toBe('printed');
    const unknown = await rig.printer.resolvePending({ ...pending!, completedBefore: 0 });
    expect(unknown).toMatchObject({ status: 'needsAttention', reason: 'receiptNotIdentified' });
    expect(await rig.printer.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'previousReceiptUnresolved',
    });
    await stranger.close();
    await rig.close();
  });

  it('a restarted driver told of an unresolved receipt leaves its open receipt to resolvePending and prints nothing new first', async () => {
    const rig = await rig0();
    let pending: Parameters<PosnetFiscalPrinter['resolvePending']>[0] | undefined;
    rig.emulator.disconnect({ forMs: 900, during: 'command', match: 'trend' });
    expect(
      (await rig.printer.printReceipt(sampleReceipt(), { onStarted: (p) => (pending = p) })).status,
    ).toBe('needsAttention');
    await sleep(400);
    const pair = createInProcessPair();
    rig.emulator.attach(pair.device);
    const sent: string[] = [];
    const restarted = new PosnetFiscalPrinter({
      transport: recordingTransport(pair.app, sent),
      timing: FAST_TIMING,
    });
    const info = await restarted.open({ unresolved: [pending!] });
    expect(info.cancelledOpenReceipt).toBe(false);
    expect(sent).not.toContain('prncancel');
    expect(rig.emulator.device.transactionOpen).toBe(true);
    expect(await restarted.printReceipt(sampleReceipt())).toMatchObject({
      status: 'notPrinted',
      reason: 'previousReceiptUnresolved',
    });
    expect(await restarted.resolvePending(pending!)).toMatchObject({
      status: 'notPrinted',
      reason: 'cancelledAfterFault',
    });
    expect(await restarted.printReceipt(sampleReceipt())).toMatchObject({
      status: 'printed',
      receiptNumber: 1,
    });
    expect(rig.emulator.receipts()).toHaveLength(1);
    await rig.close();
  });

  it("the buyer's NIP goes on the receipt with trnipset; an invalid NIP prints nothing", async () => {
    const rig = await rig0();
    const outcome = await rig.printer.printReceipt(sampleReceipt({ buyerNip: 'PL 526-025-02-74' }));
    expect(outcome.status).toBe('printed');
    expect(rig.sentSince()).toEqual([
      'scnt',
      'trinit',
      'trnipset',
      'trline',
      'trline',
      'trline',
      'trpayment',
      'trend',
      'scnt',
    ]);
    expect(rig.emulator.receipts()[0]).toMatchObject({ buyerNip: '5260250274' });
    expect(await rig.printer.printReceipt(sampleReceipt({ buyerNip: '5260250275' }))).toMatchObject({
      status: 'notPrinted',
      reason: 'invalidReceipt',
      problems: [{ path: 'buyerNip', code: 'nipInvalid' }],
    });
    rig.emulator.dropNextReply('trnipset');
    expect((await rig.printer.printReceipt(sampleReceipt({ buyerNip: '5260250274' }))).status).toBe(
      'printed',
    );
    expect(rig.emulator.receipts()).toHaveLength(2);
    await rig.close();
  });
});

async function rig0(options: Parameters<typeof inProcessRig>[0] = {}) {
  return inProcessRig(options);
}

export type { FiscalReceipt };
