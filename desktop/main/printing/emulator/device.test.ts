import { describe, expect, it } from 'vitest';
import { PosnetError } from '../posnet/errors';
import { classifyReply, encodeFrame, field, FrameReader, parseBody, type PosnetReply } from '../posnet/frame';
import { PosnetDevice, type DeviceOptions } from './device';

type Fields = Record<string, string | number>;

/** Sends one frame through the real codec both ways and reads the reply as the driver would. */
function send(device: PosnetDevice, command: string, fields: Fields = {}, token?: string): PosnetReply {
  const frame = encodeFrame({
    command,
    fields: Object.entries(fields).map(([k, v]) => field(k, v)),
    ...(token !== undefined && { token }),
  });
  const [raw] = new FrameReader().push(frame);
  const reply = device.receive(raw!);
  const [back] = new FrameReader().push(encodeFrame(reply!));
  expect(back!.crcOk).toBe(true);
  return classifyReply(parseBody(back!.body));
}

function deviceWith(options: DeviceOptions = {}) {
  return new PosnetDevice({ now: () => new Date('2031-03-01T10:00:00Z'), ...options });
}

const trinit = (d: PosnetDevice) => send(d, 'trinit', { bm: 0 });
const trline = (d: PosnetDevice, fields: Fields = {}) =>
  send(d, 'trline', { na: 'Karnet', vt: 0, pr: 1000, ...fields });

function openWithLine(d: PosnetDevice, fields: Fields = {}) {
  expect(trinit(d).kind).toBe('ok');
  expect(trline(d, fields).kind).toBe('ok');
}

const commandError = (code: number) => ({ kind: 'commandError', code });
const frameError = (code: number, more: object = {}) => ({ kind: 'frameError', code, ...more });

