import type {
  FiscalReceiptOutcome,
  NotPrintedReason,
  PendingFiscalReceipt,
  PrintingMessageKey,
} from '../../../../shared/domain/receipts';
import type {
  DeviceState,
  FiscalDiagnosis,
  FiscalOperationResult,
  FiscalPrinter,
  FiscalPrinterInfo,
  FiscalPrinterStatus,
  FiscalReceipt,
  MechanismState,
  OpenOptions,
  PrinterAttention,
  PrintReceiptOptions,
  VatTable,
} from '../fiscal-printer';
import { PosnetChannel, type ChannelResult } from './channel';
import { PosnetError, rejectionOf, RESENDABLE_FRAME_ERRORS } from './errors';
import { field, fieldValue, type PosnetField, type PosnetReply } from './frame';
import {
  planReceipt,
  type ReceiptEvidence,
  type ReceiptStep,
  type TransactionSnapshot,
} from './receipt-plan';
import { formatAmount, MAX_AMOUNT, parseAmount } from './text';
import type { Transport } from './transport';
import { parseVatTable } from './vat-table';

export interface PosnetTiming {
  /** How long a reply may take before the driver asks the printer what is going on. */
  commandTimeoutMs: number;
  /** Time-out of the `!sdev` / `!sprn` probes, which the printer answers at once even when busy. */
  probeTimeoutMs: number;
  /** Between probes while the printer is busy or waits for the cashier. */
  pollIntervalMs: number;
  /** Silence (no reply, no probe answered) after which the outcome is given up as unknown. */
  linkLostAfterMs: number;
  /** A command reported busy for longer than this is treated as a lost link. */
  busyLimitMs: number;
  /** Error 41 (another interface holds the printer): wait and try again, this many times. */
  busyRetries: number;
  busyRetryDelayMs: number;
  /** Re-sends after the printer reports a damaged frame (bad CRC): it did not run it. */
  frameRetries: number;
}

export const DEFAULT_POSNET_TIMING: PosnetTiming = {
  commandTimeoutMs: 3000,
  probeTimeoutMs: 1000,
  pollIntervalMs: 500,
  linkLostAfterMs: 15_000,
  busyLimitMs: 120_000,
  busyRetries: 5,
  busyRetryDelayMs: 1000,
  frameRetries: 3,
};

export interface PosnetPrinterOptions {
  transport: Transport;
  timing?: Partial<PosnetTiming>;
  /** Paper out, cover open, busy…: shown to the cashier; null when it is over. */
  onAttention?: (attention: PrinterAttention | null) => void;
}

/** Could not open the printer at all (no answer, or an answer that is not POSNET). */
export class FiscalPrinterUnavailableError extends Error {
  readonly messageKey: PrintingMessageKey = 'printing:cashier.printerNotResponding';
  constructor(message: string) {
    super(message);
    this.name = 'FiscalPrinterUnavailableError';
  }
}

/** The end of one command exchange, after retries and recovery of a lost reply. */
type Exchange =
  /** `recovered`: the reply was lost and came back through `rpt` (or late). */
  | { kind: 'reply'; reply: PosnetReply; token: string; recovered?: boolean }
  /** The printer is there but has no reply for the token: the command did not run (or it lost its memory). */
  | { kind: 'notFound'; token: string }
  /** Nothing answers any more. */
  | { kind: 'silent'; token: string }
  /** The caller stopped waiting while the printer held the command. */
  | { kind: 'abandoned'; token: string };

interface Probe {
  mechanism: MechanismState;
  device: DeviceState;
}

type StepDecision = 'resend' | 'done' | FiscalReceiptOutcome;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isReply(result: ChannelResult): result is PosnetReply {
  return result.kind === 'ok' || result.kind === 'commandError' || result.kind === 'frameError';
}

function mechanismOf(pr: string | undefined): MechanismState {
  if (pr === '0') return 'ok';
  if (pr === '3') return 'coverOpen';
  if (pr === '5') return 'paperOut';
  return 'error';
}

function deviceOf(sd: string | undefined): DeviceState {
  if (sd === '1') return 'busy';
  if (sd === '3') return 'waitingForUser';
  return 'ready';
}

