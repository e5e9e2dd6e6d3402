import { encodeFrame, FrameReader, type RawFrame } from '../posnet/frame';
import type { ByteEndpoint } from '../posnet/transport';
import { PosnetDevice, type DeviceOptions, type PrintedDocument } from './device';

/** Which command a fault waits for: a name ("trend", "!sdev") and which occurrence from now (1st by default). */
export type CommandMatch = string | { command: string; nth?: number };

type ReplyFaultKind = 'drop' | 'corrupt' | 'cut' | 'powerLoss' | 'paperOut';
type CommandFaultKind = 'corrupt' | 'cut';

interface Armed<K> {
  kind: K;
  command: string | null;
  remaining: number;
  forMs: number;
  openReceipt: 'cancel' | 'keep';
}

function armed<K>(kind: K, match: CommandMatch | undefined, extra: Partial<Armed<K>> = {}): Armed<K> {
  const command = match === undefined ? null : typeof match === 'string' ? match : match.command;
  const nth = typeof match === 'object' ? (match.nth ?? 1) : 1;
  return { kind, command, remaining: nth, forMs: 0, openReceipt: 'cancel', ...extra };
}

/** Takes the first armed fault matching `command`, counting down its occurrences. */
function take<K>(faults: Armed<K>[], command: string): Armed<K> | undefined {
  for (const fault of faults) {
    const matches =
      fault.command === null ? command !== '' && !command.startsWith('!') : fault.command === command;
    if (!matches) continue;
    fault.remaining -= 1;
    if (fault.remaining > 0) continue;
    faults.splice(faults.indexOf(fault), 1);
    return fault;
  }
  return undefined;
}

