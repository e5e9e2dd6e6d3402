import { PosnetError } from '../posnet/errors';
import {
  field,
  fieldValue,
  parseBody,
  type PosnetField,
  type PosnetFrame,
  type RawFrame,
} from '../posnet/frame';
import {
  formatVatPercent,
  MAX_NAME_LENGTH,
  parseAmount,
  parseDecimal,
  stripFormatting,
  VAT_SLOT_LETTERS,
  type VatSlotValue,
} from '../posnet/text';

/**
 * The POSNET fiscal printer as a pure state machine: a frame in, a reply out, no I/O and no timers
 * (the link around it adds those, and the faults). It keeps what the rules need — VAT slots A–G, the
 * header, receipt counters, the daily-report flag, the last 32 replies for `rpt`, paper and cover,
 * the open receipt — and a paper roll of every document it printed.
 *
 * It computes totals its own way (per slot, exact integers) on purpose: tests compare it with the
 * shared receipt-totals function, so it must not simply call it.
 */

export interface DeviceOptions {
  /** Seven slots in basis points, 'exempt' or 'inactive'. Default A 23, B 8, C 5, D 0, E exempt. */
  vat?: VatSlotValue[];
  header?: string;
  /** Start as if yesterday's daily report was not made (trinit answers 383). */
  dailyReportRequired?: boolean;
  /** Receipts completed before this session (the counter never goes back). */
  completedReceipts?: number;
  now?: () => Date;
}