function attentionKey(probe: Probe): PrintingMessageKey | undefined {
  if (probe.mechanism === 'paperOut') return 'printing:cashier.paperOut';
  if (probe.mechanism === 'coverOpen') return 'printing:cashier.coverOpen';
  if (probe.device === 'waitingForUser' || probe.mechanism === 'error')
    return 'printing:cashier.printerWaiting';
  return undefined;
}

function sameSnapshot(a: TransactionSnapshot, b: TransactionSnapshot): boolean {
  return (
    a.open === b.open &&
    a.lines === b.lines &&
    a.total === b.total &&
    a.payments === b.payments &&
    a.change === b.change
  );
}

/**
 * Whether the printer's last receipt is this pending one: its total, and — when the pending receipt
 * carries them (kept since evidence was added) — its totals per VAT slot, payments and change.
 */
function matchesEvidence(last: ReceiptEvidence, pending: PendingFiscalReceipt): boolean {
  if (last.slotTotals.reduce((a, t) => a + t, 0) !== pending.total) return false;
  if (pending.slotTotals && pending.slotTotals.some((t, i) => last.slotTotals[i] !== t)) return false;
  if (pending.payments !== undefined && pending.payments !== last.payments) return false;
  if (pending.change !== undefined && pending.change !== last.change) return false;
  return true;
}

function notPrinted(
  receiptId: string,
  reason: NotPrintedReason,
  messageKey: PrintingMessageKey,
  extra: { printerError?: number; params?: Record<string, string | number> } = {},
): FiscalReceiptOutcome {
  return { status: 'notPrinted', receiptId, reason, messageKey, ...extra };
}

/**
 * The POSNET driver. One command at a time (a queue serialises the public operations), a token on
 * every frame, a time-out per command. A lost reply is never answered by sending the command again
 * blindly: the driver first asks the printer (`!sdev`/`!sprn`, answered even while it is busy), then
 * `rpt @token` for the reply it kept, and only when that is gone compares the transaction (`strns`)
 * and the receipt counter (`scnt bn`) with what it expects. `trend` is never sent twice.
 */
export class PosnetFiscalPrinter implements FiscalPrinter {
  private readonly timing: PosnetTiming;
  private channel: PosnetChannel;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private vatTable: VatTable | null = null;
  /** Receipts started on this printer whose outcome is unknown: nothing new prints until each is settled. */
  private readonly unresolved = new Map<string, PendingFiscalReceipt>();
  private attention: PrinterAttention | null = null;
  private attentionListeners: ((attention: PrinterAttention | null) => void)[] = [];
  private readonly counters = { recoveries: 0, resends: 0, receiptsPrinted: 0 };

  constructor(private readonly options: PosnetPrinterOptions) {
    this.timing = { ...DEFAULT_POSNET_TIMING, ...options.timing };
    this.channel = new PosnetChannel(options.transport);
    if (options.onAttention) this.attentionListeners.push(options.onAttention);
  }

  /** Runs operations one after another: one command at a time on the wire. */
  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ------------------------------------------------------------------------------------------
  // Public operations

  async open(options: OpenOptions = {}): Promise<FiscalPrinterInfo> {
    // What the POS kept is known before anything is sent: an open receipt may be one of them.
    for (const pending of options.unresolved ?? []) this.unresolved.set(pending.receiptId, { ...pending });
    await this.options.transport.open();
    if (this.closed) {
      this.channel = new PosnetChannel(this.options.transport);
      this.closed = false;
    }
    return this.serialize(async () => {
      const vatTable = await this.readVatTableNow();
      const counters = await this.readCounters();
      if (!counters) throw new FiscalPrinterUnavailableError('no answer to scnt');
      const transaction = await this.readTransaction();
      let cancelledOpenReceipt = false;
      // A receipt left open by a crash is cancelled — unless a receipt of ours is unresolved: then it
      // may be that one, and resolvePending settles it (cancelling it there, with its outcome recorded).
      if (transaction?.open && this.unresolved.size === 0) {
        await this.exchange('prncancel', []);
        cancelledOpenReceipt = true;
      }
      return { vatTable, completedReceipts: counters.completed, cancelledOpenReceipt };
    });
  }