/** Flips one byte of a frame's body, never STX/ETX/'#', so the frame still arrives but fails its CRC. */
function corrupt(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  const at = from + Math.floor((to - from) / 2);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The POSNET emulator: the pure device plus everything a wire adds — byte framing, a command queue,
 * time (a slow printer), and the faults tests inject. A pulled cable is simulated here, by the link
 * going deaf and mute for a while, never by killing the process at the other end of a pty.
 */
export class PosnetEmulator {
  readonly device: PosnetDevice;
  private readonly links = new Set<EmulatorLink>();
  private replyFaults: Armed<ReplyFaultKind>[] = [];
  private commandFaults: Armed<CommandFaultKind>[] = [];
  private downUntil = 0;
  private mechanismWaiters: (() => void)[] = [];
  private readonly printedListeners = new Set<(document: PrintedDocument) => void>();
  private printedSeen = 0;
  slowMs = 0;
  slowOnly: string | null = null;

  constructor(options: DeviceOptions = {}) {
    this.device = new PosnetDevice(options);
  }

  /** Connects a byte stream (the device end of an in-process pair, a serial port, a socket). */
  attach(endpoint: ByteEndpoint): () => void {
    const link = new EmulatorLink(this, endpoint);
    this.links.add(link);
    return () => {
      link.detach();
      this.links.delete(link);
    };
  }

  get roll(): readonly PrintedDocument[] {
    return this.device.roll;
  }

  receipts() {
    return this.device.roll.filter((d) => d.kind === 'receipt');
  }

  onPrinted(listener: (document: PrintedDocument) => void): () => void {
    this.printedListeners.add(listener);
    return () => this.printedListeners.delete(listener);
  }

  /** @internal called by links after each command. */
  announcePrinted(): void {
    while (this.printedSeen < this.device.roll.length) {
      const document = this.device.roll[this.printedSeen++]!;
      for (const listener of [...this.printedListeners]) listener(document);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Faults and the cashier's side of the printer

  paperOut(): void {
    this.device.paper = 'out';
  }

  /** The roll runs out right after the next matching command (its reply still leaves). */
  runOutOfPaper(options: { after: CommandMatch }): void {
    this.replyFaults.push(armed<ReplyFaultKind>('paperOut', options.after));
  }

  loadPaper(): void {
    this.device.paper = 'ok';
    this.mechanismChanged();
  }

  openCover(): void {
    this.device.cover = 'open';
  }

  closeCover(): void {
    this.device.cover = 'closed';
    this.mechanismChanged();
  }

  /** Every command (or only `only`) takes this long (0: instant). `!sdev` says busy meanwhile. */
  setSlow(ms: number, only?: string): void {
    this.slowMs = ms;
    this.slowOnly = only ?? null;
  }

  /** Another interface (the keyboard, another program) holds the printer: commands get error 41. */
  setOtherInterfaceBusy(busy: boolean): void {
    this.device.otherInterfaceBusy = busy;
  }

  /** A new day started without the daily report: trinit answers 383. */
  requireDailyReport(): void {
    this.device.dailyReportRequired = true;
  }

  /** The next matching command arrives with one byte damaged (the printer answers ERR ?5). */
  corruptNextCommand(match?: CommandMatch): void {
    this.commandFaults.push(armed<CommandFaultKind>('corrupt', match));
  }

  /** The reply to the next matching command leaves with one byte damaged (the command did run). */
  corruptNextReply(match?: CommandMatch): void {
    this.replyFaults.push(armed<ReplyFaultKind>('corrupt', match));
  }

  /** The next matching command runs, but its reply never leaves (it is kept for `rpt`). */
  dropNextReply(match?: CommandMatch): void {
    this.replyFaults.push(armed<ReplyFaultKind>('drop', match));
  }

  /**
   * The connection is lost for `forMs`: now, in the middle of the next matching command (it never
   * runs), or in the middle of its reply (it ran; half a frame reaches the other end).
   */
  disconnect(options: { forMs: number; during?: 'now' | 'command' | 'reply'; match?: CommandMatch }): void {
    const during = options.during ?? 'now';
    if (during === 'now') this.goDown(options.forMs);
    else if (during === 'command')
      this.commandFaults.push(armed<CommandFaultKind>('cut', options.match, options));
    else this.replyFaults.push(armed<ReplyFaultKind>('cut', options.match, options));
  }

  /**
   * Power goes off for `forMs` — now, or right after the next matching command ran (before its reply
   * left). The kept replies are lost; an open receipt is cancelled at power-up, or kept.
   */
  powerLoss(options: { forMs: number; openReceipt?: 'cancel' | 'keep'; after?: CommandMatch }): void {
    const openReceipt = options.openReceipt ?? 'cancel';
    if (options.after === undefined) this.cutPower(options.forMs, openReceipt);
    else
      this.replyFaults.push(
        armed<ReplyFaultKind>('powerLoss', options.after, { forMs: options.forMs, openReceipt }),
      );
  }

  /** @internal */
  cutPower(forMs: number, openReceipt: 'cancel' | 'keep'): void {
    this.device.powerCycle(openReceipt);
    for (const link of this.links) link.dropQueue();
    this.goDown(forMs);
    this.announcePrinted();
  }

  /** @internal */
  goDown(forMs: number): void {
    this.downUntil = Math.max(this.downUntil, Date.now() + forMs);
    for (const link of this.links) link.resetReader();
  }

  /** @internal */
  isDown(): boolean {
    return Date.now() < this.downUntil;
  }

  /** @internal */
  takeCommandFault(command: string) {
    return take(this.commandFaults, command);
  }

  /** @internal */
  takeReplyFault(command: string) {
    return take(this.replyFaults, command);
  }

  /** @internal resolves when the paper or the cover changes. */
  mechanismChange(): Promise<void> {
    return new Promise((resolve) => this.mechanismWaiters.push(resolve));
  }

  private mechanismChanged(): void {
    const waiters = this.mechanismWaiters;
    this.mechanismWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** One connection: frames off the bytes, `!` commands at once, the others one by one in order. */
class EmulatorLink {
  private readonly reader = new FrameReader();
  private readonly queue: RawFrame[] = [];
  private running = false;
  private readonly unsubscribe: () => void;
  private detached = false;

  constructor(
    private readonly emulator: PosnetEmulator,
    private readonly endpoint: ByteEndpoint,
  ) {
    this.unsubscribe = endpoint.onData((chunk) => this.onBytes(chunk));
  }

  detach(): void {
    this.detached = true;
    this.unsubscribe();
    this.queue.length = 0;
  }

  resetReader(): void {
    this.reader.reset();
  }

  dropQueue(): void {
    this.queue.length = 0;
  }

  private onBytes(chunk: Uint8Array): void {
    if (this.emulator.isDown()) {
      this.reader.reset();
      return;
    }
    for (let raw of this.reader.push(chunk)) {
      const command = PosnetDevice.commandOf(raw);
      const fault = this.emulator.takeCommandFault(command);
      if (fault?.kind === 'cut') {
        // Half the frame came in, then the line went dead: the device never sees a whole frame.
        this.emulator.goDown(fault.forMs);
        return;
      }
      if (fault?.kind === 'corrupt')
        raw = { body: Buffer.from(corrupt(raw.body, 0, raw.body.length)), crcOk: false };
      if (command.startsWith('!')) {
        this.reply(raw, command);
      } else {
        this.queue.push(raw);
        void this.pump();
      }
    }
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const device = this.emulator.device;
    try {
      while (this.queue.length > 0 && !this.detached) {
        const raw = this.queue.shift()!;
        const command = PosnetDevice.commandOf(raw);
        device.activity = 'busy';
        const slow = this.emulator.slowOnly === null || this.emulator.slowOnly === command;
        if (this.emulator.slowMs > 0 && slow) await sleep(this.emulator.slowMs);
        while (device.blockedBy(command)) {
          device.activity = 'waitingForUser';
          await this.emulator.mechanismChange();
          device.activity = 'busy';
        }
        this.reply(raw, command);
      }
    } finally {
      device.activity = 'idle';
      this.running = false;
    }
  }

  private reply(raw: RawFrame, command: string): void {
    const reply = this.emulator.device.receive(raw);
    this.emulator.announcePrinted();
    if (!reply) return;
    const fault = this.emulator.takeReplyFault(command);
    let bytes: Uint8Array = encodeFrame(reply);
    if (fault?.kind === 'drop') return;
    if (fault?.kind === 'paperOut') this.emulator.paperOut();
    if (fault?.kind === 'powerLoss') {
      this.emulator.cutPower(fault.forMs, fault.openReceipt);
      return;
    }
    if (fault?.kind === 'corrupt') bytes = corrupt(bytes, 1, bytes.lastIndexOf(0x23));
    if (fault?.kind === 'cut') {
      this.write(bytes.subarray(0, Math.max(2, Math.floor(bytes.length / 2))));
      this.emulator.goDown(fault.forMs);
      return;
    }
    this.write(bytes);
  }

  private write(bytes: Uint8Array): void {
    if (this.detached || this.emulator.isDown()) return;
    void Promise.resolve(this.endpoint.write(bytes)).catch(() => {});
  }
}