export const DEFAULT_VAT_SLOTS: VatSlotValue[] = [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'];
export const DEFAULT_HEADER =
  '&c&bStudio Ruchu Harmonia&b\nul. Przykładowa 1\n00-001 Warszawa\nNIP 000-000-00-00';
export const REPLIES_KEPT = 32;
export const MAX_LINES = 500;

export interface PrintedLine {
  name: string;
  slot: string;
  quantity: string;
  unitPrice: number;
  gross: number;
  discount: number;
  total: number;
}

export interface PrintedSlot {
  slot: string;
  rate: VatSlotValue;
  gross: number;
  discount: number;
  total: number;
  vat: number;
}

export interface PrintedPayment {
  type: number;
  amount: number;
}

export type PrintedDocument =
  | {
      kind: 'receipt';
      number: number;
      printedAt: string;
      header: string[];
      lines: PrintedLine[];
      discount: number;
      slots: PrintedSlot[];
      total: number;
      vat: number;
      payments: PrintedPayment[];
      change: number;
      /** The buyer's NIP (`trnipset`), printed with the footer ("NIP NABYWCY"). */
      buyerNip?: string;
    }
  | {
      kind: 'cancelledReceipt';
      printedAt: string;
      lines: PrintedLine[];
      total: number;
      cause: 'command' | 'powerLoss';
    }
  | {
      kind: 'dailyReport';
      number: number;
      printedAt: string;
      slots: PrintedSlot[];
      receipts: number;
      cancelled: number;
    }
  | { kind: 'cashIn' | 'cashOut'; printedAt: string; amount: number; drawer: number };

interface OpenLine extends PrintedLine {
  slotIndex: number;
}

interface OpenReceipt {
  lines: OpenLine[];
  discount: number;
  payments: PrintedPayment[];
  changes: number[];
  buyerNip?: string;
}

/**
 * What `strns` reports while no transaction is open: the totalizers of the document printed last
 * (POT-I-DEV-37: "rodzaj dokumentu, który został wydrukowany jako ostatni (jeśli to=0)" and the
 * slot totalizers, zeroed when a transaction starts or RAM is reset). A receipt's own totals read
 * back from the printer: the driver's evidence that a receipt it lost track of is the one printed.
 */
interface LastDocument {
  slotTotals: number[];
  payments: number;
  change: number;
}

export type Activity = 'idle' | 'busy' | 'waitingForUser';

/** Why a command cannot run now: it needs the print mechanism. */
export type MechanismBlock = 'paper' | 'cover' | null;

class Refusal {
  constructor(
    readonly kind: 'frame' | 'command',
    readonly code: number,
    readonly field?: string,
  ) {}
}

const frameFault = (code: number, name?: string) => new Refusal('frame', code, name);
const commandFault = (code: number) => new Refusal('command', code);

/** Commands that print or change the fiscal state: they need the mechanism and the printer's resources. */
const PRINTING = new Set([
  'trinit',
  'trnipset',
  'trline',
  'trdiscntbill',
  'trpayment',
  'trend',
  'prncancel',
  'trcancel',
  'hardprncancel',
  'dailyrep',
  'cashin',
  'cashout',
]);
const IMMEDIATE = new Set(['sprn', 'sdev']);
const PAYMENT_TYPES = new Set([0, 2, 3, 4, 5, 6, 7, 8]);

function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

function rank(rate: VatSlotValue): number {
  return rate === 'exempt' ? -1 : rate === 'inactive' ? -2 : rate;
}

export class PosnetDevice {
  vat: VatSlotValue[];
  header: string;
  completed: number;
  cancelled = 0;
  lastReceiptNumber: number;
  dailyReports = 0;
  dailyReportRequired: boolean;
  paper: 'ok' | 'out' = 'ok';
  cover: 'closed' | 'open' = 'closed';
  activity: Activity = 'idle';
  otherInterfaceBusy = false;
  drawer = 0;
  readonly roll: PrintedDocument[] = [];
  private transaction: OpenReceipt | null = null;
  /** The last completed receipt's totalizers (kept with the receipt through a power cycle); null after a cancel or a new trinit. */
  private lastDocument: LastDocument | null = null;
  private readonly replies = new Map<string, PosnetFrame>();
  private readonly nameLocks = new Map<string, VatSlotValue>();
  private dayTotals: number[] = [0, 0, 0, 0, 0, 0, 0];
  private readonly now: () => Date;

  constructor(options: DeviceOptions = {}) {
    this.vat = [...(options.vat ?? DEFAULT_VAT_SLOTS)];
    if (this.vat.length !== 7) throw new RangeError('a POSNET printer has seven VAT slots');
    this.header = options.header ?? DEFAULT_HEADER;
    this.completed = options.completedReceipts ?? 0;
    this.lastReceiptNumber = this.completed;
    this.dailyReportRequired = options.dailyReportRequired ?? false;
    this.now = options.now ?? (() => new Date());
  }

  get transactionOpen(): boolean {
    return this.transaction !== null;
  }

  /** Name of the command in a frame ('!' kept), for the link's fault matching; '' when unreadable. */
  static commandOf(raw: RawFrame): string {
    if (!raw.crcOk) return '';
    return parseBody(raw.body).command;
  }

  /** Whether a command must wait for the cashier (paper out, cover open) before it can run. */
  blockedBy(command: string): MechanismBlock {
    if (!PRINTING.has(command)) return null;
    if (this.cover === 'open') return 'cover';
    if (this.paper === 'out') return 'paper';
    return null;
  }

  /** One frame in, its reply out (null: nothing to answer). Printed documents land on `roll`. */
  receive(raw: RawFrame): PosnetFrame | null {
    if (!raw.crcOk) return { command: 'ERR', fields: [], errorCode: PosnetError.badCrc };
    const frame = parseBody(raw.body);
    const immediate = frame.command.startsWith('!');
    const name = immediate ? frame.command.slice(1) : frame.command;
    const token = frame.token;
    let reply: PosnetFrame;
    try {
      if (immediate && !IMMEDIATE.has(name)) throw frameFault(PosnetError.immediateForbidden);
      if (name === 'rpt') return this.repeat(frame);
      const fields = this.execute(name, frame);
      reply = { command: name, fields, ...(token !== undefined && { token }) };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      reply =
        error.kind === 'command'
          ? { command: name, fields: [], errorCode: error.code, ...(token !== undefined && { token }) }
          : {
              command: 'ERR',
              errorCode: error.code,
              fields: [
                ...(name !== '' ? [field('cm', name)] : []),
                ...(error.field !== undefined ? [field('fd', error.field)] : []),
              ],
              ...(token !== undefined && { token }),
            };
    }
    if (token !== undefined && !immediate) this.keepReply(token, reply);
    return reply;
  }

  private keepReply(token: string, reply: PosnetFrame): void {
    this.replies.delete(token);
    this.replies.set(token, reply);
    if (this.replies.size > REPLIES_KEPT) this.replies.delete(this.replies.keys().next().value as string);
  }

  private repeat(frame: PosnetFrame): PosnetFrame {
    if (frame.token === undefined) {
      return { command: 'ERR', fields: [field('cm', 'rpt')], errorCode: PosnetError.missingField };
    }
    const kept = this.replies.get(frame.token);
    if (kept) return kept;
    return {
      command: 'ERR',
      fields: [field('cm', 'rpt')],
      errorCode: PosnetError.tokenNotFound,
      token: frame.token,
    };
  }

  /** Power goes off and on: RAM (kept replies) is lost; an open receipt is cancelled or kept. */
  powerCycle(openReceipt: 'cancel' | 'keep'): void {
    this.replies.clear();
    this.activity = 'idle';
    if (this.transaction && openReceipt === 'cancel') this.cancelTransaction('powerLoss');
  }

  // ------------------------------------------------------------------------------------------

  private execute(name: string, frame: PosnetFrame): PosnetField[] {
    if (this.otherInterfaceBusy && PRINTING.has(name)) throw commandFault(PosnetError.busyOtherInterface);
    switch (name) {
      case 'trinit':
        return this.trinit(frame);
      case 'trnipset':
        return this.trnipset(frame);
      case 'trline':
        return this.trline(frame);
      case 'trdiscntbill':
        return this.trdiscntbill(frame);
      case 'trpayment':
        return this.trpayment(frame);
      case 'trend':
        return this.trend(frame);
      case 'prncancel':
      case 'trcancel':
      case 'hardprncancel':
        if (this.transaction) this.cancelTransaction('command');
        return [];
      case 'vatget':
        return this.vat.map((rate, i) =>
          field(`v${VAT_SLOT_LETTERS[i]!.toLowerCase()}`, formatVatPercent(rate)),
        );
      case 'scnt':
        return [
          field('bn', this.completed),
          field('bc', this.cancelled),
          field('nr', this.lastReceiptNumber),
        ];
      case 'strns':
        return this.strns();
      case 'scomm':
        return [field('fm', 1), field('tr', this.transaction ? 1 : 0)];
      case 'sprn':
        return [field('pr', this.cover === 'open' ? 3 : this.paper === 'out' ? 5 : 0)];
      case 'sdev':
        return [field('sd', { idle: 0, busy: 1, waitingForUser: 3 }[this.activity])];
      case 'dailyrep':
        return this.dailyReport();
      case 'cashin':
      case 'cashout':
        return this.cash(name, frame);
      case 'hdrset':
        this.header = required(frame, 'tx');
        return [];
      case 'hdrget':
        return [field('tx', this.header)];
      default:
        throw frameFault(PosnetError.unknownCommand);
    }
  }

  private open(): OpenReceipt {
    if (!this.transaction) throw commandFault(PosnetError.badTransactionState);
    return this.transaction;
  }

  private trinit(frame: PosnetFrame): PosnetField[] {
    const mode = optionalInteger(frame, 'bm');
    if (mode !== undefined && mode > 1) throw frameFault(PosnetError.badValue, 'bm');
    if (this.dailyReportRequired) throw commandFault(PosnetError.noDailyReport);
    if (this.transaction) throw commandFault(PosnetError.badTransactionState);
    this.transaction = { lines: [], discount: 0, payments: [], changes: [] };
    this.lastDocument = null;
    return [];
  }

  /**
   * The buyer's NIP on this receipt (`trnipset ni [dw] [ds]`): any time while the receipt is open,
   * sent again it overwrites; only spaces prints no NIP section; up to 30 characters, not empty.
   */
  private trnipset(frame: PosnetFrame): PosnetField[] {
    const nip = required(frame, 'ni');
    if (nip === '' || [...nip].length > 30) throw frameFault(PosnetError.badValue, 'ni');
    optionalBool(frame, 'dw');
    const description = fieldValue(frame, 'ds');
    if (description !== undefined && [...description].length > 56)
      throw frameFault(PosnetError.badValue, 'ds');
    const receipt = this.open();
    if (nip.trim() === '') delete receipt.buyerNip;
    else receipt.buyerNip = nip.trim();
    return [];
  }

  private trline(frame: PosnetFrame): PosnetField[] {
    const name = required(frame, 'na');
    const slotIndex = requiredInteger(frame, 'vt');
    const price = requiredAmount(frame, 'pr');
    const quantityText = fieldValue(frame, 'il') ?? '1';
    const quantity = parseDecimal(quantityText);
    if (!quantity) throw frameFault(PosnetError.badValue, 'il');
    const declared = optionalAmount(frame, 'wa');
    const percent = optionalInteger(frame, 'rp');
    const amountOff = optionalAmount(frame, 'rw');
    if ([...name].length > MAX_NAME_LENGTH) throw frameFault(PosnetError.badFieldLength, 'na');

    const receipt = this.open();
    if (name.trim() === '') throw commandFault(PosnetError.badName);
    const rate = this.vat[slotIndex];
    if (rate === undefined || rate === 'inactive') throw commandFault(PosnetError.badVatSlot);
    if (price <= 0) throw commandFault(PosnetError.priceNotPositive);
    if (quantity.digits <= 0n) throw commandFault(PosnetError.quantityNotPositive);
    const gross = Number(roundHalfUp(BigInt(price) * quantity.digits, 10n ** BigInt(quantity.scale)));
    if (declared !== undefined && declared !== gross) throw commandFault(PosnetError.lineTotalMismatch);
    if (percent !== undefined && amountOff !== undefined) throw commandFault(PosnetError.badDiscountType);
    let discount = 0;
    if (percent !== undefined) {
      if (percent <= 0 || percent >= 10000) throw commandFault(PosnetError.badDiscountType);
      discount = Number(roundHalfUp(BigInt(gross) * BigInt(percent), 10000n));
    }
    if (amountOff !== undefined) discount = amountOff;
    if ((percent !== undefined || amountOff !== undefined) && discount === 0)
      throw commandFault(PosnetError.zeroDiscount);
    if (discount >= gross && discount > 0) throw commandFault(PosnetError.valueAfterDiscountNotPositive);
    if (receipt.lines.length >= MAX_LINES) throw commandFault(PosnetError.transactionBufferFull);

    // An item name sold at a rate cannot be sold at a lower one until the daily report.
    const key = name.trim().toLocaleUpperCase('pl');
    const locked = this.nameLocks.get(key);
    if (locked !== undefined && rank(rate) < rank(locked)) throw commandFault(PosnetError.nameLocked);
    if (locked === undefined || rank(rate) > rank(locked)) this.nameLocks.set(key, rate);

    receipt.lines.push({
      name,
      slot: VAT_SLOT_LETTERS[slotIndex]!,
      slotIndex,
      quantity: quantityText.replace(',', '.'),
      unitPrice: price,
      gross,
      discount,
      total: gross - discount,
    });
    return [];
  }

  private trdiscntbill(frame: PosnetFrame): PosnetField[] {
    if (fieldValue(frame, 'rp') !== undefined) throw commandFault(PosnetError.badDiscountType);
    const amount = requiredAmount(frame, 'rw');
    const receipt = this.open();
    if (receipt.lines.length === 0) throw commandFault(PosnetError.discountNotAllowed);
    if (amount === 0) throw commandFault(PosnetError.zeroDiscount);
    const subtotal = receipt.lines.reduce((a, l) => a + l.total, 0);
    // Down to zero is accepted here; trend then refuses a zero receipt (2041).
    if (subtotal - receipt.discount - amount < 0)
      throw commandFault(PosnetError.valueAfterDiscountNotPositive);
    receipt.discount += amount;
    return [];
  }

  private trpayment(frame: PosnetFrame): PosnetField[] {
    const type = requiredInteger(frame, 'ty');
    const amount = requiredAmount(frame, 'wa');
    const change = optionalBool(frame, 're') ?? false;
    const receipt = this.open();
    if (!PAYMENT_TYPES.has(type)) throw commandFault(PosnetError.badPaymentType);
    if (amount === 0) throw commandFault(PosnetError.zeroPayment);
    if (change) receipt.changes.push(amount);
    else receipt.payments.push({ type, amount });
    return [];
  }

  private trend(frame: PosnetFrame): PosnetField[] {
    const declaredTotal = optionalAmount(frame, 'to');
    const declaredPayments = optionalAmount(frame, 'fp');
    const declaredChange = optionalAmount(frame, 're');
    const receipt = this.open();
    if (receipt.lines.length === 0) throw commandFault(PosnetError.emptyReceipt);
    const { slots, total, vat } = this.totals(receipt);
    if (total === 0) throw commandFault(PosnetError.zeroTotal);
    if (declaredTotal !== undefined && declaredTotal !== total)
      throw commandFault(PosnetError.receiptTotalMismatch);

    let payments = receipt.payments;
    if (payments.length === 0) payments = [{ type: 0, amount: declaredPayments ?? total }];
    const received = payments.reduce((a, p) => a + p.amount, 0);
    if (declaredPayments !== undefined && declaredPayments !== received) {
      throw commandFault(PosnetError.paymentsMismatch);
    }
    if (received < total) throw commandFault(PosnetError.paymentsDoNotCover);
    const change = receipt.changes.length > 0 ? receipt.changes.reduce((a, c) => a + c, 0) : received - total;
    if (declaredChange !== undefined && declaredChange !== change)
      throw commandFault(PosnetError.paymentsMismatch);
    if (received - change !== total) throw commandFault(PosnetError.paymentsDoNotCover);

    this.completed += 1;
    this.lastReceiptNumber = this.completed;
    for (const slot of slots) this.dayTotals[VAT_SLOT_LETTERS.indexOf(slot.slot as 'A')]! += slot.total;
    const cash = payments.filter((p) => p.type === 0).reduce((a, p) => a + p.amount, 0);
    this.drawer += cash - change;
    this.transaction = null;
    const slotTotals = [0, 0, 0, 0, 0, 0, 0];
    for (const slot of slots) slotTotals[VAT_SLOT_LETTERS.indexOf(slot.slot as 'A')] = slot.total;
    this.lastDocument = { slotTotals, payments: received, change };
    this.roll.push({
      kind: 'receipt',
      number: this.lastReceiptNumber,
      printedAt: this.now().toISOString(),
      header: stripFormatting(this.header).split('\n'),
      lines: receipt.lines.map(({ slotIndex: _, ...line }) => line),
      discount: receipt.discount,
      slots,
      total,
      vat,
      payments,
      change,
      ...(receipt.buyerNip !== undefined && { buyerNip: receipt.buyerNip }),
    });
    return [];
  }

  /**
   * The printer's own totals: gross per slot, the receipt discount spread by largest remainder
   * (ties: larger gross, then higher rate, then earlier slot), VAT per slot rounded half up.
   */
  private totals(receipt: OpenReceipt): { slots: PrintedSlot[]; total: number; vat: number } {
    const gross = [0, 0, 0, 0, 0, 0, 0];
    for (const line of receipt.lines) gross[line.slotIndex]! += line.total;
    const used = gross.map((g, i) => ({ i, g })).filter((s) => s.g > 0);
    const sum = BigInt(used.reduce((a, s) => a + s.g, 0));
    const discount = BigInt(receipt.discount);
    const shares = used.map((s) => ({
      ...s,
      share: sum === 0n ? 0n : (discount * BigInt(s.g)) / sum,
      remainder: sum === 0n ? 0n : (discount * BigInt(s.g)) % sum,
    }));
    let left = discount - shares.reduce((a, s) => a + s.share, 0n);
    const order = [...shares].sort(
      (a, b) =>
        (a.remainder === b.remainder ? 0 : a.remainder < b.remainder ? 1 : -1) ||
        b.g - a.g ||
        rank(this.vat[b.i]!) - rank(this.vat[a.i]!) ||
        a.i - b.i,
    );
    for (const s of order) {
      if (left <= 0n) break;
      s.share += 1n;
      left -= 1n;
    }
    const slots = shares.map((s): PrintedSlot => {
      const rate = this.vat[s.i]!;
      const total = s.g - Number(s.share);
      const vat =
        typeof rate === 'number'
          ? Number(roundHalfUp(BigInt(total) * BigInt(rate), BigInt(10000 + rate)))
          : 0;
      return { slot: VAT_SLOT_LETTERS[s.i]!, rate, gross: s.g, discount: Number(s.share), total, vat };
    });
    return {
      slots,
      total: slots.reduce((a, s) => a + s.total, 0),
      vat: slots.reduce((a, s) => a + s.vat, 0),
    };
  }

  private strns(): PosnetField[] {
    const receipt = this.transaction;
    if (!receipt) {
      // Closed: the last document's totalizers (dt 16: a receipt; dt 0: none or unknown).
      const last = this.lastDocument;
      return [
        field('ts', 0),
        field('ln', 0),
        field('to', 0),
        field('fp', last?.payments ?? 0),
        field('re', last?.change ?? 0),
        field('dt', last ? 16 : 0),
        ...(last
          ? last.slotTotals.flatMap((total, i) =>
              total > 0 ? [field(`s${VAT_SLOT_LETTERS[i]!.toLowerCase()}`, total)] : [],
            )
          : []),
      ];
    }
    const { slots, total } = this.totals(receipt);
    return [
      field('ts', 1),
      field('ln', receipt.lines.length),
      field('to', total),
      field(
        'fp',
        receipt.payments.reduce((a, p) => a + p.amount, 0),
      ),
      field(
        're',
        receipt.changes.reduce((a, c) => a + c, 0),
      ),
      ...slots.map((s) => field(`s${s.slot.toLowerCase()}`, s.total)),
    ];
  }

  private cancelTransaction(cause: 'command' | 'powerLoss'): void {
    const receipt = this.transaction;
    if (!receipt) return;
    this.transaction = null;
    this.lastDocument = null;
    this.cancelled += 1;
    this.roll.push({
      kind: 'cancelledReceipt',
      printedAt: this.now().toISOString(),
      lines: receipt.lines.map(({ slotIndex: _, ...line }) => line),
      total: receipt.lines.length > 0 ? this.totals(receipt).total : 0,
      cause,
    });
  }

  private dailyReport(): PosnetField[] {
    if (this.transaction) throw commandFault(PosnetError.badTransactionState);
    this.dailyReports += 1;
    const slots = this.dayTotals
      .map((total, i): PrintedSlot | null => {
        const rate = this.vat[i]!;
        if (total === 0 || rate === 'inactive') return null;
        const vat =
          typeof rate === 'number'
            ? Number(roundHalfUp(BigInt(total) * BigInt(rate), BigInt(10000 + rate)))
            : 0;
        return { slot: VAT_SLOT_LETTERS[i]!, rate, gross: total, discount: 0, total, vat };
      })
      .filter((s): s is PrintedSlot => s !== null);
    this.roll.push({
      kind: 'dailyReport',
      number: this.dailyReports,
      printedAt: this.now().toISOString(),
      slots,
      receipts: this.completed,
      cancelled: this.cancelled,
    });
    this.dayTotals = [0, 0, 0, 0, 0, 0, 0];
    this.nameLocks.clear();
    this.dailyReportRequired = false;
    return [];
  }

  private cash(name: 'cashin' | 'cashout', frame: PosnetFrame): PosnetField[] {
    const amount = requiredAmount(frame, 'kw');
    if (this.transaction) throw commandFault(PosnetError.badTransactionState);
    if (amount === 0) throw frameFault(PosnetError.badValue, 'kw');
    if (name === 'cashout' && amount > this.drawer) throw commandFault(PosnetError.cashBelowZero);
    this.drawer += name === 'cashin' ? amount : -amount;
    this.roll.push({
      kind: name === 'cashin' ? 'cashIn' : 'cashOut',
      printedAt: this.now().toISOString(),
      amount,
      drawer: this.drawer,
    });
    return [];
  }
}

// ------------------------------------------------------------------------------------------
// Field readers: a missing field is frame error 2, a value that does not convert is frame error 3.

function required(frame: PosnetFrame, name: string): string {
  const value = fieldValue(frame, name);
  if (value === undefined) throw frameFault(PosnetError.missingField, name);
  return value;
}

function requiredAmount(frame: PosnetFrame, name: string): number {
  const amount = parseAmount(required(frame, name));
  if (amount === null) throw frameFault(PosnetError.badValue, name);
  return amount;
}

function optionalAmount(frame: PosnetFrame, name: string): number | undefined {
  return fieldValue(frame, name) === undefined ? undefined : requiredAmount(frame, name);
}

function requiredInteger(frame: PosnetFrame, name: string): number {
  const text = required(frame, name);
  if (!/^\d{1,9}$/.test(text)) throw frameFault(PosnetError.badValue, name);
  return Number(text);
}

function optionalInteger(frame: PosnetFrame, name: string): number | undefined {
  return fieldValue(frame, name) === undefined ? undefined : requiredInteger(frame, name);
}

function optionalBool(frame: PosnetFrame, name: string): boolean | undefined {
  const value = fieldValue(frame, name);
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'Y', 'y'].includes(value)) return true;
  if (['0', 'n', 'N'].includes(value)) return false;
  throw frameFault(PosnetError.badValue, name);
}
