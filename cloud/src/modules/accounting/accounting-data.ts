import type {
  AccountingSettings,
  AccountingSettingsInput,
  AccountingSettingsView,
  AccountingSummary,
} from '../../../../shared/contracts/api/accounting';
import { isWholeMonth } from '../../../../shared/contracts/api/accounting';
import type { InvoiceSettingsView, InvoiceView } from '../../../../shared/contracts/api/invoices';
import type { ReceiptTotals } from '../../../../shared/domain/receipts';
import { compareVatRates, vatRateKey, type VatRate } from '../../../../shared/domain/receipts/vat-rate';
import { AppError } from '../../../../shared/errors';
import type { StudioAccountingSettingsRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';
import { invoiceSettings } from '../invoices/index';
import { invoiceDetail } from '../invoices/index';

/**
 * What the accountant's files of a period are made of (issue 19):
 * - invoices and corrective invoices issued (by date of issue, in the studio's calendar) in the
 *   period, as the invoices module presents them; cancelled ones are void and left out;
 * - fiscal receipts printed in the period (the stations' reports, `fiscal_documents` printed), summed
 *   per day of printing (the studio's time zone) and VAT rate, as the daily fiscal report sums them.
 */

export interface ReceiptDayRate {
  vatRate: VatRate;
  gross: number;
  vat: number;
  net: number;
}
export interface ReceiptDay {
  day: string;
  receipts: number;
  rates: ReceiptDayRate[];
  gross: number;
  vat: number;
}

export interface AccountingPeriod {
  from: string;
  to: string;
  currency: string;
  seller: InvoiceSettingsView;
  invoices: InvoiceView[];
  /** What KSeF knows of an invoice: its KSeF number, or that it was issued offline and has none yet. */
  ksef: Map<string, { number: string | null; offline: boolean }>;
  receiptDays: ReceiptDay[];
}

export async function loadPeriod(
  db: Db,
  studio: Studio,
  from: string,
  to: string,
  now: Date,
): Promise<AccountingPeriod> {
  const ids = (await db('invoices')
    .where({ studioId: studio.id, status: 'issued' })
    .whereBetween('issueDate', [from, to])
    .orderBy([{ column: 'issueDate' }, { column: 'kind' }, { column: 'seriesYear' }, { column: 'sequence' }])
    .select('id')) as { id: string }[];
  const invoices: InvoiceView[] = [];
  for (const { id } of ids) invoices.push(await invoiceDetail(db, studio, id, now));
  const ksefRows =
    ids.length === 0
      ? []
      : await db('invoice_ksef')
          .where({ studioId: studio.id })
          .whereIn(
            'invoiceId',
            ids.map((i) => i.id),
          )
          .select('invoiceId', 'ksefNumber', 'mode');
  const ksef = new Map(
    ksefRows.map((k) => [k.invoiceId as string, { number: k.ksefNumber, offline: k.mode === 'offline' }]),
  );
  const documents = (await db('fiscal_documents')
    .where({ studioId: studio.id, status: 'printed' })
    .whereRaw('(printed_at at time zone ?)::date between ?::date and ?::date', [studio.timeZone, from, to])
    .orderBy('printedAt')
    .select(
      'totals',
      db.raw("to_char(printed_at at time zone ?, 'YYYY-MM-DD') as day", [studio.timeZone]),
    )) as unknown as { day: string; totals: ReceiptTotals }[];
  return {
    from,
    to,
    currency: studio.currency,
    seller: await invoiceSettings(db, studio),
    invoices,
    ksef,
    receiptDays: receiptDays(documents),
  };
}

/** Printed receipts summed per day and rate (taxable = the rate's total, VAT as the printer stored it). */
export function receiptDays(documents: readonly { day: string; totals: ReceiptTotals }[]): ReceiptDay[] {
  const days = new Map<string, { receipts: number; rates: Map<string, ReceiptDayRate> }>();
  for (const doc of documents) {
    const day = days.get(doc.day) ?? { receipts: 0, rates: new Map() };
    days.set(doc.day, day);
    day.receipts += 1;
    for (const g of doc.totals.vatGroups) {
      const key = vatRateKey(g.vatRate);
      const r = day.rates.get(key) ?? { vatRate: g.vatRate, gross: 0, vat: 0, net: 0 };
      r.gross += g.total;
      r.vat += g.vat;
      r.net = r.gross - r.vat;
      day.rates.set(key, r);
    }
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, d]) => {
      const rates = [...d.rates.values()].sort((a, b) => compareVatRates(a.vatRate, b.vatRate));
      return {
        day,
        receipts: d.receipts,
        rates,
        gross: rates.reduce((a, r) => a + r.gross, 0),
        vat: rates.reduce((a, r) => a + r.vat, 0),
      };
    });
}

