import { describe, expect, it } from 'vitest';
import {
  classifyReply,
  encodeFrame,
  field,
  FrameReader,
  parseBody,
  type PosnetReply,
  type RawFrame,
} from '../posnet/frame';
import { createInProcessPair } from '../posnet/transport';
import { PosnetEmulator } from './emulator';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bare client on the wire: sends frames, collects what comes back, no driver logic. */
function wire(emulator: PosnetEmulator) {
  const pair = createInProcessPair();
  emulator.attach(pair.device);
  const reader = new FrameReader();
  const frames: RawFrame[] = [];
  let bytes = 0;
  pair.app.onData((chunk) => {
    bytes += chunk.length;
    frames.push(...reader.push(chunk));
  });
  let token = 0;
  return {
    send(command: string, fields: Record<string, string | number> = {}) {
      token += 1;
      void pair.app.write(
        encodeFrame({
          command,
          fields: Object.entries(fields).map(([k, v]) => field(k, v)),
          token: String(token),
        }),
      );
      return String(token);
    },
    /** `rpt` carries the token of the command whose reply it asks for. */
    repeat(of: string) {
      void pair.app.write(encodeFrame({ command: 'rpt', fields: [], token: of }));
    },
    /** The next frame, classified ('corrupt' when its CRC fails), or null after `ms`. */
    async next(ms = 300): Promise<PosnetReply | 'corrupt' | null> {
      const deadline = Date.now() + ms;
      while (frames.length === 0 && Date.now() < deadline) await sleep(2);
      const raw = frames.shift();
      if (!raw) return null;
      return raw.crcOk ? classifyReply(parseBody(raw.body)) : 'corrupt';
    },
    get bytesReceived() {
      return bytes;
    },
  };
}