  async close(): Promise<void> {
    await this.serialize(async () => {
      this.channel.dispose();
      this.closed = true;
      await this.options.transport.close();
    });
  }

  async status(): Promise<FiscalPrinterStatus> {
    const probe = await this.probe();
    if (!probe) {
      return {
        online: false,
        mechanism: 'error',
        device: 'ready',
        messageKey: 'printing:cashier.printerNotResponding',
      };
    }
    const messageKey = attentionKey(probe);
    return { online: true, ...probe, ...(messageKey && { messageKey }) };
  }

  readVatTable(): Promise<VatTable> {
    return this.serialize(() => this.readVatTableNow());
  }

  printReceipt(receipt: FiscalReceipt, options: PrintReceiptOptions = {}): Promise<FiscalReceiptOutcome> {
    return this.serialize(() => this.print(receipt, options));
  }

  resolvePending(pending: PendingFiscalReceipt): Promise<FiscalReceiptOutcome> {
    return this.serialize(() => this.resolve(pending));
  }

  cancel(): Promise<FiscalOperationResult> {
    return this.serialize(() => this.operation('prncancel', []));
  }

  dailyReport(): Promise<FiscalOperationResult> {
    return this.serialize(() => this.operation('dailyrep', []));
  }

  cashIn(amount: number): Promise<FiscalOperationResult> {
    return this.serialize(() =>
      this.operation('cashin', [field('kw', formatAmount(this.checkAmount(amount)))]),
    );
  }

  cashOut(amount: number): Promise<FiscalOperationResult> {
    return this.serialize(() =>
      this.operation('cashout', [field('kw', formatAmount(this.checkAmount(amount)))]),
    );
  }

  diagnose(): Promise<FiscalDiagnosis> {
    return this.serialize(async () => {
      const status = await this.status();
      const counters = status.online ? await this.readCounters() : null;
      const transaction = status.online ? await this.readTransaction() : null;
      return {
        transport: this.options.transport.label,
        status,
        ...(counters && { counters }),
        ...(transaction && { transactionOpen: transaction.open }),
        ...(this.vatTable && { vatTable: this.vatTable }),
        link: { ...this.channel.stats, ...this.counters },
      };
    });
  }

  /** Adds a listener for paper out / cover open / busy while commands wait; returns the remover. */
  onAttention(listener: (attention: PrinterAttention | null) => void): () => void {
    this.attentionListeners.push(listener);
    return () => {
      this.attentionListeners = this.attentionListeners.filter((l) => l !== listener);
    };
  }

  // ------------------------------------------------------------------------------------------
  // Receipt

  private async print(receipt: FiscalReceipt, options: PrintReceiptOptions): Promise<FiscalReceiptOutcome> {
    const id = receipt.id;
    if (!this.vatTable) return notPrinted(id, 'notConnected', 'printing:cashier.notConnected');
    // Any unresolved receipt, this one's too: printing it afresh could print it twice (resolvePending settles it).
    const earlier = [...this.unresolved.values()][0];
    if (earlier) {
      return notPrinted(id, 'previousReceiptUnresolved', 'printing:cashier.previousReceiptUnresolved', {
        params: { receiptId: earlier.receiptId },
      });
    }
    const plan = planReceipt(receipt, this.vatTable);
    if (!plan.ok) return plan.outcome;

    const removeListener = options.onAttention ? this.onAttention(options.onAttention) : () => {};
    try {
      // scnt bn before trinit: what "printed" will mean if a reply is lost later.
      const before = await this.readCounters(options.signal);
      if (!before) return notPrinted(id, 'printerNotResponding', 'printing:cashier.printerNotResponding');
      const pending: PendingFiscalReceipt = {
        receiptId: id,
        completedBefore: before.completed,
        total: plan.totals.total,
        lastNumberBefore: before.lastReceiptNumber,
        ...plan.evidence,
      };
      options.onStarted?.({ ...pending });
      return await this.runSteps(plan.steps, pending, options.signal);
    } finally {
      this.setAttention(null);
      removeListener();
    }
  }

