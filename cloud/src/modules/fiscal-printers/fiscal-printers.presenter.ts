import type {
  DiagnosisView,
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
  type VatRate,
} from '../../../../shared/domain/receipts';
import type { FiscalDocument } from './fiscal-document.model';
import type { FiscalPrinterDiagnosis } from './fiscal-printer-diagnosis.model';
import type { StudioFiscalPrinter } from './fiscal-printer.model';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export interface DiagnosisRow {
  id: string;
  printerId: string;
  requestedBy: string | null;
  completedAt: Date | null;
  result: FiscalPrinterDiagnosis['result'];
  createdAt: Date;
  firstName: string | null;
  lastName: string | null;
}

export function presentStatus(printer: StudioFiscalPrinter): PrinterStatusView | null {
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
  printer: StudioFiscalPrinter,
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
  printer: StudioFiscalPrinter,
  pending: FiscalPrinterDiagnosis[],
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
  document: FiscalDocument,
  printer: Pick<StudioFiscalPrinter, 'id' | 'name'> | null,
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
