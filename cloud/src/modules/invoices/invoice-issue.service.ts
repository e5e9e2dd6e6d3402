import { v7 as uuidv7 } from 'uuid';
import type { InvoiceIssueInput } from '../../../../shared/contracts/api/invoices';
import {
  computeInvoiceTotals,
  EXEMPTION_BASIS_REQUIRED,
  exemptionBasisOf,
  formatInvoiceNumber,
  invoiceSeriesYear,
  invoiceVatRateKey,
  InvoiceInputError,
  parseExchangeRate,
  paymentDueDate,
  type InvoiceKind,
  type InvoiceLineInput,
  type InvoiceLineTotals,
  type InvoiceTotals,
  type PriceBasis,
  type VatTreatment,
} from '../../../../shared/domain/invoices';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentSettings, type BuyerSnapshot, type SellerSnapshot } from './invoices.presenter';

import { todayOf, type Trx } from './invoices.rows';
import { settingsRow } from './invoice-settings.service';
import type { ReceiptReference } from './invoice-receipts';
import { queueKsefSend } from './ksef/ksef-send.service';

// ------------------------------------------------------------------------------------ numbering

/**
 * The next number of a series. The upsert takes the series row's lock until the transaction ends:
 * concurrent issues queue here, and a rolled-back issue gives its number back (no gaps).
 */
export async function takeNumber(
  trx: Trx,
  studioId: string,
  kind: InvoiceKind,
  year: number,
): Promise<number> {
  const result = await trx.raw<{ rows: { last_number: number }[] }>(
    `insert into invoice_number_series (studio_id, kind, year, last_number) values (?, ?, ?, 1)
     on conflict (studio_id, kind, year) do update set last_number = invoice_number_series.last_number + 1
     returning last_number`,
    [studioId, kind, year],
  );
  return result.rows[0]!.last_number;
}

/** What the next number of a series would be (for the form; the real one is taken at issue). */
export async function peekNumber(db: Db, studioId: string, kind: InvoiceKind, year: number): Promise<string> {
  const row: { lastNumber: number } | undefined = await db('invoice_number_series')
    .where({ studioId, kind, year })
    .first('lastNumber');
  return formatInvoiceNumber({ kind, year, sequence: (row?.lastNumber ?? 0) + 1 });
}

// ------------------------------------------------------------------------------------ issuing

export function lineFields(error: InvoiceInputError, prefix = ''): FieldErrors {
  const messages: Record<string, string> = {
    descriptionRequired: 'required',
    unitPriceInvalid: 'a price in minor units, 0 or more',
    quantityInvalid: 'a quantity with at most three decimals',
    quantityNotPositive: 'more than 0',
    vatRateInvalid: 'unknown VAT rate',
    reverseChargeNotAllowed: 'reverse charge applies to the whole invoice',
  };
  const fields: FieldErrors = {};
  for (const p of error.problems) (fields[prefix + p.path] ??= []).push(messages[p.code] ?? p.code);
  return fields;
}

export function totalsOrInvalid(input: Parameters<typeof computeInvoiceTotals>[0]): InvoiceTotals {
  try {
    return computeInvoiceTotals(input);
  } catch (err) {
    if (err instanceof InvoiceInputError) throw AppError.invalid(lineFields(err));
    throw err;
  }
}

export const lineRow = (
  studioId: string,
  invoiceId: string,
  side: 'line' | 'before' | 'after',
  line: InvoiceLineTotals,
  index: number,
) => ({
  id: uuidv7(),
  studioId,
  invoiceId,
  side,
  position: index + 1,
  description: line.description,
  quantityThousandths: line.quantityThousandths,
  unit: line.unit,
  unitPrice: line.unitPrice,
  vatRate: invoiceVatRateKey(line.vatRate),
  net: line.net,
  vat: line.vat,
  gross: line.gross,
});

export interface IssueCore {
  buyer: BuyerSnapshot;
  recipient: InvoiceIssueInput['recipient'];
  saleDate?: string;
  priceBasis: PriceBasis;
  vatTreatment?: VatTreatment;
  exemptionBasis?: string | null;
  currency: string;
  exchangeRate: InvoiceIssueInput['exchangeRate'];
  paymentMethod: number;
  /** The order's payments by method when it was paid several ways (printed on the invoice). */
  paymentSplit?: { method: number; amount: number }[] | null;
  paymentTermDays?: number;
  paidAmount: number;
  /** An order's payments count up to the invoice total; a typed-in amount above it is refused. */
  clipPaid?: boolean;
  remarks: string;
  lines: InvoiceLineInput[];
  orderId: string | null;
  /** The printed fiscal receipt the invoice is issued for (FP), when there is one. */
  receipt?: ReceiptReference | null;
}

