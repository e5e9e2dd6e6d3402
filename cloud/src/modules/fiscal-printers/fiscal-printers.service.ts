import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import {
  DEFAULT_FISCAL_VAT_SLOTS,
  type DiagnosisView,
  type FiscalDocument as FiscalDocumentView,
  type FiscalDocumentInputSchema,
  type FiscalPrinter as FiscalPrinterView,
  type FiscalPrinterInputSchema,
  type FiscalPrinterList,
  type FiscalPrinterPatchSchema,
  type RetailFiscalPrinterStatus,
  type StationFiscalPrinter,
  type StationPrinterStatus,
  type StationReportResult,
  type StationReportSchema,
} from '../../../../shared/contracts/api/fiscal-printers';
import {
  compareVatRates,
  computeReceiptTotals,
  isVatRate,
  receiptProblems,
  vatRateKey,
  type VatRate,
} from '../../../../shared/domain/receipts';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  documentOf,
  printerOf,
  presentDiagnosis,
  presentDocument,
  presentPrinter,
  presentStationPrinter,
  presentStatus,
  type DiagnosisRow,
  type FiscalDocumentRow,
  type FiscalPrinterRow,
} from './fiscal-printers.presenter';
import { readAll } from '../../db/read-all';

type PrinterInput = z.output<typeof FiscalPrinterInputSchema>;
type PrinterPatch = z.output<typeof FiscalPrinterPatchSchema>;
type Report = z.output<typeof StationReportSchema>;
type DocumentInput = z.output<typeof FiscalDocumentInputSchema>;

const stationTaken = () =>
  new AppError('resource.conflict', {
    message: 'this station already has a fiscal printer',
    fields: { stationSlug: ['this station already has a fiscal printer'] },
  });

/** One fiscal printer per station (the unique index on lower(station_slug)). */
async function saving<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw stationTaken();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------
// The studio's tax rates

let taxesTable: Promise<boolean> | undefined;

/** The taxes module's table arrives with its own migration; until then only pricing options hold rates. */
function hasTaxesTable(db: Db): Promise<boolean> {
  taxesTable ??= db
    .raw("select to_regclass('public.taxes') is not null as present")
    .then((r: { rows: Array<{ present: boolean }> }) => Boolean(r.rows[0]?.present))
    .catch(() => {
      taxesTable = undefined;
      return false;
    });
  return taxesTable;
}

/**
 * The rates a studio sells at: its tax rates (`taxes`, a null rate being exempt) and the rates of its
 * pricing options. Distinct, higher first, exempt last. A rate no fiscal printer can hold (a tax may
 * be 100 %, while a printer's rates stop at 99.99 % and its 100 means exempt) maps to no slot, so it
 * is not listed.
 */
export async function studioTaxRates(db: Db, studioId: string): Promise<VatRate[]> {
  const rates = new Map<string, VatRate>();
  const add = (rate: unknown) => {
    if (isVatRate(rate)) rates.set(vatRateKey(rate), rate);
  };
  const options: Array<{ taxRateBp: number }> = await db('pricing_options')
    .where('studio_id', studioId)
    .distinct('tax_rate_bp');
  for (const { taxRateBp } of options) add(taxRateBp);
  if (await hasTaxesTable(db)) {
    const taxes: Array<{ rateBp: number | null }> = await db('taxes')
      .where('studio_id', studioId)
      .distinct('rate_bp');
    for (const { rateBp } of taxes) add(rateBp === null ? 'exempt' : rateBp);
  }
  return [...rates.values()].sort(compareVatRates);
}

// ---------------------------------------------------------------------------------------------------
// Back office

