import {
  StationFiscalPrinterSchema,
  StationReportResultSchema,
  type DiagnoseResultInput,
  type FiscalDocumentInput,
  type StationFiscalPrinter,
  type StationPrinterStatusInput,
  type StationReport,
  type StationReportResult,
} from '../../../shared/contracts/api/fiscal-printers';
import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
} from '../../../shared/contracts/page-context';
import { formatQuantity, type FiscalReceiptOutcome, type VatSlotRate } from '../../../shared/domain/receipts';
import { FiscalPrinterConnectionSchema, type FiscalPrinterConnection } from './connection';
import type { FiscalDiagnosis, FiscalPrinterStatus, FiscalReceipt, VatTable } from './fiscal-printer';
import { FiscalPrintersApi } from '../../../shared/contracts/http/fiscal-printers';
import { fillPath } from '../../../shared/contracts/http/define';

/**
 * The station's side of the cloud's fiscal-printer calls (cloud/src/modules/fiscal-printers):
 * `GET fiscal-printer/{slug}` gives this station's printer settings and the diagnose requests waiting,
 * `POST fiscal-printer/{slug}` reports status, diagnose results and receipt outcomes. Plain Node
 * (global fetch); the station signs in as a member of staff who may sell (see the module's README).
 */
export interface CloudSession {
  /** e.g. https://studio.example.com (no trailing slash needed). */
  baseUrl: string;
  studioUuid: string;
  userId: string;
  sessionId: string;
  csrfToken: string;
  fetch?: typeof fetch;
}

export class CloudRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`cloud answered ${status}`);
    this.name = 'CloudRequestError';
  }
}

/** The cloud's settings as the driver's connection (the same fields; checked by the driver's schema). */
export function connectionFromCloud(printer: StationFiscalPrinter['printer']): FiscalPrinterConnection {
  const c = printer.connection;
  return FiscalPrinterConnectionSchema.parse(
    c.kind === 'tcp'
      ? { kind: 'tcp', host: c.host, port: c.port }
      : {
          kind: 'serial',
          path: c.path,
          baudRate: c.baudRate,
          parity: c.parity,
          dataBits: c.dataBits,
          stopBits: c.stopBits,
          flowControl: c.flowControl,
        },
  );
}

const slotsOf = (table: VatTable | undefined): VatSlotRate[] | null =>
  table ? [...table].sort((a, b) => a.index - b.index).map((slot) => slot.rate) : null;

/** What the driver knows about the printer, as the status the cloud stores. */
export function statusReport(
  status: FiscalPrinterStatus,
  extra: { lastReceiptNumber?: number; vatTable?: VatTable } = {},
): StationPrinterStatusInput {
  return {
    online: status.online,
    paperOut: status.mechanism === 'paperOut',
    coverOpen: status.mechanism === 'coverOpen',
    device: status.device,
    dailyReportNeeded: status.messageKey === 'printing:cashier.dailyReportMissing',
    lastReceiptNumber: extra.lastReceiptNumber ?? null,
    vatSlots: slotsOf(extra.vatTable),
  };
}

/** The driver's diagnosis as a diagnose result (the link counters stay on the station). */
export function diagnoseResult(diagnosis: FiscalDiagnosis): DiagnoseResultInput {
  const status = statusReport(diagnosis.status, {
    lastReceiptNumber: diagnosis.counters?.lastReceiptNumber,
    vatTable: diagnosis.vatTable,
  });
  return {
    ok: diagnosis.status.online && !diagnosis.status.messageKey && diagnosis.transactionOpen !== true,
    messageKey: diagnosis.status.online
      ? (diagnosis.status.messageKey ?? null)
      : 'printing:cashier.printerNotResponding',
    transport: diagnosis.transport.slice(0, 200),
    status,
    counters: diagnosis.counters ?? null,
    transactionOpen: diagnosis.transactionOpen ?? null,
  };
}

/** A sale's receipt and the driver's outcome, as the fiscal document the cloud records. */
export function documentReport(
  receipt: FiscalReceipt,
  outcome: FiscalReceiptOutcome,
  printedAt?: Date,
): FiscalDocumentInput {
  const base = {
    saleId: receipt.id,
    lines: receipt.lines.map((line) => ({
      name: line.name,
      unitPrice: line.unitPrice,
      ...(line.quantity !== undefined && {
        quantity:
          typeof line.quantity === 'string' ? line.quantity : formatQuantity(line.quantity.thousandths),
      }),
      vatRate: line.vatRate,
      ...(line.discount && { discount: line.discount }),
    })),
    discount: receipt.discount ?? 0,
    payments: receipt.payments,
    ...(printedAt && { printedAt: printedAt.toISOString() }),
  };
  switch (outcome.status) {
    case 'printed':
      return {
        ...base,
        outcome: {
          status: 'printed',
          receiptNumber: outcome.receiptNumber,
          total: outcome.total,
          recovered: outcome.recovered,
        },
      };
    case 'notPrinted':
      return {
        ...base,
        outcome: {
          status: 'notPrinted',
          reason: outcome.reason,
          messageKey: outcome.messageKey,
          ...(outcome.printerError !== undefined && { printerError: outcome.printerError }),
        },
      };
    case 'needsAttention':
      return {
        ...base,
        outcome: {
          status: 'needsAttention',
          reason: outcome.reason,
          messageKey: outcome.messageKey,
          pending: {
            completedBefore: outcome.pending.completedBefore,
            total: outcome.pending.total,
            ...(outcome.pending.endToken !== undefined && { endToken: outcome.pending.endToken }),
          },
        },
      };
  }
}

/** Talks to the cloud for one station. */
export class FiscalPrinterCloudClient {
  constructor(private readonly session: CloudSession) {}

  private url(stationSlug: string): string {
    const base = this.session.baseUrl.replace(/\/+$/, '');
    const path = fillPath(FiscalPrintersApi.getStationFiscalPrinter.path, {
      uuid: this.session.studioUuid,
      slug: stationSlug,
    });
    return `${base}/api${path}`;
  }

  private headers(): Record<string, string> {
    return {
      [AUTH_HEADER]: `${this.session.userId}:${this.session.sessionId}`,
      [CSRF_HEADER]: this.session.csrfToken,
      [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
      accept: 'application/json',
    };
  }

  private async call(method: 'GET' | 'POST', stationSlug: string, body?: unknown): Promise<unknown> {
    const res = await (this.session.fetch ?? fetch)(this.url(stationSlug), {
      method,
      headers: { ...this.headers(), ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new CloudRequestError(res.status, parsed);
    return parsed;
  }

  /** This station's printer settings (404 → null: no fiscal printer is set up for the station). */
  async settings(
    stationSlug: string,
  ): Promise<{ settings: StationFiscalPrinter; connection: FiscalPrinterConnection } | null> {
    try {
      const settings = StationFiscalPrinterSchema.parse(await this.call('GET', stationSlug));
      return { settings, connection: connectionFromCloud(settings.printer) };
    } catch (err) {
      if (err instanceof CloudRequestError && err.status === 404) return null;
      throw err;
    }
  }

  async report(stationSlug: string, report: StationReport): Promise<StationReportResult> {
    return StationReportResultSchema.parse(await this.call('POST', stationSlug, report));
  }
}