export async function issue(
  trx: Trx,
  studio: Studio,
  actorId: string,
  input: IssueCore,
  now: Date,
): Promise<string> {
  const settings = presentSettings(await settingsRow(trx, studio));
  if (!settings.complete)
    throw new AppError('invoice.sellerDetailsMissing', {
      message: "save the seller's NIP, name and address in the invoice settings first",
    });
  const treatment: VatTreatment = input.vatTreatment ?? (settings.vatExempt ? 'exempt' : 'standard');
  const totals = totalsOrInvalid({ basis: input.priceBasis, lines: input.lines, treatment });
  if (input.paidAmount > totals.gross && !input.clipPaid)
    throw AppError.invalid({ paidAmount: ['more than the invoice total'] });
  const paid = Math.min(input.paidAmount, totals.gross);
  const issueDate = todayOf(studio, now);
  const termDays = input.paymentTermDays ?? settings.paymentTermDays;
  const year = invoiceSeriesYear(issueDate);
  const sequence = await takeNumber(trx, studio.id, 'invoice', year);
  const id = uuidv7();
  // Read here, not through studio-admin (whose documents need client-records, which needs invoices).
  const account = await trx('studio_bank_accounts')
    .where({ studioId: studio.id, currency: input.currency, isDefault: true })
    .first('iban', 'bankName');
  const seller: SellerSnapshot = {
    name: settings.sellerName,
    addressLine: settings.addressLine,
    postalCode: settings.postalCode,
    city: settings.city,
    country: settings.country,
    taxId: settings.taxId,
    // The studio's default account in the invoice's currency (Settings → Bank accounts), else the
    // account of the invoice settings.
    iban: account?.iban ?? settings.iban,
    bankName: account ? account.bankName : settings.bankName,
    // A seller exempt under art. 113 issues a "Faktura" without VAT columns.
    vatExempt: settings.vatExempt && treatment === 'exempt',
  };
  const exempt = treatment === 'exempt' || totals.rates.some((r) => r.vatRate === 'exempt');
  const exemptionBasis = exempt
    ? exemptionBasisOf({
        given: input.exemptionBasis,
        settingsBasis: settings.vatExemptionBasis,
        sellerExempt: settings.vatExempt,
      })
    : null;
  if (exempt && !exemptionBasis) throw AppError.invalid({ exemptionBasis: [EXEMPTION_BASIS_REQUIRED] });
  try {
    await trx('invoices').insert({
      id,
      studioId: studio.id,
      kind: 'invoice',
      number: formatInvoiceNumber({ kind: 'invoice', year, sequence }),
      seriesYear: year,
      sequence,
      status: 'issued',
      issueDate,
      saleDate: input.saleDate ?? issueDate,
      placeOfIssue: settings.placeOfIssue,
      currency: input.currency,
      priceBasis: input.priceBasis,
      vatTreatment: treatment,
      exemptionBasis,
      exchangeRate: input.exchangeRate
        ? JSON.stringify({
            currency: input.currency,
            rateTenThousandths: parseExchangeRate(input.exchangeRate.rate),
            table: input.exchangeRate.table,
            date: input.exchangeRate.date,
          })
        : null,
      seller: JSON.stringify(seller),
      buyer: JSON.stringify(input.buyer),
      recipient: input.recipient ? JSON.stringify(input.recipient) : null,
      buyerName: input.buyer.name,
      buyerTaxId: input.buyer.taxId,
      clientId: input.buyer.clientId,
      orderId: input.orderId,
      receiptId: input.receipt?.receiptId ?? null,
      receipt: input.receipt ? JSON.stringify(input.receipt) : null,
      paymentMethod: input.paymentMethod,
      paymentSplit: input.paymentSplit?.length ? JSON.stringify(input.paymentSplit) : null,
      paymentTermDays: termDays,
      paymentDueDate: paymentDueDate(issueDate, termDays),
      paidAmount: paid,
      netTotal: totals.net,
      vatTotal: totals.vat,
      grossTotal: totals.gross,
      rates: JSON.stringify(totals.rates.map((r) => ({ ...r, vatRate: invoiceVatRateKey(r.vatRate) }))),
      remarks: input.remarks,
      language: input.buyer.country === 'PL' ? 'pl' : 'pl-en',
      issuedBy: actorId,
      createdAt: now,
      updatedAt: now,
    });
  } catch (err) {
    if ((err as { constraint?: string }).constraint === 'invoices_one_per_order')
      throw new AppError('invoice.orderAlreadyInvoiced', { message: 'this order already has an invoice' });
    throw err;
  }
  await trx('invoice_lines').insert(totals.lines.map((l, i) => lineRow(studio.id, id, 'line', l, i)));
  await queueKsefSend(trx, studio.id, id, now);
  return id;
}

async function assertClientOf(db: Db, studioId: string, clientId: string | null): Promise<void> {
  if (!clientId) return;
  const row = await db('memberships').where({ studioId, userId: clientId, isClient: true }).first('id');
  if (!row) throw AppError.invalid({ 'buyer.clientId': ['not a client of this studio'] });
}

export async function issueInvoice(
  trx: Trx,
  studio: Studio,
  actorId: string,
  input: InvoiceIssueInput,
  now: Date,
): Promise<string> {
  await assertClientOf(trx, studio.id, input.buyer.clientId);
  return issue(
    trx,
    studio,
    actorId,
    {
      ...input,
      currency: input.currency ?? studio.currency,
      orderId: null,
    },
    now,
  );
}
