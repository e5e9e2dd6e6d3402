import type { z } from 'zod';
import type {
  DiagnoseResultSchema,
  DiagnosisView,
  FiscalPrinterConnection,
  StationPrinterStatus,
  FiscalDocument as FiscalDocumentView,
  FiscalPrinter as FiscalPrinterView,
  PrinterStatusView,
  StationFiscalPrinter,
} from '../../../../shared/contracts/api/fiscal-printers';
import {
  formatQuantity,
  mapRatesToSlots,
  printerAttentionKey,
  type PrintingMessageKey,
  type ReceiptLineInput,
  type ReceiptTotals,
  type VatRate,
  type VatSlotRate,
} from '../../../../shared/domain/receipts';
import type {
  FiscalDocumentsRow,
  FiscalPrinterDiagnosesRow,
  StudioFiscalPrintersRow,
} from '../../db/generated/tables';

/** A fiscal printer row with its jsonb columns typed (the settings the routes validated). */
export type FiscalPrinterRow = Omit<StudioFiscalPrintersRow, 'connection' | 'vatSlots' | 'lastStatus'> & {
  connection: FiscalPrinterConnection;
  vatSlots: VatSlotRate[];
  lastStatus: StationPrinterStatus | null;
};

/** A diagnose request row with its jsonb result typed. */
export type FiscalDiagnosisRow = Omit<FiscalPrinterDiagnosesRow, 'result'> & {
  result: z.output<typeof DiagnoseResultSchema> | null;
};

/** A sale's fiscal receipt outcome, its jsonb columns typed (the totals of the shared function). */
export type FiscalDocumentRow = Omit<
  FiscalDocumentsRow,
  'status' | 'pending' | 'lines' | 'payments' | 'totals'
> & {
  status: 'printed' | 'notPrinted' | 'needsAttention';
  pending: { completedBefore: number; total: number; endToken?: string } | null;
  lines: ReceiptLineInput[];
  payments: Array<{ type: string; amount: number }>;
  totals: ReceiptTotals;
};

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** A diagnose request as the back office lists it: with the names of who asked. */
export type DiagnosisRow = Pick<
  FiscalDiagnosisRow,
  'id' | 'printerId' | 'requestedBy' | 'completedAt' | 'result' | 'createdAt'
> & { firstName: string | null; lastName: string | null };

/** The jsonb columns as the routes validated them when they were written. */
export const printerOf = (row: StudioFiscalPrintersRow): FiscalPrinterRow => ({
  ...row,
  connection: row.connection as FiscalPrinterConnection,
  vatSlots: row.vatSlots as VatSlotRate[],
  lastStatus: row.lastStatus as StationPrinterStatus | null,
});
export const documentOf = (row: FiscalDocumentsRow): FiscalDocumentRow => ({
  ...row,
  status: row.status as FiscalDocumentRow['status'],
  pending: row.pending as FiscalDocumentRow['pending'],
  lines: row.lines as ReceiptLineInput[],
  payments: row.payments as FiscalDocumentRow['payments'],
  totals: row.totals as ReceiptTotals,
});

export function presentStatus(printer: FiscalPrinterRow): PrinterStatusView | null {
  const status = printer.lastStatus;
  if (!status || !printer.lastSeenAt) return null;
  return {
    online: status.online,
    paperOut: status.paperOut,
    coverOpen: status.coverOpen,
    device: status.device,
    dailyReportNeeded: status.dailyReportNeeded,
    lastReceiptNumber: status.lastReceiptNumber,
    vatSlots: status.vatSlots,
    attentionKey: printerAttentionKey(status),
    reportedAt: iso(printer.lastSeenAt),
  };
}

export function presentDiagnosis(row: DiagnosisRow): DiagnosisView {
  const result = typeof row.result === 'string' ? JSON.parse(row.result) : row.result;
  return {
    id: row.id,
    status: row.completedAt ? 'completed' : 'pending',
    requestedAt: iso(row.createdAt),
    requestedBy:
      row.requestedBy && row.firstName !== null
        ? { id: row.requestedBy, firstName: row.firstName, lastName: row.lastName ?? '' }
        : null,
    completedAt: row.completedAt ? iso(row.completedAt) : null,
    result: result ?? null,
  };
}

const sameSlots = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export function presentPrinter(
  printer: FiscalPrinterRow,
  diagnosis: DiagnosisRow | null,
  studioRates: VatRate[],
): FiscalPrinterView {
  const reported = printer.lastStatus?.vatSlots ?? null;
  return {
    id: printer.id,
    name: printer.name,
    stationSlug: printer.stationSlug,
    connection: printer.connection,
    vatSlots: printer.vatSlots,
    vatMapping: {
      source: reported ? 'reported' : 'configured',
      items: mapRatesToSlots(reported ?? printer.vatSlots, studioRates),
      differsFromConfigured: reported !== null && !sameSlots(reported, printer.vatSlots),
    },
    status: presentStatus(printer),
    diagnosis: diagnosis ? presentDiagnosis(diagnosis) : null,
    createdAt: iso(printer.createdAt),
    updatedAt: iso(printer.updatedAt),
  };
}

export function presentStationPrinter(
  printer: FiscalPrinterRow,
  pending: Array<Pick<FiscalDiagnosisRow, 'id' | 'createdAt'>>,
): StationFiscalPrinter {
  return {
    printer: {
      id: printer.id,
      name: printer.name,
      stationSlug: printer.stationSlug,
      connection: printer.connection,
      vatSlots: printer.vatSlots,
      updatedAt: iso(printer.updatedAt),
    },
    pendingDiagnoses: pending.map((d) => ({ id: d.id, requestedAt: iso(d.createdAt) })),
  };
}

export function presentDocument(
  document: FiscalDocumentRow,
  printer: Pick<FiscalPrinterRow, 'id' | 'name'> | null,
): FiscalDocumentView {
  const totals = document.totals;
  return {
    id: document.id,
    saleId: document.saleId,
    stationSlug: document.stationSlug,
    printer: printer ? { id: printer.id, name: printer.name } : null,
    status: document.status,
    receiptNumber: document.receiptNumber,
    recovered: document.recovered,
    reason: document.reason,
    messageKey: document.messageKey as PrintingMessageKey | null,
    printerError: document.printerError,
    lines: totals.lines.map((line) => ({
      name: line.name,
      vatRate: line.vatRate,
      unitPrice: line.unitPrice,
      quantity: formatQuantity(line.quantityThousandths),
      gross: line.gross,
      discount: line.discount,
      total: line.total,
    })),
    vatGroups: totals.vatGroups.map((g) => ({
      vatRate: g.vatRate,
      gross: g.gross,
      discount: g.discount,
      total: g.total,
      vat: g.vat,
    })),
    subtotal: document.subtotal,
    discount: document.discount,
    total: document.total,
    vat: document.vat,
    payments: document.payments,
    currency: document.currency,
    printedAt: iso(document.printedAt),
    createdAt: iso(document.createdAt),
    updatedAt: iso(document.updatedAt),
  };
}