async function latestDiagnoses(
  db: Db,
  studioId: string,
  printerIds: string[],
): Promise<Map<string, DiagnosisRow>> {
  if (printerIds.length === 0) return new Map();
  const rows: DiagnosisRow[] = await db('fiscal_printer_diagnoses as d')
    .leftJoin('users as u', 'u.id', 'd.requested_by')
    .where('d.studio_id', studioId)
    .whereIn('d.printer_id', printerIds)
    .distinctOn('d.printer_id')
    .orderBy([
      { column: 'd.printer_id' },
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .select(
      'd.id',
      'd.printer_id',
      'd.requested_by',
      'd.completed_at',
      'd.result',
      'd.created_at',
      'u.first_name',
      'u.last_name',
    );
  return new Map(rows.map((row) => [row.printerId, row]));
}

async function printerView(db: Db, studioId: string, printer: FiscalPrinterRow): Promise<FiscalPrinterView> {
  const [rates, diagnoses] = await readAll(db, [
    () => studioTaxRates(db, studioId),
    () => latestDiagnoses(db, studioId, [printer.id]),
  ]);
  return presentPrinter(printer, diagnoses.get(printer.id) ?? null, rates);
}

export async function listPrinters(db: Db, studioId: string): Promise<FiscalPrinterList> {
  const printers = (
    await db('studio_fiscal_printers')
      .where({ studioId })
      .orderByRaw('lower(name), lower(station_slug), id')
      .limit(500)
  ).map(printerOf);
  const [rates, diagnoses] = await readAll(db, [
    () => studioTaxRates(db, studioId),
    () =>
      latestDiagnoses(
        db,
        studioId,
        printers.map((p) => p.id),
      ),
  ]);
  return {
    items: printers.map((p) => presentPrinter(p, diagnoses.get(p.id) ?? null, rates)),
    next: null,
    studioRates: rates,
  };
}

async function lockPrinter(trx: Db, studioId: string, printerId: string): Promise<FiscalPrinterRow> {
  const printer = await trx('studio_fiscal_printers').where({ studioId, id: printerId }).forUpdate().first();
  if (!printer) throw AppError.notFound('fiscal printer');
  return printerOf(printer);
}

/** Writes a printer's changes (and its updated_at) and reads the row back. */
async function patchPrinter(
  trx: Db,
  printerId: string,
  changes: Partial<
    Pick<FiscalPrinterRow, 'name' | 'stationSlug' | 'connection' | 'vatSlots' | 'lastStatus' | 'lastSeenAt'>
  >,
): Promise<FiscalPrinterRow> {
  const { connection, vatSlots, lastStatus, ...plain } = changes;
  const [row] = await trx('studio_fiscal_printers')
    .where({ id: printerId })
    .update({
      ...plain,
      ...(connection !== undefined ? { connection: JSON.stringify(connection) } : {}),
      ...(vatSlots !== undefined ? { vatSlots: JSON.stringify(vatSlots) } : {}),
      ...(lastStatus !== undefined
        ? { lastStatus: lastStatus === null ? null : JSON.stringify(lastStatus) }
        : {}),
      updatedAt: new Date(),
    })
    .returning('*');
  return printerOf(row!);
}

export async function createPrinter(
  trx: Db,
  studioId: string,
  input: PrinterInput,
): Promise<FiscalPrinterView> {
  const [printer] = await saving(() =>
    trx('studio_fiscal_printers')
      .insert({
        id: uuidv7(),
        studioId,
        name: input.name,
        stationSlug: input.stationSlug,
        connection: JSON.stringify(input.connection),
        vatSlots: JSON.stringify(input.vatSlots ?? DEFAULT_FISCAL_VAT_SLOTS),
        lastStatus: null,
        lastSeenAt: null,
      })
      .returning('*'),
  );
  return printerView(trx, studioId, printerOf(printer!));
}

export async function updatePrinter(
  trx: Db,
  studioId: string,
  printerId: string,
  patch: PrinterPatch,
): Promise<FiscalPrinterView> {
  const printer = await lockPrinter(trx, studioId, printerId);
  const changes: Parameters<typeof patchPrinter>[2] = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.stationSlug !== undefined) changes.stationSlug = patch.stationSlug;
  if (patch.connection !== undefined) changes.connection = patch.connection;
  if (patch.vatSlots !== undefined) changes.vatSlots = patch.vatSlots;
  const updated = await saving(() => patchPrinter(trx, printer.id, changes));
  return printerView(trx, studioId, updated);
}

export async function deletePrinter(trx: Db, studioId: string, printerId: string): Promise<void> {
  const printer = await lockPrinter(trx, studioId, printerId);
  // Its documents stay (printer_id becomes null); its diagnose requests go with it.
  await trx('studio_fiscal_printers').where({ id: printer.id }).delete();
}

async function diagnosisRow(db: Db, studioId: string, id: string): Promise<DiagnosisRow> {
  const row: DiagnosisRow | undefined = await db('fiscal_printer_diagnoses as d')
    .leftJoin('users as u', 'u.id', 'd.requested_by')
    .where({ 'd.studio_id': studioId, 'd.id': id })
    .first(
      'd.id',
      'd.printer_id',
      'd.requested_by',
      'd.completed_at',
      'd.result',
      'd.created_at',
      'u.first_name',
      'u.last_name',
    );
  if (!row) throw AppError.notFound('diagnose request');
  return row;
}

/**
 * Queues a diagnose for the station (the cloud cannot reach the printer). While one waits, asking
 * again returns that one: the station runs one diagnose, not one per click.
 */
export async function requestDiagnose(
  trx: Db,
  studioId: string,
  printerId: string,
  userId: string,
): Promise<{ created: boolean; diagnosis: DiagnosisView }> {
  const printer = await lockPrinter(trx, studioId, printerId);
  const waiting = await trx('fiscal_printer_diagnoses')
    .where({ studioId, printerId: printer.id })
    .whereNull('completedAt')
    .first('id');
  if (waiting)
    return { created: false, diagnosis: presentDiagnosis(await diagnosisRow(trx, studioId, waiting.id)) };
  const id = uuidv7();
  await trx('fiscal_printer_diagnoses').insert({
    id,
    studioId,
    printerId: printer.id,
    requestedBy: userId,
    completedAt: null,
    result: null,
  });
  return { created: true, diagnosis: presentDiagnosis(await diagnosisRow(trx, studioId, id)) };
}

export async function getDocument(db: Db, studioId: string, documentId: string): Promise<FiscalDocumentView> {
  const document = await db('fiscal_documents').where({ studioId, id: documentId }).first();
  if (!document) throw AppError.notFound('fiscal document');
  const printer = document.printerId
    ? await db('studio_fiscal_printers').where({ studioId, id: document.printerId }).first('id', 'name')
    : undefined;
  return presentDocument(documentOf(document), printer ?? null);
}

// ---------------------------------------------------------------------------------------------------
// The station

async function printerOfStation(db: Db, studioId: string, slug: string, lock: boolean) {
  const query = db('studio_fiscal_printers')
    .where({ studioId })
    .whereRaw('lower(station_slug) = lower(?)', [slug])
    .first();
  const printer = await (lock ? query.forUpdate() : query);
  return printer ? printerOf(printer) : null;
}

async function stationAnswer(
  db: Db,
  studioId: string,
  printer: FiscalPrinterRow,
): Promise<StationFiscalPrinter> {
  const pending = await db('fiscal_printer_diagnoses')
    .where({ studioId, printerId: printer.id })
    .whereNull('completedAt')
    .orderBy('createdAt')
    .select('id', 'createdAt');
  return presentStationPrinter(printer, pending);
}

/** GET fiscal-printer/{slug}: the station's settings and the diagnose requests it should run. */
export async function stationConfig(db: Db, studioId: string, slug: string): Promise<StationFiscalPrinter> {
  const printer = await printerOfStation(db, studioId, slug, false);
  if (!printer) throw AppError.notFound('fiscal printer');
  return stationAnswer(db, studioId, printer);
}

function documentProblems(
  input: DocumentInput,
  at: string,
): { totals: ReturnType<typeof computeReceiptTotals> | null; fields: FieldErrors } {
  const fields: FieldErrors = {};
  const receipt = { lines: input.lines, discount: input.discount };
  const problems = receiptProblems(receipt);
  for (const problem of problems) (fields[`${at}.${problem.path}`] ??= []).push(problem.code);
  if (problems.length > 0) return { totals: null, fields };
  const totals = computeReceiptTotals(receipt);
  const printedTotal =
    input.outcome.status === 'printed'
      ? { path: 'outcome.total', value: input.outcome.total }
      : input.outcome.status === 'needsAttention'
        ? { path: 'outcome.pending.total', value: input.outcome.pending.total }
        : null;
  // The driver prints what computeReceiptTotals computes: a different total means the lines sent
  // are not the receipt that was printed, and storing them would break "stored = printed".
  if (printedTotal && printedTotal.value !== totals.total)
    fields[`${at}.${printedTotal.path}`] = [
      `does not match the receipt lines (their total is ${totals.total})`,
    ];
  return { totals, fields };
}

async function recordDocument(
  trx: Db,
  studio: Studio,
  printer: FiscalPrinterRow,
  input: DocumentInput,
  totals: ReturnType<typeof computeReceiptTotals>,
  at: string,
  now: Date,
): Promise<FiscalDocumentRow> {
  const outcome = input.outcome;
  const values = {
    status: outcome.status,
    receiptNumber: outcome.status === 'printed' ? outcome.receiptNumber : null,
    recovered: outcome.status === 'printed' ? outcome.recovered : false,
    reason: outcome.status === 'printed' ? null : outcome.reason,
    messageKey: outcome.status === 'printed' ? null : outcome.messageKey,
    printerError: outcome.status === 'notPrinted' ? (outcome.printerError ?? null) : null,
    pending: outcome.status === 'needsAttention' ? JSON.stringify(outcome.pending) : null,
    lines: JSON.stringify(input.lines),
    payments: JSON.stringify(input.payments),
    totals: JSON.stringify(totals),
    subtotal: totals.subtotal,
    discount: totals.discount,
    total: totals.total,
    vat: totals.vat,
    printedAt: input.printedAt ? new Date(input.printedAt) : now,
  };
  const existing = await trx('fiscal_documents')
    .where({ studioId: studio.id, saleId: input.saleId })
    .forUpdate()
    .first();
  if (!existing) {
    const [inserted] = await trx('fiscal_documents')
      .insert({
        id: uuidv7(),
        studioId: studio.id,
        saleId: input.saleId,
        printerId: printer.id,
        stationSlug: printer.stationSlug,
        currency: studio.currency,
        ...values,
      })
      .returning('*');
    return documentOf(inserted!);
  }
  if (existing.status === 'printed') {
    // A retry of the same report (the station's outbox) is fine; anything else would rewrite a legal record.
    const same =
      outcome.status === 'printed' &&
      outcome.receiptNumber === existing.receiptNumber &&
      totals.total === existing.total;
    if (same) return documentOf(existing);
    throw new AppError('resource.conflict', {
      message: "this sale's receipt is already printed",
      fields: { [`${at}.saleId`]: ["this sale's receipt is already printed"] },
    });
  }
  const [updated] = await trx('fiscal_documents')
    .where({ id: existing.id })
    .update({ ...values, updatedAt: new Date() })
    .returning('*');
  return documentOf(updated!);
}

/**
 * POST fiscal-printer/{slug}: the station reports its printer's status, the results of diagnose
 * requests and the receipt outcomes of sales, all or nothing.
 */
export async function stationReport(
  trx: Db,
  studio: Studio,
  slug: string,
  report: Report,
  now: Date,
): Promise<StationReportResult> {
  const printer = await printerOfStation(trx, studio.id, slug, true);
  if (!printer) throw AppError.notFound('fiscal printer');

  // Every document's problems first, so a report is refused with all of them at once.
  const documents = report.documents ?? [];
  const checked = documents.map((doc, i) => documentProblems(doc, `documents.${i}`));
  const fields: FieldErrors = Object.assign({}, ...checked.map((c) => c.fields));
  const seen = new Set<string>();
  documents.forEach((doc, i) => {
    if (seen.has(doc.saleId)) (fields[`documents.${i}.saleId`] ??= []).push('the same sale twice');
    seen.add(doc.saleId);
  });
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);

  let lastStatus: StationPrinterStatus | null = report.status ?? null;
  for (const [i, item] of (report.diagnoses ?? []).entries()) {
    const diagnosis = await trx('fiscal_printer_diagnoses')
      .where({ studioId: studio.id, printerId: printer.id, id: item.id })
      .forUpdate()
      .first('id', 'completedAt');
    if (!diagnosis) throw new AppError('resource.notFound', { message: `diagnose request ${i} not found` });
    // The first result stands: a repeated post (a retry) changes nothing.
    if (diagnosis.completedAt) continue;
    await trx('fiscal_printer_diagnoses')
      .where({ id: diagnosis.id })
      .update({ completedAt: now, result: JSON.stringify(item.result), updatedAt: new Date() });
    lastStatus ??= item.result.status;
  }

  const recorded: StationReportResult['documents'] = [];
  for (const [i, doc] of documents.entries()) {
    const saved = await recordDocument(trx, studio, printer, doc, checked[i]!.totals!, `documents.${i}`, now);
    recorded.push({ id: saved.id, saleId: saved.saleId, status: saved.status });
  }

  // Any report means the station is there; a status (or a diagnose's) is what it last saw.
  const seen2 = await patchPrinter(
    trx,
    printer.id,
    lastStatus ? { lastStatus, lastSeenAt: now } : { lastSeenAt: now },
  );
  return { ...(await stationAnswer(trx, studio.id, seen2)), documents: recorded };
}

