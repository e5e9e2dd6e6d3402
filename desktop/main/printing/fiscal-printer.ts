import type {
  FiscalReceiptOutcome,
  PendingFiscalReceipt,
  PrintingMessageKey,
  ReceiptLineInput,
  VatRate,
} from '../../../shared/domain/receipts';

/**
 * A fiscal printer as the POS sees it. The POSNET driver implements it first; a Novitus XML driver
 * can implement it next. Money is integer grosze, rates are basis points (or 'exempt'); a driver
 * never throws for a business outcome — it answers with a typed result the sale records.
 */
export interface FiscalPrinter {
  /** Opens the link and reads the VAT table (and cancels a receipt left open by a crash, unless it is an unresolved one's). */
  open(options?: OpenOptions): Promise<FiscalPrinterInfo>;
  close(): Promise<void>;
  /** Mechanism and device state; answered even while the printer is busy. */
  status(): Promise<FiscalPrinterStatus>;
  readVatTable(): Promise<VatTable>;
  printReceipt(receipt: FiscalReceipt, options?: PrintReceiptOptions): Promise<FiscalReceiptOutcome>;
  /** Settles a `needsAttention` outcome (now or after a restart) without printing twice. */
  resolvePending(pending: PendingFiscalReceipt): Promise<FiscalReceiptOutcome>;
  /**
   * The cashier settled an unresolved receipt by hand (read from the paper roll or the electronic
   * copy, when the printer's own evidence cannot tell): the driver stops holding new receipts for it.
   */
  settledByCashier(receiptId: string): void;
  /** Cancels a receipt left open on the printer, if any. */
  cancel(): Promise<FiscalOperationResult>;
  dailyReport(): Promise<FiscalOperationResult>;
  cashIn(amount: number): Promise<FiscalOperationResult>;
  cashOut(amount: number): Promise<FiscalOperationResult>;
  diagnose(): Promise<FiscalDiagnosis>;
}

export type FiscalPaymentType =
  'cash' | 'card' | 'cheque' | 'bon' | 'credit' | 'other' | 'voucher' | 'transfer';

export interface FiscalPayment {
  type: FiscalPaymentType;
  /** Grosze tendered; cash above the total is given back as change. */
  amount: number;
}

export interface FiscalReceipt {
  /** The sale's id: ties the outcome (and a pending receipt) to the sale. */
  id: string;
  lines: ReceiptLineInput[];
  /** Receipt-level discount in grosze. */
  discount?: number;
  payments: FiscalPayment[];
  /** The buyer's NIP printed on the receipt (POSNET `trnipset`): a valid Polish NIP, any usual spelling. */
  buyerNip?: string;
}

export interface OpenOptions {
  /**
   * Receipts this printer started and whose outcome is still unknown, as the POS kept them (its
   * SQLite): a restarted driver learns of them before it sends anything, leaves the printer's open
   * receipt for them to settle, and prints nothing new until each is settled by resolvePending.
   */
  unresolved?: PendingFiscalReceipt[];
}

export interface PrintReceiptOptions {
  /** The cashier gave up waiting (paper out, cover open…): the outcome becomes needsAttention. */
  signal?: AbortSignal;
  /** Called once the receipt is about to be opened, so the POS can persist it before anything prints. */
  onStarted?: (pending: PendingFiscalReceipt) => void;
  /** Paper out, cover open, busy… while this receipt waits; null when it is over. */
  onAttention?: (attention: PrinterAttention | null) => void;
}

/** A VAT slot of the printer: A..G, holding a rate, exempt, or inactive. */
export interface VatSlot {
  letter: 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G';
  /** 0..6: what POSNET's `vt` field takes. */
  index: number;
  rate: VatRate | 'inactive';
}

export type VatTable = VatSlot[];

export interface FiscalPrinterInfo {
  vatTable: VatTable;
  completedReceipts: number;
  /** True when a receipt was found open (a crash mid-receipt) and was cancelled. */
  cancelledOpenReceipt: boolean;
}

export type MechanismState = 'ok' | 'paperOut' | 'coverOpen' | 'error';
export type DeviceState = 'ready' | 'busy' | 'waitingForUser';

export interface FiscalPrinterStatus {
  online: boolean;
  mechanism: MechanismState;
  device: DeviceState;
  /** What to tell the cashier, when something needs doing. */
  messageKey?: PrintingMessageKey;
}

/** Something the cashier must see while a print waits: paper out, cover open, printer busy. */
export interface PrinterAttention {
  messageKey: PrintingMessageKey;
  mechanism: MechanismState;
  device: DeviceState;
}

export type FiscalOperationResult =
  { ok: true } | { ok: false; messageKey: PrintingMessageKey; printerError?: number };

export interface FiscalDiagnosis {
  transport: string;
  status: FiscalPrinterStatus;
  counters?: { completed: number; cancelled: number; lastReceiptNumber: number };
  transactionOpen?: boolean;
  vatTable?: VatTable;
  link: Record<string, number>;
}