describe('PosnetEmulator over a byte stream', () => {
  it('answers commands in order, each with its token', async () => {
    const link = wire(new PosnetEmulator());
    const tokens = [
      link.send('trinit', { bm: 0 }),
      link.send('trline', { na: 'A', vt: 0, pr: 100 }),
      link.send('scnt'),
    ];
    const replies = [await link.next(), await link.next(), await link.next()];
    expect(replies.map((r) => r !== 'corrupt' && r?.kind === 'ok' && r.token)).toEqual(tokens);
  });

  it('paper out: printing commands wait for the cashier while !sprn / !sdev answer at once', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.paperOut();
    link.send('trinit', { bm: 0 });
    expect(await link.next(60)).toBeNull();
    link.send('!sprn');
    expect(await link.next()).toMatchObject({ command: 'sprn', fields: [field('pr', 5)] });
    link.send('!sdev');
    expect(await link.next()).toMatchObject({ command: 'sdev', fields: [field('sd', 3)] });
    link.send('scnt'); // queued behind the held trinit
    expect(await link.next(30)).toBeNull();
    emulator.loadPaper();
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'trinit' });
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'scnt' });
  });

  it('cover open: the same, with !sprn answering 3', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.openCover();
    link.send('dailyrep');
    link.send('!sprn');
    expect(await link.next()).toMatchObject({ command: 'sprn', fields: [field('pr', 3)] });
    emulator.closeCover();
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'dailyrep' });
  });

  it('corrupted byte in a command: frame error 5, the command did not run', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.corruptNextCommand('trinit');
    link.send('trinit', { bm: 0 });
    expect(await link.next()).toMatchObject({ kind: 'frameError', code: 5 });
    expect(emulator.device.transactionOpen).toBe(false);
  });

  it('corrupted byte in a reply: the command ran, the reply fails its CRC, rpt returns it intact', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.corruptNextReply('trinit');
    const token = link.send('trinit', { bm: 0 });
    expect(await link.next()).toBe('corrupt');
    expect(emulator.device.transactionOpen).toBe(true);
    link.repeat(token);
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'trinit', token });
  });

  it('reply dropped after the command ran: silence, then rpt @token gives it', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.dropNextReply({ command: 'trline', nth: 2 });
    link.send('trinit', { bm: 0 });
    link.send('trline', { na: 'A', vt: 0, pr: 100 });
    const lost = link.send('trline', { na: 'B', vt: 0, pr: 200 });
    expect(await link.next()).toMatchObject({ command: 'trinit' });
    expect(await link.next()).toMatchObject({ command: 'trline' });
    expect(await link.next(50)).toBeNull();
    link.repeat(lost);
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'trline', token: lost });
  });

  it('connection lost mid-frame: the command never runs and the link is dead for a while', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.disconnect({ forMs: 80, during: 'command', match: 'trinit' });
    link.send('trinit', { bm: 0 });
    link.send('!sdev');
    expect(await link.next(50)).toBeNull();
    expect(emulator.device.transactionOpen).toBe(false);
    await sleep(60);
    link.send('!sdev');
    expect(await link.next()).toMatchObject({ command: 'sdev' });
  });

  it('connection lost mid-reply: the command ran, half a frame arrived', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.disconnect({ forMs: 50, during: 'reply', match: 'trinit' });
    link.send('trinit', { bm: 0 });
    expect(await link.next(40)).toBeNull();
    expect(link.bytesReceived).toBeGreaterThan(0);
    expect(emulator.device.transactionOpen).toBe(true);
    await sleep(30);
    link.send('scnt');
    expect(await link.next()).toMatchObject({ kind: 'ok', command: 'scnt' });
  });

  it('power loss after a command: no reply, kept replies lost, open receipt cancelled at power-up', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.powerLoss({ forMs: 40, after: 'trline' });
    link.send('trinit', { bm: 0 });
    const lost = link.send('trline', { na: 'A', vt: 0, pr: 100 });
    expect(await link.next()).toMatchObject({ command: 'trinit' });
    expect(await link.next(30)).toBeNull();
    await sleep(30);
    link.repeat(lost);
    expect(await link.next()).toMatchObject({ kind: 'frameError', code: 13 });
    expect(emulator.device.cancelled).toBe(1);
    expect(emulator.roll.at(-1)).toMatchObject({ kind: 'cancelledReceipt', cause: 'powerLoss' });
  });

  it('power loss now can keep the open receipt', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    link.send('trinit', { bm: 0 });
    await link.next();
    emulator.powerLoss({ forMs: 10, openReceipt: 'keep' });
    expect(emulator.device.transactionOpen).toBe(true);
  });

  it('slow printer: !sdev says busy (1) while a command runs', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.setSlow(80);
    link.send('trinit', { bm: 0 });
    await sleep(10);
    link.send('!sdev');
    expect(await link.next(40)).toMatchObject({ command: 'sdev', fields: [field('sd', 1)] });
    expect(await link.next(200)).toMatchObject({ command: 'trinit' });
    link.send('!sdev');
    expect(await link.next()).toMatchObject({ fields: [field('sd', 0)] });
  });

  it('other interface busy: 41 until it lets go', async () => {
    const emulator = new PosnetEmulator();
    const link = wire(emulator);
    emulator.setOtherInterfaceBusy(true);
    link.send('trinit', { bm: 0 });
    expect(await link.next()).toMatchObject({ kind: 'commandError', code: 41 });
    link.send('scnt');
    expect(await link.next()).toMatchObject({ kind: 'ok' });
    emulator.setOtherInterfaceBusy(false);
    link.send('trinit', { bm: 0 });
    expect(await link.next()).toMatchObject({ kind: 'ok' });
  });

  it('announces printed documents', async () => {
    const emulator = new PosnetEmulator();
    const printed: string[] = [];
    emulator.onPrinted((d) => printed.push(d.kind));
    const link = wire(emulator);
    link.send('trinit', { bm: 0 });
    link.send('trline', { na: 'A', vt: 0, pr: 100 });
    link.send('trend', { to: 100 });
    link.send('cashin', { kw: 100 });
    for (let i = 0; i < 4; i++) await link.next();
    expect(printed).toEqual(['receipt', 'cashIn']);
  });
});
