import {
  classifyReply,
  encodeFrame,
  FrameReader,
  parseBody,
  type PosnetField,
  type PosnetReply,
} from './frame';
import type { Transport } from './transport';

export type ChannelResult = PosnetReply | { kind: 'timeout' } | { kind: 'corrupt' };

interface Waiter {
  command: string;
  /** Registered by request(): its frame is on the wire now (not a recovery wait for an old token). */
  inFlight: boolean;
  resolve: (result: ChannelResult) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface ChannelStats {
  framesSent: number;
  framesReceived: number;
  bytesSent: number;
  bytesReceived: number;
  corruptFrames: number;
  timeouts: number;
  lateReplies: number;
}

const LATE_REPLIES_KEPT = 64;

/**
 * Frames over a Transport, matched to requests by token. It does not decide anything: the driver
 * decides what a timeout or a corrupt reply means. A reply that comes after its request gave up is
 * kept (by token) because it may still settle that request during recovery.
 */
export class PosnetChannel {
  private readonly reader = new FrameReader();
  private readonly waiters = new Map<string, Waiter>();
  private readonly late = new Map<string, PosnetReply>();
  private lastToken = 0;
  private readonly unsubscribe: () => void;
  readonly stats: ChannelStats = {
    framesSent: 0,
    framesReceived: 0,
    bytesSent: 0,
    bytesReceived: 0,
    corruptFrames: 0,
    timeouts: 0,
    lateReplies: 0,
  };

  constructor(private readonly transport: Transport) {
    this.unsubscribe = transport.onData((chunk) => this.receive(chunk));
  }

  dispose(): void {
    this.unsubscribe();
    for (const [token, waiter] of this.waiters) this.settle(token, waiter, { kind: 'timeout' });
  }

  /** Four decimal digits, 0001…9999 and round again, never one still waiting for its reply. */
  nextToken(): string {
    do this.lastToken = (this.lastToken % 9999) + 1;
    while (this.waiters.has(this.token(this.lastToken)));
    return this.token(this.lastToken);
  }

  private token(n: number): string {
    return String(n).padStart(4, '0');
  }

  /** Sends one frame and waits for the reply carrying its token, or `timeoutMs`. */
  async request(
    command: string,
    fields: PosnetField[],
    options: { token: string; timeoutMs: number; acceptLate?: boolean },
  ): Promise<ChannelResult> {
    const bytes = encodeFrame({ command, fields, token: options.token });
    // A fresh use of a token must not pick up a reply left over from its previous round.
    if (!options.acceptLate) this.late.delete(options.token);
    const result = this.waitFor(options.token, options.timeoutMs, command, true);
    try {
      await this.transport.write(bytes);
      this.stats.framesSent += 1;
      this.stats.bytesSent += bytes.length;
    } catch {
      // A write that fails is a link that is down: the same as silence for the caller.
    }
    return result;
  }

  /** A reply that arrived for this token after its request had given up, if any. */
  takeLate(token: string): PosnetReply | undefined {
    const late = this.late.get(token);
    this.late.delete(token);
    return late;
  }

  /** Waits for a reply with this token (a late one included) for up to `timeoutMs`. */
  waitFor(token: string, timeoutMs: number, command = '', inFlight = false): Promise<ChannelResult> {
    const late = this.late.get(token);
    if (late) {
      this.late.delete(token);
      return Promise.resolve(late);
    }
    const previous = this.waiters.get(token);
    if (previous) this.settle(token, previous, { kind: 'timeout' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(token);
        this.stats.timeouts += 1;
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      this.waiters.set(token, { command, inFlight, resolve, timer });
    });
  }

  private settle(token: string, waiter: Waiter, result: ChannelResult): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(token);
    waiter.resolve(result);
  }

  private receive(chunk: Uint8Array): void {
    this.stats.bytesReceived += chunk.length;
    for (const raw of this.reader.push(chunk)) {
      this.stats.framesReceived += 1;
      if (!raw.crcOk) {
        this.stats.corruptFrames += 1;
        // Its token cannot be trusted; it is somebody's reply only when one request is waiting.
        const only = this.onlyWaiter();
        if (only) this.settle(only[0], only[1], { kind: 'corrupt' });
        continue;
      }
      const reply = classifyReply(parseBody(raw.body));
      this.dispatch(reply);
    }
  }

  private dispatch(reply: PosnetReply): void {
    if (reply.token !== undefined) {
      const token = reply.token.padStart(4, '0');
      const waiter = this.waiters.get(token);
      if (waiter) return this.settle(token, waiter, reply);
      this.stats.lateReplies += 1;
      this.late.set(token, reply);
      if (this.late.size > LATE_REPLIES_KEPT) this.late.delete(this.late.keys().next().value as string);
      return;
    }
    // No token (a printer may leave it out, a frame error always may): match by command name, and
    // only a request whose frame is on the wire now — never a recovery wait for an older token.
    const candidates = [...this.waiters].filter(
      ([, w]) => w.inFlight && (reply.kind === 'frameError' || w.command.replace(/^!/, '') === reply.command),
    );
    if (candidates.length === 1) {
      const [token, waiter] = candidates[0]!;
      this.settle(token, waiter, reply);
    }
  }

  private onlyWaiter(): [string, Waiter] | undefined {
    return this.waiters.size === 1 ? [...this.waiters][0] : undefined;
  }
}
