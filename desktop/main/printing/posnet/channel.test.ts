import { describe, expect, it } from 'vitest';
import { PosnetChannel } from './channel';
import { encodeFrame, field, FrameReader, parseBody } from './frame';
import { createInProcessPair } from './transport';

/** A channel on one end of a pipe, and a scripted "printer" on the other. */
function setup() {
  const pair = createInProcessPair();
  const channel = new PosnetChannel(pair.app);
  const reader = new FrameReader();
  const received: string[] = [];
  pair.device.onData((chunk) =>
    received.push(...reader.push(chunk).map((raw) => parseBody(raw.body).command)),
  );
  const reply = (frame: Parameters<typeof encodeFrame>[0]) => pair.device.write(encodeFrame(frame));
  return { channel, reply, received };
}

describe('PosnetChannel', () => {
  it('numbers tokens 0001…9999 and round again', () => {
    const { channel } = setup();
    expect(channel.nextToken()).toBe('0001');
    for (let i = 0; i < 9997; i++) channel.nextToken();
    expect(channel.nextToken()).toBe('9999');
    expect(channel.nextToken()).toBe('0001');
  });

  it('matches replies by token, whatever order they come in', async () => {
    const { channel, reply } = setup();
    const a = channel.request('scnt', [], { token: '0001', timeoutMs: 500 });
    const b = channel.request('!sprn', [], { token: '0002', timeoutMs: 500 });
    await reply({ command: 'sprn', fields: [field('pr', 0)], token: '0002' });
    await reply({ command: 'scnt', fields: [field('bn', 7)], token: '0001' });
    expect(await a).toMatchObject({ kind: 'ok', command: 'scnt', fields: [field('bn', 7)] });
    expect(await b).toMatchObject({ kind: 'ok', command: 'sprn' });
  });

  it('matches a reply without a token by command name when only one request fits', async () => {
    const { channel, reply } = setup();
    const a = channel.request('scnt', [], { token: '0001', timeoutMs: 500 });
    await reply({ command: 'scnt', fields: [field('bn', 1)] });
    expect(await a).toMatchObject({ kind: 'ok' });
  });

  it('keeps a reply that came after its request gave up, for recovery only', async () => {
    const { channel, reply } = setup();
    expect(await channel.request('trend', [], { token: '0005', timeoutMs: 20 })).toEqual({ kind: 'timeout' });
    await reply({ command: 'trend', fields: [], token: '0005' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(channel.stats.lateReplies).toBe(1);
    expect(await channel.waitFor('0005', 10)).toMatchObject({ kind: 'ok', command: 'trend' });
    // A fresh request that reuses the token does not pick an old reply up.
    await reply({ command: 'trend', fields: [], token: '0006' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await channel.request('scnt', [], { token: '0006', timeoutMs: 20 })).toEqual({ kind: 'timeout' });
  });

  it('never gives a token-less frame error to a recovery wait', async () => {
    const { channel, reply } = setup();
    const waiting = channel.waitFor('0009', 50, 'trend');
    await reply({ command: 'ERR', fields: [], errorCode: 5 });
    expect(await waiting).toEqual({ kind: 'timeout' });
  });

  it('reports a damaged reply to the one request waiting', async () => {
    const { channel } = setup();
    const pair = createInProcessPair();
    const lone = new PosnetChannel(pair.app);
    const pending = lone.request('scnt', [], { token: '0001', timeoutMs: 500 });
    const bytes = encodeFrame({ command: 'scnt', fields: [field('bn', 1)], token: '0001' });
    bytes[5] = bytes[5]! ^ 1;
    await pair.device.write(bytes);
    expect(await pending).toEqual({ kind: 'corrupt' });
    expect(lone.stats.corruptFrames).toBe(1);
    channel.dispose();
  });
});
