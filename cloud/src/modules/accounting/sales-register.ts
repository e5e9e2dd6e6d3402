import type { InvoiceView } from '../../../../shared/contracts/api/invoices';
import { CSV_BOM, csvLine } from '../../../../shared/domain/clients/csv';
import { loadExcelJS } from '../../libraries';
import { recordRates, type AccountingPeriod } from './accounting-data';

/**
 * The sales register of a period (rejestr sprzedaży), for the accountant's spreadsheet: one row per
 * invoice (or correction) and VAT rate, then one row per day and VAT rate of the fiscal receipts
 * printed that day. Headers are Polish (the register is a Polish tax record). CSV: UTF-8 with a BOM,
 * ';' between cells and a decimal comma (what Polish Excel expects; LibreOffice asks and reads it the
 * same), CRLF, formula-looking text neutralised. XLSX (exceljs): numbers are numeric cells with two
 * decimals, dates text `YYYY-MM-DD`, the header row frozen.
 */

export const REGISTER_HEADERS = [
  'Lp.',
  'Rodzaj dowodu',
  'Oznaczenie JPK',
  'Numer',
  'Data wystawienia',
  'Data sprzedaży',
  'Nabywca',
  'NIP nabywcy',
  'Faktura korygowana',
  'Stawka VAT',
  'Netto',
  'VAT',
  'Brutto',
  'Waluta',
  'Liczba paragonów',
] as const;

export interface RegisterRow {
  kind: string;
  mark: string;
  number: string;
  issueDate: string;
  saleDate: string;
  buyer: string;
  taxId: string;
  corrected: string;
  rate: string;
  net: number;
  vat: number;
  gross: number;
  currency: string;
  receipts: number | null;
}

type Rate = InvoiceView['rates'][number]['vatRate'];
export const rateLabel = (rate: Rate): string =>
  rate === 'exempt' ? 'zw' : rate === 'reverseCharge' ? 'np (odwrotne obciążenie)' : `${rate / 100}%`;

const kindLabel = (inv: InvoiceView) =>
  inv.kind !== 'invoice' ? 'Faktura korygująca' : inv.receipt ? 'Faktura do paragonu' : 'Faktura';

export function registerRows(period: AccountingPeriod): RegisterRow[] {
  const rows: RegisterRow[] = [];
  for (const inv of period.invoices)
    for (const r of recordRates(inv))
      rows.push({
        kind: kindLabel(inv),
        mark: inv.receipt ? 'FP' : '',
        number: inv.number,
        issueDate: inv.issueDate,
        saleDate: inv.saleDate,
        buyer: inv.buyer.name,
        taxId: inv.buyer.taxId ?? '',
        corrected: inv.correction?.correctedInvoice.number ?? '',
        rate: rateLabel(r.vatRate),
        net: r.net,
        vat: r.vat,
        gross: r.gross,
        currency: inv.currency,
        receipts: null,
      });
  for (const day of period.receiptDays)
    for (const r of day.rates)
      rows.push({
        kind: 'Paragony fiskalne (raport dobowy)',
        mark: 'RO',
        number: `RO ${day.day}`,
        issueDate: day.day,
        saleDate: day.day,
        buyer: 'sprzedaż detaliczna',
        taxId: '',
        corrected: '',
        rate: rateLabel(r.vatRate),
        net: r.net,
        vat: r.vat,
        gross: r.gross,
        currency: period.currency,
        receipts: day.receipts,
      });
  return rows;
}

/** 12345 → "123,45" (a decimal comma, no thousands separator: a number to Polish spreadsheets). */
const plAmount = (minor: number) => {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

const values = (r: RegisterRow, i: number) => [
  i + 1,
  r.kind,
  r.mark,
  r.number,
  r.issueDate,
  r.saleDate,
  r.buyer,
  r.taxId,
  r.corrected,
  r.rate,
];

export function salesRegisterCsv(period: AccountingPeriod): string {
  const rows = registerRows(period);
  return (
    CSV_BOM +
    csvLine(REGISTER_HEADERS, ';') +
    rows
      .map((r, i) =>
        csvLine(
          [...values(r, i), plAmount(r.net), plAmount(r.vat), plAmount(r.gross), r.currency, r.receipts],
          ';',
        ),
      )
      .join('')
  );
}

export async function salesRegisterXlsx(period: AccountingPeriod): Promise<Buffer> {
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Studio';
  const sheet = workbook.addWorksheet('Rejestr sprzedaży', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = REGISTER_HEADERS.map((header, i) => ({
    header,
    width: [6, 30, 10, 20, 14, 14, 32, 14, 20, 22, 14, 14, 14, 8, 10][i],
  }));
  sheet.getRow(1).font = { bold: true };
  registerRows(period).forEach((r, i) => {
    const row = sheet.addRow([
      ...values(r, i),
      r.net / 100,
      r.vat / 100,
      r.gross / 100,
      r.currency,
      r.receipts,
    ]);
    for (const col of [11, 12, 13]) row.getCell(col).numFmt = '#,##0.00';
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