/** An invoice's per-rate amounts as the records count them: a correction's are its differences. */
export function recordRates(invoice: InvoiceView) {
  return invoice.correction
    ? invoice.correction.rates.map((r) => ({ vatRate: r.vatRate, ...r.difference }))
    : invoice.rates;
}

/** The gross a record counts for an invoice (a correction's difference). */
export const recordGross = (invoice: InvoiceView) => recordRates(invoice).reduce((a, r) => a + r.gross, 0);

export function summary(period: AccountingPeriod): AccountingSummary {
  const plnInvoices = period.invoices.filter((i) => i.currency === period.currency);
  return {
    from: period.from,
    to: period.to,
    currency: period.currency,
    invoices: period.invoices.filter((i) => i.kind === 'invoice').length,
    corrections: period.invoices.filter((i) => i.kind !== 'invoice').length,
    forReceipts: period.invoices.filter((i) => i.receipt !== null).length,
    receipts: period.receiptDays.reduce((a, d) => a + d.receipts, 0),
    receiptDays: period.receiptDays.length,
    gross:
      plnInvoices.reduce((a, i) => a + recordGross(i), 0) +
      period.receiptDays.reduce((a, d) => a + d.gross, 0),
    wholeMonth: isWholeMonth(period.from, period.to),
  };
}

// ------------------------------------------------------------------------------------- settings

export const sellerReady = (seller: InvoiceSettingsView) =>
  Boolean(seller.sellerName.trim() && seller.taxId && seller.postalCode.trim() && seller.city.trim());

export async function accountingSettingsRow(db: Db, studioId: string): Promise<AccountingSettings | null> {
  const row = (await db('studio_accounting_settings')
    .where({ studioId })
    .first('*', db.raw('birth_date::text as birth_day'))) as
    (StudioAccountingSettingsRow & { birthDay: string | null }) | undefined;
  if (!row) return null;
  return {
    taxOfficeCode: row.taxOfficeCode,
    email: row.email,
    province: row.province,
    county: row.county,
    commune: row.commune,
    street: row.street,
    houseNumber: row.houseNumber,
    flatNumber: row.flatNumber,
    naturalPerson: row.naturalPerson,
    firstName: row.firstName,
    lastName: row.lastName,
    // The calendar day as stored (a Date would move it by the server's time zone).
    birthDate: row.birthDay,
  };
}

export async function accountingSettings(db: Db, studio: Studio): Promise<AccountingSettingsView> {
  return {
    settings: await accountingSettingsRow(db, studio.id),
    sellerReady: sellerReady(await invoiceSettings(db, studio)),
  };
}

export async function saveAccountingSettings(
  trx: Knex.Transaction,
  studio: Studio,
  input: AccountingSettingsInput,
  now: Date,
): Promise<AccountingSettingsView> {
  await trx('studio_accounting_settings')
    .insert({ studioId: studio.id, ...input, updatedAt: now })
    .onConflict('studio_id')
    .merge();
  return accountingSettings(trx, studio);
}

/** The settings a JPK file needs, or 409 saying which are missing. */
export async function settingsForJpk(db: Db, studio: Studio, seller: InvoiceSettingsView) {
  const settings = await accountingSettingsRow(db, studio.id);
  const missing = [
    ...(settings ? [] : ['accounting settings']),
    ...(sellerReady(seller) ? [] : ['seller NIP']),
  ];
  if (!settings || missing.length > 0)
    throw new AppError('accounting.settingsMissing', {
      message: `a JPK file needs the studio's ${missing.join(' and ')} first`,
    });
  return settings;
}

/** A VAT rate the Polish records have no field for (an invoice typed in at, say, 12 %): 409, not 500. */
export function rateNotInJpk(rate: number, file: string): AppError {
  return new AppError('accounting.rateNotInJpk', {
    message: `an invoice of the period has VAT rate ${rate / 100} %, which ${file} has no field for`,
  });
}