/** POST retail/fiscal-printer-status: the POS's printer state, recording the status it sends. */
export async function retailStatus(
  trx: Db,
  studioId: string,
  input: { stationSlug: string; status?: StationPrinterStatus },
  now: Date,
): Promise<RetailFiscalPrinterStatus> {
  let printer = await printerOfStation(trx, studioId, input.stationSlug, true);
  if (!printer)
    return {
      configured: false,
      printer: null,
      status: null,
      pendingDiagnoses: 0,
      documentsNeedingAttention: 0,
    };
  if (input.status)
    printer = await patchPrinter(trx, printer.id, { lastStatus: input.status, lastSeenAt: now });
  const [pending, attention] = await readAll(trx, [
    () =>
      trx('fiscal_printer_diagnoses')
        .where({ studioId, printerId: printer.id })
        .whereNull('completed_at')
        .count('*', { as: 'n' })
        .first(),
    () =>
      trx('fiscal_documents')
        .where({ studioId, status: 'needsAttention' })
        .whereRaw('lower(station_slug) = lower(?)', [printer.stationSlug])
        .count('*', { as: 'n' })
        .first(),
  ]);
  return {
    configured: true,
    printer: { id: printer.id, name: printer.name, stationSlug: printer.stationSlug },
    status: presentStatus(printer),
    pendingDiagnoses: Number((pending as { n: number } | undefined)?.n ?? 0),
    documentsNeedingAttention: Number((attention as { n: number } | undefined)?.n ?? 0),
  };
}