  private async runSteps(
    steps: ReceiptStep[],
    pending: PendingFiscalReceipt,
    signal: AbortSignal | undefined,
  ): Promise<FiscalReceiptOutcome> {
    const id = pending.receiptId;
    let resends = 0;
    let clearedStaleReceipt = false;
    let recovered = false;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const exchange = await this.exchange(step.command, step.fields, signal, (token) => {
        if (step.command === 'trend') pending.endToken = token;
      });
      if (exchange.kind === 'reply') {
        const reply = exchange.reply;
        if (exchange.recovered) recovered = true;
        if (reply.kind === 'ok') continue;
        const code = reply.code;
        if (step.command === 'trinit' && code === PosnetError.badTransactionState && !clearedStaleReceipt) {
          // A receipt left open by an earlier crash: cancel it and open ours.
          clearedStaleReceipt = true;
          await this.exchange('prncancel', [], signal);
          i -= 1;
          continue;
        }
        if (step.command !== 'trinit') await this.exchange('prncancel', [], signal);
        const { reason, messageKey } = rejectionOf(code);
        return notPrinted(id, reason, messageKey, { printerError: code, params: { code } });
      }
      if (exchange.kind === 'notFound') {
        recovered = true;
        const decision = await this.settleStep(step, pending, signal);
        if (decision === 'done') continue;
        if (decision === 'resend' && resends < 2) {
          resends += 1;
          this.counters.resends += 1;
          i -= 1;
          continue;
        }
        if (decision === 'resend') return this.cancelAfterFault(id, signal);
        if (decision.status === 'needsAttention') this.unresolved.set(id, decision.pending);
        return decision;
      }
      return this.giveUp(pending, exchange.kind);
    }
    // trend went through: the receipt is printed. Its number comes from the counters.
    this.counters.receiptsPrinted += 1;
    const after = await this.readCounters(signal);
    return {
      status: 'printed',
      receiptId: id,
      receiptNumber: after?.lastReceiptNumber ?? pending.completedBefore + 1,
      total: pending.total,
      recovered,
    };
  }

  /**
   * A command's reply is gone and the printer has no copy of it: find out from the transaction
   * state whether it ran. Only a command whose absence is proven is sent again.
   */
  private async settleStep(
    step: ReceiptStep,
    pending: PendingFiscalReceipt,
    signal: AbortSignal | undefined,
  ): Promise<StepDecision> {
    this.counters.recoveries += 1;
    const id = pending.receiptId;
    const state = await this.readTransaction(signal);
    if (!state) return this.needsAttention(pending, 'printerNotResponding');
    if (step.command === 'trend') {
      if (state.open) return this.cancelAfterFault(id, signal);
      return this.byEvidence(pending, signal);
    }
    if (step.repeatable && state.open) return 'resend';
    if (!state.open) {
      return step.command === 'trinit'
        ? 'resend'
        : notPrinted(id, 'cancelledByPrinter', 'printing:cashier.receiptCancelled');
    }
    if (sameSnapshot(state, step.after)) return 'done';
    if (step.command !== 'trinit' && sameSnapshot(state, step.before)) return 'resend';
    return this.cancelAfterFault(id, signal);
  }

  /**
   * No receipt is open: was this one printed? Only evidence that belongs to it counts — not merely
   * that the count of completed receipts went up (another sale may have raised it):
   * - no receipt completed since it began → not printed;
   * - exactly one → it is ours only if the printer's last document is a receipt with our totals per
   *   VAT slot, payments and change (strns); another receipt's totals → ours was not printed;
   * - more than one, or the printer no longer knows its last document (a cancel, a power loss reset
   *   it) → it cannot be told: needsAttention (`receiptNotIdentified`), the POS keeps new sales back.
   */
  private async byEvidence(
    pending: PendingFiscalReceipt,
    signal?: AbortSignal,
  ): Promise<FiscalReceiptOutcome> {
    const counters = await this.readCounters(signal);
    if (!counters) return this.needsAttention(pending, 'printerNotResponding');
    if (counters.completed <= pending.completedBefore)
      return notPrinted(pending.receiptId, 'cancelledByPrinter', 'printing:cashier.receiptCancelled');
    if (counters.completed > pending.completedBefore + 1)
      return this.needsAttention(pending, 'receiptNotIdentified');
    const last = await this.readLastReceipt(signal);
    if (!last) return this.needsAttention(pending, 'receiptNotIdentified');
    if (!matchesEvidence(last, pending)) {
      // The one receipt completed since ours began is another one: ours never completed.
      return notPrinted(pending.receiptId, 'cancelledByPrinter', 'printing:cashier.receiptCancelled');
    }
    this.counters.receiptsPrinted += 1;
    return {
      status: 'printed',
      receiptId: pending.receiptId,
      receiptNumber: counters.lastReceiptNumber,
      total: pending.total,
      recovered: true,
    };
  }

  private async cancelAfterFault(receiptId: string, signal?: AbortSignal): Promise<FiscalReceiptOutcome> {
    await this.exchange('prncancel', [], signal);
    return notPrinted(receiptId, 'cancelledAfterFault', 'printing:cashier.receiptCancelled');
  }

  private giveUp(pending: PendingFiscalReceipt, kind: 'silent' | 'abandoned'): FiscalReceiptOutcome {
    const outcome = this.needsAttention(
      pending,
      kind === 'silent' ? 'printerNotResponding' : 'abandonedWhileWaiting',
    );
    this.unresolved.set(pending.receiptId, outcome.pending);
    return outcome;
  }

  private needsAttention(
    pending: PendingFiscalReceipt,
    reason: 'printerNotResponding' | 'abandonedWhileWaiting' | 'receiptNotIdentified',
  ): Extract<FiscalReceiptOutcome, { status: 'needsAttention' }> {
    return {
      status: 'needsAttention',
      receiptId: pending.receiptId,
      reason,
      messageKey:
        reason === 'receiptNotIdentified'
          ? 'printing:cashier.receiptNotIdentified'
          : 'printing:cashier.outcomeUnknown',
      pending: { ...pending },
    };
  }

  settledByCashier(receiptId: string): void {
    this.unresolved.delete(receiptId);
  }

  private async resolve(pending: PendingFiscalReceipt): Promise<FiscalReceiptOutcome> {
    const outcome = await this.resolveNow(pending);
    if (outcome.status === 'needsAttention') this.unresolved.set(pending.receiptId, outcome.pending);
    else this.unresolved.delete(pending.receiptId);
    return outcome;
  }

  /**
   * Settles a receipt whose outcome is unknown, now or after a restart. A kept `trend` token is no
   * evidence (a restarted driver numbers its tokens again, so `rpt` may answer another receipt's
   * trend); the printer's state is. An open receipt is this one's (no other receipt starts while it
   * is unresolved): its trend never ran — cancelled. Otherwise byEvidence.
   */
  private async resolveNow(pending: PendingFiscalReceipt): Promise<FiscalReceiptOutcome> {
    this.counters.recoveries += 1;
    const state = await this.readTransaction();
    if (!state) return this.needsAttention(pending, 'printerNotResponding');
    if (state.open) return this.cancelAfterFault(pending.receiptId);
    return this.byEvidence(pending);
  }

  // ------------------------------------------------------------------------------------------
  // Other operations

  private checkAmount(amount: number): number {
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT) {
      throw new RangeError(`amount must be whole grosze 1..${MAX_AMOUNT}, got ${amount}`);
    }
    return amount;
  }

  private async operation(command: string, fields: PosnetField[]): Promise<FiscalOperationResult> {
    try {
      const exchange = await this.exchange(command, fields);
      if (exchange.kind !== 'reply') return { ok: false, messageKey: 'printing:cashier.outcomeUnknown' };
      const reply = exchange.reply;
      if (reply.kind === 'ok') return { ok: true };
      const code = reply.code;
      if (code === PosnetError.cashBelowZero) {
        return { ok: false, messageKey: 'printing:cashier.cashOutExceedsDrawer', printerError: code };
      }
      return { ok: false, messageKey: rejectionOf(code).messageKey, printerError: code };
    } finally {
      this.setAttention(null);
    }
  }

  private async readVatTableNow(): Promise<VatTable> {
    const exchange = await this.exchange('vatget', []);
    if (exchange.kind !== 'reply' || exchange.reply.kind !== 'ok') {
      throw new FiscalPrinterUnavailableError('the printer did not answer vatget');
    }
    const table = parseVatTable(exchange.reply.fields);
    if (!table) throw new FiscalPrinterUnavailableError('vatget reply is not a VAT table');
    this.vatTable = table;
    return table;
  }

  private async readCounters(
    signal?: AbortSignal,
  ): Promise<{ completed: number; cancelled: number; lastReceiptNumber: number } | null> {
    const exchange = await this.exchange('scnt', [], signal);
    if (exchange.kind !== 'reply' || exchange.reply.kind !== 'ok') return null;
    const reply = exchange.reply;
    const completed = Number(fieldValue(reply, 'bn'));
    if (!Number.isSafeInteger(completed)) return null;
    const cancelled = Number(fieldValue(reply, 'bc') ?? 0);
    const last = Number(fieldValue(reply, 'nr') ?? completed);
    return { completed, cancelled, lastReceiptNumber: last };
  }

  /** The last document's totalizers while no receipt is open (strns `dt` 16); null when unknown or open. */
  private async readLastReceipt(signal?: AbortSignal): Promise<ReceiptEvidence | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const exchange = await this.exchange('strns', [], signal);
      if (exchange.kind === 'notFound') continue;
      if (exchange.kind !== 'reply' || exchange.reply.kind !== 'ok') return null;
      const reply = exchange.reply;
      if (fieldValue(reply, 'ts') === '1' || fieldValue(reply, 'dt') !== '16') return null;
      const amount = (name: string) => parseAmount(fieldValue(reply, name) ?? '0');
      const slotTotals = ['sa', 'sb', 'sc', 'sd', 'se', 'sf', 'sg'].map(amount);
      const payments = amount('fp');
      const change = amount('re');
      if (payments === null || change === null || slotTotals.some((t) => t === null)) return null;
      return { slotTotals: slotTotals as number[], payments, change };
    }
    return null;
  }

  private async readTransaction(signal?: AbortSignal): Promise<TransactionSnapshot | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const exchange = await this.exchange('strns', [], signal);
      if (exchange.kind === 'notFound') continue; // read-only: asking again is harmless
      if (exchange.kind !== 'reply' || exchange.reply.kind !== 'ok') return null;
      const reply = exchange.reply;
      const amount = (name: string) => parseAmount(fieldValue(reply, name) ?? '0') ?? 0;
      return {
        open: fieldValue(reply, 'ts') === '1',
        lines: Number(fieldValue(reply, 'ln') ?? 0),
        total: amount('to'),
        payments: amount('fp'),
        change: amount('re'),
      };
    }
    return null;
  }

  // ------------------------------------------------------------------------------------------
  // One command, with its retries and the recovery of a lost reply

  private async exchange(
    command: string,
    fields: PosnetField[],
    signal?: AbortSignal,
    onToken?: (token: string) => void,
  ): Promise<Exchange> {
    let frameRetries = 0;
    let busyRetries = 0;
    for (;;) {
      const token = this.channel.nextToken();
      onToken?.(token);
      let result: ChannelResult = await this.channel.request(command, fields, {
        token,
        timeoutMs: this.timing.commandTimeoutMs,
      });
      // A damaged-frame error for trend is not taken at its word: an error without a token might
      // belong to another frame, and trend is never sent twice on a guess. It is settled like a lost reply.
      if (command === 'trend' && result.kind === 'frameError' && RESENDABLE_FRAME_ERRORS.has(result.code)) {
        result = { kind: 'timeout' };
      }
      let recovered = false;
      if (!isReply(result)) {
        const settled = await this.recoverReply(command, token, signal);
        if (settled.kind !== 'reply') return settled;
        result = settled.reply;
        recovered = true;
      }
      if (result.kind === 'frameError' && RESENDABLE_FRAME_ERRORS.has(result.code)) {
        if (frameRetries++ < this.timing.frameRetries) {
          this.counters.resends += 1;
          continue;
        }
      }
      if (result.kind === 'commandError' && result.code === PosnetError.busyOtherInterface) {
        if (busyRetries++ < this.timing.busyRetries) {
          this.setAttention({ messageKey: 'printing:cashier.printerBusy', mechanism: 'ok', device: 'busy' });
          await sleep(this.timing.busyRetryDelayMs);
          continue;
        }
      }
      this.setAttention(null);
      return { kind: 'reply', reply: result, token, recovered };
    }
  }

  /**
   * The reply did not come (or came damaged). Ask the printer how it is: busy → wait; waiting for
   * the cashier (paper, cover) → tell the cashier and wait; idle → `rpt @token`; silent → keep
   * asking until `linkLostAfterMs`.
   */
  private async recoverReply(
    command: string,
    token: string,
    signal: AbortSignal | undefined,
  ): Promise<Exchange> {
    let lastContact = Date.now();
    let busySince: number | null = null;
    for (;;) {
      if (signal?.aborted) return { kind: 'abandoned', token };
      const late = this.channel.takeLate(token);
      if (late) return { kind: 'reply', reply: late, token };

      const probe = await this.probe();
      if (!probe) {
        if (Date.now() - lastContact > this.timing.linkLostAfterMs) return { kind: 'silent', token };
        const reply = await this.waitOrAbort(token, command, signal);
        if (reply) return { kind: 'reply', reply, token };
        continue;
      }
      lastContact = Date.now();
      if (probe.device === 'busy') {
        busySince ??= Date.now();
        if (Date.now() - busySince > this.timing.busyLimitMs) return { kind: 'silent', token };
        const reply = await this.waitOrAbort(token, command, signal);
        if (reply) return { kind: 'reply', reply, token };
        continue;
      }
      busySince = null;
      const key = attentionKey(probe);
      if (key) {
        this.setAttention({ messageKey: key, ...probe });
        const reply = await this.waitOrAbort(token, command, signal);
        if (reply) return { kind: 'reply', reply, token };
        continue;
      }
      this.setAttention(null);
      // The reply may have come in while the probe was out.
      const arrived = this.channel.takeLate(token);
      if (arrived) return { kind: 'reply', reply: arrived, token };
      // Idle, and our reply is not here: the printer keeps the last 32 replies.
      const replay = await this.channel.request('rpt', [], {
        token,
        timeoutMs: this.timing.commandTimeoutMs,
        acceptLate: true,
      });
      if (replay.kind === 'frameError' && replay.code === PosnetError.tokenNotFound)
        return { kind: 'notFound', token };
      if (replay.kind === 'commandError' && replay.command === 'rpt') return { kind: 'notFound', token };
      if ((replay.kind === 'ok' || replay.kind === 'commandError') && replay.command !== 'rpt') {
        return { kind: 'reply', reply: replay, token };
      }
      // Damaged, silent or unexpected: go round again (the probe tells whether the link is there).
    }
  }

  private async waitOrAbort(
    token: string,
    command: string,
    signal: AbortSignal | undefined,
  ): Promise<PosnetReply | null> {
    if (signal?.aborted) return null;
    const result = await this.channel.waitFor(token, this.timing.pollIntervalMs, command);
    return isReply(result) ? result : null;
  }

  /** `!sdev` and `!sprn`: answered immediately, even while a command is being executed or held. */
  private async probe(): Promise<Probe | null> {
    const ask = (command: string) =>
      this.channel.request(command, [], {
        token: this.channel.nextToken(),
        timeoutMs: this.timing.probeTimeoutMs,
      });
    const [device, printer] = await Promise.all([ask('!sdev'), ask('!sprn')]);
    if (device.kind !== 'ok' || printer.kind !== 'ok') return null;
    return { device: deviceOf(fieldValue(device, 'sd')), mechanism: mechanismOf(fieldValue(printer, 'pr')) };
  }

  private setAttention(attention: PrinterAttention | null): void {
    const same =
      attention?.messageKey === this.attention?.messageKey &&
      attention?.mechanism === this.attention?.mechanism &&
      attention?.device === this.attention?.device;
    if (same) return;
    this.attention = attention;
    for (const listener of [...this.attentionListeners]) listener(attention);
  }
}