describe('PosnetDevice rules, with the printer’s error codes', () => {
  it.each<[string, (d: PosnetDevice) => PosnetReply, object]>([
    [
      'VAT slot out of range → 2000',
      (d) => (trinit(d), trline(d, { vt: 7 })),
      commandError(PosnetError.badVatSlot),
    ],
    ['inactive VAT slot → 2000', (d) => (trinit(d), trline(d, { vt: 5 })), commandError(2000)],
    ['price 0 → 2006', (d) => (trinit(d), trline(d, { pr: 0 })), commandError(2006)],
    ['quantity 0 → 2007', (d) => (trinit(d), trline(d, { il: '0' })), commandError(2007)],
    ['quantity 0,000 → 2007', (d) => (trinit(d), trline(d, { il: '0,000' })), commandError(2007)],
    [
      'line total ≠ round(price × quantity) → 2802',
      (d) => (trinit(d), trline(d, { pr: 333, il: '0.5', wa: 166 })),
      commandError(2802),
    ],
    [
      'line total = round(price × quantity) half up is accepted',
      (d) => (trinit(d), trline(d, { pr: 333, il: '0,5', wa: 167 })),
      { kind: 'ok' },
    ],
    ['a line without trinit → 2060', (d) => trline(d), commandError(2060)],
    ['trinit twice → 2060', (d) => (trinit(d), trinit(d)), commandError(2060)],
    ['trend without trinit → 2060', (d) => send(d, 'trend', { to: 0 }), commandError(2060)],
    ['empty receipt → 1992', (d) => (trinit(d), send(d, 'trend', {})), commandError(1992)],
    [
      'zero total (discounted to nothing) → 2041',
      (d) => (openWithLine(d), send(d, 'trdiscntbill', { rw: 1000 }), send(d, 'trend', {})),
      commandError(2041),
    ],
    [
      'declared total ≠ printer’s total → 2805',
      (d) => (openWithLine(d), send(d, 'trend', { to: 999 })),
      commandError(2805),
    ],
    [
      'payments below the total → 2054',
      (d) => (openWithLine(d), send(d, 'trpayment', { ty: 2, wa: 900 }), send(d, 'trend', { to: 1000 })),
      commandError(2054),
    ],
    [
      'declared payments ≠ registered payments → 2808',
      (d) => (
        openWithLine(d),
        send(d, 'trpayment', { ty: 2, wa: 1000 }),
        send(d, 'trend', { to: 1000, fp: 1200 })
      ),
      commandError(2808),
    ],
    [
      'declared change ≠ registered change → 2808',
      (d) => (
        openWithLine(d),
        send(d, 'trpayment', { ty: 0, wa: 2000 }),
        send(d, 'trpayment', { ty: 0, wa: 1000, re: 1 }),
        send(d, 'trend', { to: 1000, fp: 2000, re: 900 })
      ),
      commandError(2808),
    ],
    [
      'payments − change ≠ amount due → 2054',
      (d) => (
        openWithLine(d),
        send(d, 'trpayment', { ty: 0, wa: 2000 }),
        send(d, 'trpayment', { ty: 0, wa: 500, re: 1 }),
        send(d, 'trend', { to: 1000 })
      ),
      commandError(2054),
    ],
    [
      'unknown payment type → 2705',
      (d) => (openWithLine(d), send(d, 'trpayment', { ty: 1, wa: 1000 })),
      commandError(2705),
    ],
    ['line discount to zero → 1985', (d) => (trinit(d), trline(d, { rw: 1000 })), commandError(1985)],
    [
      'percent and amount discount together → 2600',
      (d) => (trinit(d), trline(d, { rw: 10, rp: 100 })),
      commandError(2600),
    ],
    [
      'receipt discount before any line → 1991',
      (d) => (trinit(d), send(d, 'trdiscntbill', { rw: 10 })),
      commandError(1991),
    ],
    ['empty name → 2104', (d) => (trinit(d), trline(d, { na: '  ' })), commandError(2104)],
    ['no daily report → 383', (d) => ((d.dailyReportRequired = true), trinit(d)), commandError(383)],
    ['busy on another interface → 41', (d) => ((d.otherInterfaceBusy = true), trinit(d)), commandError(41)],
    [
      'decimal in a money field → frame error 3',
      (d) => (trinit(d), trline(d, { pr: '10.00' })),
      frameError(3, { command: 'trline', field: 'pr' }),
    ],
    [
      'comma in a money field → frame error 3',
      (d) => (trinit(d), trline(d, { pr: '10,00' })),
      frameError(3, { field: 'pr' }),
    ],
    [
      'missing field → frame error 2',
      (d) => (trinit(d), send(d, 'trline', { vt: 0, pr: 100 })),
      frameError(2, { field: 'na' }),
    ],
    ['unknown command → frame error 1', (d) => send(d, 'trfoo', {}), frameError(1, { command: 'trfoo' })],
    [
      'name over 80 characters → frame error 10',
      (d) => (trinit(d), trline(d, { na: 'x'.repeat(81) })),
      frameError(10),
    ],
    ['only sprn/sdev run immediately → frame error 12', (d) => send(d, '!trinit', { bm: 0 }), frameError(12)],
    ['cash out below zero → 503', (d) => send(d, 'cashout', { kw: 100 }), commandError(503)],
  ])('%s', (_, act, expected) => {
    expect(act(deviceWith())).toMatchObject(expected);
  });

  it('a frame with a bad CRC → frame error 5, nothing executed', () => {
    const d = deviceWith();
    const reply = d.receive({ body: Buffer.from('trinit\tbm0\t'), crcOk: false });
    expect(classifyReply(reply!)).toMatchObject(frameError(5));
    expect(d.transactionOpen).toBe(false);
  });

  it('takes 500 lines and refuses the 501st (2052)', () => {
    const d = deviceWith();
    trinit(d);
    for (let i = 0; i < 500; i++) expect(trline(d, { na: `Pozycja ${i}` }).kind).toBe('ok');
    expect(trline(d, { na: 'Pozycja 501' })).toMatchObject(commandError(2052));
    expect(send(d, 'trend', { to: 500_000 }).kind).toBe('ok');
    expect(d.roll.at(-1)).toMatchObject({ kind: 'receipt', total: 500_000 });
  });

  it('locks an item name to its rate: a lower rate is refused (2106) until the daily report', () => {
    const d = deviceWith();
    openWithLine(d, { na: 'Woda', vt: 1 }); // 8 %
    expect(trline(d, { na: 'WODA', vt: 2 })).toMatchObject(commandError(2106)); // 5 %, case-insensitive
    expect(trline(d, { na: 'Woda', vt: 4 })).toMatchObject(commandError(2106)); // exempt is lowest
    expect(trline(d, { na: 'Woda', vt: 0 }).kind).toBe('ok'); // higher: allowed, and now locked at 23 %
    expect(trline(d, { na: 'Woda', vt: 1 })).toMatchObject(commandError(2106));
    send(d, 'prncancel');
    expect(send(d, 'dailyrep').kind).toBe('ok');
    trinit(d);
    expect(trline(d, { na: 'Woda', vt: 2 }).kind).toBe('ok');
  });

  it('computes a receipt as the printer does and prints it on the roll', () => {
    const d = deviceWith();
    trinit(d);
    trline(d, { na: 'Mata', vt: 0, pr: 8999, wa: 8999 });
    trline(d, { na: 'Woda', vt: 1, pr: 350, il: '2', wa: 700 });
    trline(d, { na: 'Zajęcia', vt: 4, pr: 4000 });
    trline(d, { na: 'Książka', vt: 2, pr: 2999, rp: 1000 });
    trline(d, { na: 'Ręcznik', vt: 0, pr: 2500, rw: 500 });
    send(d, 'trdiscntbill', { rw: 1000 });
    send(d, 'trpayment', { ty: 2, wa: 10000 });
    send(d, 'trpayment', { ty: 0, wa: 8000 });
    send(d, 'trpayment', { ty: 0, wa: 602, re: 1 });
    expect(send(d, 'trend', { to: 17398, fp: 18000, re: 602 }).kind).toBe('ok');
    const receipt = d.roll.at(-1);
    expect(receipt).toMatchObject({
      kind: 'receipt',
      number: 1,
      total: 17398,
      vat: 2116,
      change: 602,
      discount: 1000,
    });
    if (receipt?.kind !== 'receipt') throw new Error('no receipt');
    expect(receipt.slots.map((s) => [s.slot, s.gross, s.discount, s.total, s.vat])).toEqual([
      ['A', 10999, 598, 10401, 1945],
      ['B', 700, 38, 662, 49],
      ['C', 2699, 147, 2552, 122],
      ['E', 4000, 217, 3783, 0],
    ]);
    expect(receipt.header[0]).toBe('Studio Ruchu Harmonia');
    expect(d.drawer).toBe(8000 - 602);
    expect(send(d, 'scnt')).toMatchObject({ fields: [field('bn', 1), field('bc', 0), field('nr', 1)] });
  });

  it('takes payments as cash equal to the total when none were registered', () => {
    const d = deviceWith();
    openWithLine(d);
    expect(send(d, 'trend', { to: 1000 }).kind).toBe('ok');
    expect(d.drawer).toBe(1000);
  });

  it('reports the open transaction in strns and the VAT table in vatget', () => {
    const d = deviceWith({ vat: [800, 2300, 'exempt', 0, 500, 'inactive', 550] });
    expect(send(d, 'vatget')).toMatchObject({
      fields: ['8,00', '23,00', '100,00', '0,00', '5,00', '101,00', '5,50'].map((v, i) =>
        field(`v${'abcdefg'[i]}`, v),
      ),
    });
    expect(send(d, 'strns')).toMatchObject({ fields: expect.arrayContaining([field('ts', 0)]) });
    openWithLine(d, { vt: 1, pr: 1500 });
    send(d, 'trpayment', { ty: 2, wa: 1500 });
    expect(send(d, 'strns')).toMatchObject({
      fields: [
        field('ts', 1),
        field('ln', 1),
        field('to', 1500),
        field('fp', 1500),
        field('re', 0),
        field('sb', 1500),
      ],
    });
    expect(send(d, 'scomm')).toMatchObject({ fields: [field('fm', 1), field('tr', 1)] });
  });

  it('keeps the last 32 replies for rpt, not rpt itself and not immediate commands', () => {
    const d = deviceWith();
    send(d, 'trinit', { bm: 0 }, '0001');
    expect(send(d, 'rpt', {}, '0001')).toMatchObject({ kind: 'ok', command: 'trinit', token: '0001' });
    send(d, 'trline', { na: 'A', vt: 0, pr: 0 }, '0002');
    expect(send(d, 'rpt', {}, '0002')).toMatchObject(commandError(2006));
    for (let i = 3; i <= 34; i++) send(d, 'scnt', {}, String(i).padStart(4, '0'));
    expect(send(d, 'rpt', {}, '0002')).toMatchObject(frameError(13));
    expect(send(d, 'rpt', {}, '0003')).toMatchObject({ kind: 'ok', command: 'scnt' });
    send(d, '!sprn', {}, '0100');
    expect(send(d, 'rpt', {}, '0100')).toMatchObject(frameError(13));
    expect(send(d, 'rpt', {})).toMatchObject(frameError(2));
  });

  it('answers sprn and sdev with the mechanism and device state', () => {
    const d = deviceWith();
    expect(send(d, '!sprn')).toMatchObject({ command: 'sprn', fields: [field('pr', 0)] });
    d.paper = 'out';
    expect(send(d, '!sprn').kind === 'ok' && send(d, '!sprn')).toMatchObject({ fields: [field('pr', 5)] });
    d.cover = 'open';
    expect(send(d, 'sprn')).toMatchObject({ fields: [field('pr', 3)] });
    d.activity = 'waitingForUser';
    expect(send(d, '!sdev')).toMatchObject({ fields: [field('sd', 3)] });
    expect(d.blockedBy('trline')).toBe('cover');
    d.cover = 'closed';
    expect(d.blockedBy('trend')).toBe('paper');
    expect(d.blockedBy('scnt')).toBeNull();
  });

  it('cancels an open receipt on prncancel (bc + 1) and is a no-op without one', () => {
    const d = deviceWith();
    expect(send(d, 'prncancel').kind).toBe('ok');
    openWithLine(d);
    expect(send(d, 'trcancel').kind).toBe('ok');
    expect([d.cancelled, d.completed, d.transactionOpen]).toEqual([1, 0, false]);
    expect(d.roll.at(-1)).toMatchObject({ kind: 'cancelledReceipt', cause: 'command', total: 1000 });
  });

  it('after a power loss forgets the kept replies, and cancels or keeps the open receipt', () => {
    const a = deviceWith();
    send(a, 'trinit', { bm: 0 }, '0001');
    send(a, 'trline', { na: 'A', vt: 0, pr: 100 }, '0002');
    a.powerCycle('cancel');
    expect(send(a, 'rpt', {}, '0002')).toMatchObject(frameError(13));
    expect([a.transactionOpen, a.cancelled]).toEqual([false, 1]);
    expect(a.roll.at(-1)).toMatchObject({ kind: 'cancelledReceipt', cause: 'powerLoss' });

    const b = deviceWith();
    openWithLine(b);
    b.powerCycle('keep');
    expect([b.transactionOpen, b.cancelled]).toEqual([true, 0]);
  });

  it('prints a daily report of the day’s totals per slot and clears the 383 flag', () => {
    const d = deviceWith({ dailyReportRequired: true });
    expect(trinit(d)).toMatchObject(commandError(383));
    expect(send(d, 'dailyrep').kind).toBe('ok');
    openWithLine(d, { pr: 12300 });
    send(d, 'trend', { to: 12300 });
    send(d, 'dailyrep');
    expect(d.roll.at(-1)).toMatchObject({
      kind: 'dailyReport',
      number: 2,
      receipts: 1,
      slots: [{ slot: 'A', total: 12300, vat: 2300 }],
    });
  });

  it('keeps cash in the drawer and a header', () => {
    const d = deviceWith();
    expect(send(d, 'cashin', { kw: 10000 }).kind).toBe('ok');
    expect(send(d, 'cashout', { kw: 2500 }).kind).toBe('ok');
    expect(d.drawer).toBe(7500);
    expect(send(d, 'hdrset', { tx: '&cKowalski && Syn' }).kind).toBe('ok');
    expect(send(d, 'hdrget')).toMatchObject({ fields: [field('tx', '&cKowalski && Syn')] });
  });
});
