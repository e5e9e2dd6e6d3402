import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type {
  ClientInvoiceList,
  ClientInvoiceListQuery,
  InvoiceCorrectiveInput,
  InvoiceFromOrderInput,
  InvoiceIssueInput,
  InvoiceList,
  InvoiceListQuery,
  InvoiceOrderDraft,
  InvoiceSettingsInput,
  InvoiceSettingsView,
  InvoiceView,
} from '../../../../shared/contracts/api/invoices';
import {
  computeCorrection,
  computeInvoiceTotals,
  correctionProblems,
  DEFAULT_EXEMPTION_BASIS,
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
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { parseVatRate } from '../../../../shared/domain/orders';
import { spreadDiscount } from '../../../../shared/domain/receipts/receipt-totals';
import { formatQuantity } from '../../../../shared/domain/receipts/quantity';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/studio.model';
import {
  invoiceRef,
  presentInvoice,
  presentLine,
  presentClientInvoice,
  presentListItem,
  presentSettings,
  type BuyerSnapshot,
  type InvoiceLineRow,
  type InvoiceRef,
  type InvoiceRow,
  type SellerSnapshot,
  type SettingsRow,
} from './invoices.presenter';

type Trx = Knex.Transaction;

export const todayOf = (studio: Studio, now: Date) => localDateOf(now, studio.timeZone);

// `date` columns come back as text ('YYYY-MM-DD'): node-pg would turn them into local-midnight Dates.
// The later column of the same name wins in node-pg's row object.
const INVOICE_COLUMNS = [
  'i.*',
  'i.issue_date::text as issue_date',
  'i.sale_date::text as sale_date',
  'i.payment_due_date::text as payment_due_date',
];

function selectInvoices(db: Db, studioId: string) {
  return db('invoices as i')
    .where('i.studio_id', studioId)
    .select(INVOICE_COLUMNS.map((c) => db.raw(c)));
}

export async function invoiceRow(db: Db, studioId: string, id: string, lock = false): Promise<InvoiceRow> {
  const q = selectInvoices(db, studioId).where('i.id', id).first();
  if (lock) q.forUpdate();
  const row = (await q) as InvoiceRow | undefined;
  if (!row) throw AppError.notFound('invoice');
  return row;
}

// ------------------------------------------------------------------------------------ settings

export async function settingsRow(db: Db, studio: Studio): Promise<SettingsRow> {
  const row = (await db('studio_invoice_settings').where({ studioId: studio.id }).first()) as
    SettingsRow | undefined;
  // Until saved, the studio's own name and address stand in; the NIP has no default.
  return (
    row ?? {
      sellerName: studio.name,
      addressLine: studio.addressLine,
      postalCode: studio.postalCode,
      city: studio.city,
      country: studio.country,
      taxId: null,
      iban: null,
      bankName: '',
      placeOfIssue: studio.city,
      paymentTermDays: 14,
      vatExempt: false,
      vatExemptionBasis: '',
    }
  );
}

export async function invoiceSettings(db: Db, studio: Studio): Promise<InvoiceSettingsView> {
  return presentSettings(await settingsRow(db, studio));
}

export async function saveInvoiceSettings(
  trx: Trx,
  studio: Studio,
  input: InvoiceSettingsInput,
  now: Date,
): Promise<InvoiceSettingsView> {
  const row = {
    studioId: studio.id,
    sellerName: input.sellerName,
    addressLine: input.addressLine,
    postalCode: input.postalCode,
    city: input.city,
    country: input.country,
    taxId: input.taxId,
    iban: input.iban,
    bankName: input.bankName,
    placeOfIssue: input.placeOfIssue,
    paymentTermDays: input.paymentTermDays,
    vatExempt: input.vatExempt,
    vatExemptionBasis: input.vatExemptionBasis,
    updatedAt: now,
  };
  await trx('studio_invoice_settings').insert(row).onConflict('studio_id').merge();
  return invoiceSettings(trx, studio);
}

// ------------------------------------------------------------------------------------ numbering

/**
 * The next number of a series. The upsert takes the series row's lock until the transaction ends:
 * concurrent issues queue here, and a rolled-back issue gives its number back (no gaps).
 */
async function takeNumber(trx: Trx, studioId: string, kind: InvoiceKind, year: number): Promise<number> {
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
  const row = (await db('invoice_number_series').where({ studioId, kind, year }).first('lastNumber')) as
    { lastNumber: number } | undefined;
  return formatInvoiceNumber({ kind, year, sequence: (row?.lastNumber ?? 0) + 1 });
}

// ------------------------------------------------------------------------------------ issuing

function lineFields(error: InvoiceInputError, prefix = ''): FieldErrors {
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

function totalsOrInvalid(input: Parameters<typeof computeInvoiceTotals>[0]): InvoiceTotals {
  try {
    return computeInvoiceTotals(input);
  } catch (err) {
    if (err instanceof InvoiceInputError) throw AppError.invalid(lineFields(err));
    throw err;
  }
}

const lineRow = (
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

interface IssueCore {
  buyer: BuyerSnapshot;
  recipient: InvoiceIssueInput['recipient'];
  saleDate?: string;
  priceBasis: PriceBasis;
  vatTreatment?: VatTreatment;
  exemptionBasis?: string | null;
  currency: string;
  exchangeRate: InvoiceIssueInput['exchangeRate'];
  paymentMethod: number;
  paymentTermDays?: number;
  paidAmount: number;
  /** An order's payments count up to the invoice total; a typed-in amount above it is refused. */
  clipPaid?: boolean;
  remarks: string;
  lines: InvoiceLineInput[];
  orderId: string | null;
}

async function issue(
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
  const seller: SellerSnapshot = {
    name: settings.sellerName,
    addressLine: settings.addressLine,
    postalCode: settings.postalCode,
    city: settings.city,
    country: settings.country,
    taxId: settings.taxId,
    iban: settings.iban,
    bankName: settings.bankName,
  };
  const exemptionBasis =
    treatment === 'exempt' || totals.rates.some((r) => r.vatRate === 'exempt')
      ? input.exemptionBasis?.trim() || settings.vatExemptionBasis.trim() || DEFAULT_EXEMPTION_BASIS
      : null;
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
      paymentMethod: input.paymentMethod,
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

// ------------------------------------------------------------------------------------ from an order

/** Orders that may get an invoice: money owed or paid, not given up on. */
const INVOICEABLE_STATUSES: ReadonlySet<number> = new Set([
  OrderStatus.pending,
  OrderStatus.paid,
  OrderStatus.unpaid,
  OrderStatus.awaiting,
  OrderStatus.scheduled,
  OrderStatus.authorizationAllowed,
]);

interface OrderForInvoice {
  id: string;
  clientId: string | null;
  status: number;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  paidAt: Date | null;
  createdAt: Date;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  paid: number;
  method: number | null;
}

async function orderForInvoice(db: Db, studioId: string, orderId: string, lock: boolean) {
  if (lock) {
    // Serialises issuing for one order (the unique index is the backstop).
    const locked = await db('client_orders').where({ studioId, id: orderId }).forUpdate().first('id');
    if (!locked) throw AppError.notFound('order');
  }
  const order = (await db('client_orders as o')
    .leftJoin('users as u', 'u.id', 'o.client_id')
    .where({ 'o.studio_id': studioId, 'o.id': orderId })
    .first(
      'o.id',
      'o.client_id',
      'o.status',
      'o.currency',
      'o.subtotal',
      'o.discount',
      'o.total',
      'o.paid_at',
      'o.created_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      db.raw(
        `(coalesce((select sum(p.amount) from client_order_payments p where p.order_id = o.id and p.status = 'succeeded'), 0)
          - coalesce((select sum(r.amount) from client_order_refunds r where r.order_id = o.id and r.status = 'success'), 0))::int as paid`,
      ),
      db.raw(
        `(select p.method from client_order_payments p where p.order_id = o.id and p.status = 'succeeded'
          order by p.amount desc, p.id limit 1) as method`,
      ),
    )) as OrderForInvoice | undefined;
  if (!order) throw AppError.notFound('order');
  const lines = (await db('client_order_lines')
    .where({ orderId })
    .orderBy('position')
    .select('kind', 'name', 'quantity', 'unitPrice', 'vatRate', 'total')) as {
    kind: string;
    name: string;
    quantity: number;
    unitPrice: number;
    vatRate: string;
    total: number;
  }[];
  return { order, lines };
}

/**
 * The invoice lines of an order, gross-priced as the order was. The voucher discount and negative
 * fee lines are spread over the other lines in proportion (largest remainder, to the grosz), so the
 * invoice's gross equals what the client owes. A line whose discounted value does not divide by its
 * quantity is invoiced as one unit of the whole value.
 */
export function orderInvoiceLines(
  lines: {
    kind: string;
    name: string;
    quantity: number;
    unitPrice: number;
    vatRate: string;
    total: number;
  }[],
  discount: number,
): InvoiceLineInput[] {
  const positive = lines.filter((l) => l.total >= 0);
  const reduction = discount + lines.filter((l) => l.total < 0).reduce((a, l) => a - l.total, 0);
  const base = positive.reduce((a, l) => a + l.total, 0);
  const shares = spreadDiscount(
    Math.min(reduction, base),
    positive.map((l) => l.total),
  );
  return positive.map((line, i) => {
    const vatRate = parseVatRate(line.vatRate) ?? 'exempt';
    const unit = line.kind === 'product' ? 'szt.' : 'usł.';
    const value = line.total - shares[i]!;
    if (shares[i] === 0 || value % line.quantity === 0)
      return {
        description: line.name,
        quantity: String(line.quantity),
        unit,
        unitPrice: value / line.quantity,
        vatRate,
      };
    return {
      description: `${line.name} (${line.quantity} ${unit})`,
      quantity: '1',
      unit,
      unitPrice: value,
      vatRate,
    };
  });
}

function orderSaleDate(studio: Studio, order: OrderForInvoice): string {
  return localDateOf(new Date(order.paidAt ?? order.createdAt), studio.timeZone);
}

async function issuedInvoiceOfOrder(db: Db, studioId: string, orderId: string): Promise<InvoiceRef | null> {
  const row = (await selectInvoices(db, studioId)
    .where({ 'i.order_id': orderId, 'i.kind': 'invoice', 'i.status': 'issued' })
    .first()) as InvoiceRow | undefined;
  return row ? invoiceRef(row) : null;
}

export async function orderDraft(db: Db, studio: Studio, orderId: string): Promise<InvoiceOrderDraft> {
  const { order, lines } = await orderForInvoice(db, studio.id, orderId, false);
  const existing = await issuedInvoiceOfOrder(db, studio.id, orderId);
  const settings = await settingsRow(db, studio);
  const invoiceLines = orderInvoiceLines(lines, order.discount);
  const treatment: VatTreatment = settings.vatExempt ? 'exempt' : 'standard';
  const totals =
    invoiceLines.length > 0
      ? computeInvoiceTotals({ basis: 'gross', lines: invoiceLines, treatment })
      : { lines: [], rates: [], net: 0, vat: 0, gross: 0 };
  // The address of the client's last invoice, so a returning buyer is not typed in again.
  const last = order.clientId
    ? ((await db('invoices')
        .where({ studioId: studio.id, clientId: order.clientId })
        .orderBy('id', 'desc')
        .first('buyer')) as { buyer: BuyerSnapshot } | undefined)
    : undefined;
  const name = [order.firstName, order.lastName].filter(Boolean).join(' ');
  const reason = existing
    ? 'alreadyInvoiced'
    : !INVOICEABLE_STATUSES.has(order.status)
      ? 'orderStatus'
      : invoiceLines.length === 0
        ? 'nothingToInvoice'
        : null;
  return {
    order: {
      id: order.id,
      reference: order.id.slice(-8).toUpperCase(),
      status: order.status,
      currency: order.currency,
      total: order.total,
      paid: Math.max(0, order.paid),
      createdAt: new Date(order.createdAt).toISOString(),
    },
    invoiceable: reason === null,
    reason,
    existingInvoice: existing,
    buyer: {
      name: last?.buyer.name ?? name,
      addressLine: last?.buyer.addressLine ?? '',
      postalCode: last?.buyer.postalCode ?? '',
      city: last?.buyer.city ?? '',
      country: last?.buyer.country ?? 'PL',
      taxId: last?.buyer.taxId ?? null,
      email: last?.buyer.email ?? order.email,
      clientId: order.clientId,
    },
    saleDate: orderSaleDate(studio, order),
    paymentMethod: order.method ?? PaymentMethod.bankTransfer,
    lines: totals.lines.map((l, i) => ({
      position: i + 1,
      description: l.description,
      quantity: formatQuantity(l.quantityThousandths),
      unit: l.unit,
      unitPrice: l.unitPrice,
      vatRate: l.vatRate,
      net: l.net,
      vat: l.vat,
      gross: l.gross,
    })),
    rates: totals.rates,
    totals: { net: totals.net, vat: totals.vat, gross: totals.gross },
    settings: presentSettings(settings),
  };
}

export async function issueInvoiceForOrder(
  trx: Trx,
  studio: Studio,
  actorId: string,
  orderId: string,
  input: InvoiceFromOrderInput,
  now: Date,
): Promise<string> {
  const { order, lines } = await orderForInvoice(trx, studio.id, orderId, true);
  if (!INVOICEABLE_STATUSES.has(order.status))
    throw new AppError('invoice.orderNotInvoiceable', {
      message: 'only a paid or payable order can be invoiced',
    });
  if (await issuedInvoiceOfOrder(trx, studio.id, orderId))
    throw new AppError('invoice.orderAlreadyInvoiced', { message: 'this order already has an invoice' });
  const invoiceLines = orderInvoiceLines(lines, order.discount);
  if (invoiceLines.length === 0)
    throw new AppError('invoice.orderNotInvoiceable', { message: 'the order has nothing to invoice' });
  // The order's client is the buyer's client: another client id would file the invoice elsewhere.
  const buyer = { ...input.buyer, clientId: order.clientId };
  return issue(
    trx,
    studio,
    actorId,
    {
      buyer,
      recipient: input.recipient,
      saleDate: input.saleDate ?? orderSaleDate(studio, order),
      priceBasis: 'gross',
      vatTreatment: input.vatTreatment,
      exemptionBasis: input.exemptionBasis,
      currency: order.currency,
      exchangeRate: null,
      paymentMethod: input.paymentMethod ?? order.method ?? PaymentMethod.bankTransfer,
      paymentTermDays: input.paymentTermDays,
      paidAmount: Math.max(0, order.paid),
      clipPaid: true,
      remarks: input.remarks,
      lines: invoiceLines,
      orderId,
    },
    now,
  );
}

// ------------------------------------------------------------------------------------ corrections

const asInput = (l: InvoiceLineRow): InvoiceLineInput => ({
  description: l.description,
  quantity: { thousandths: l.quantityThousandths },
  unit: l.unit,
  unitPrice: l.unitPrice,
  vatRate: presentLine(l).vatRate,
});

/** The invoice as it stands now: its own lines and buyer, or those after its latest correction. */
async function currentState(db: Db, invoice: InvoiceRow) {
  const latest = (await db('invoices')
    .where({ correctedInvoiceId: invoice.id, status: 'issued' })
    .orderBy('id', 'desc')
    .first('id', 'buyer')) as { id: string; buyer: BuyerSnapshot } | undefined;
  const lines = (await db('invoice_lines')
    .where(latest ? { invoiceId: latest.id, side: 'after' } : { invoiceId: invoice.id, side: 'line' })
    .orderBy('position')) as InvoiceLineRow[];
  return { lines, buyer: latest?.buyer ?? invoice.buyer };
}

export async function correctInvoice(
  trx: Trx,
  studio: Studio,
  actorId: string,
  invoiceId: string,
  input: InvoiceCorrectiveInput,
  now: Date,
): Promise<string> {
  const original = await invoiceRow(trx, studio.id, invoiceId, true);
  if (original.kind === 'corrective')
    throw new AppError('invoice.correctiveNotCorrectable', {
      message: 'correct the original invoice, not its correction',
    });
  if (original.status === 'cancelled')
    throw new AppError('invoice.cancelledNotCorrectable', {
      message: 'a cancelled invoice cannot be corrected',
    });
  const state = await currentState(trx, original);
  const shape = correctionProblems(state.lines.length, input.lines);
  if (shape.length > 0)
    throw AppError.invalid({ lines: ['list every line of the invoice (quantity 0 takes a line back)'] });
  let correction;
  try {
    correction = computeCorrection({
      basis: original.priceBasis,
      treatment: original.vatTreatment,
      before: state.lines.map(asInput),
      after: input.lines,
    });
  } catch (err) {
    if (err instanceof InvoiceInputError) throw AppError.invalid(lineFields(err));
    throw err;
  }
  const buyerChanged =
    input.buyer !== undefined && JSON.stringify(input.buyer) !== JSON.stringify(state.buyer);
  if (!correction.changed && !buyerChanged)
    throw new AppError('invoice.correctionNoChange', {
      message: 'the correction changes nothing',
      fields: { lines: ['the correction changes nothing'] },
    });
  const issueDate = todayOf(studio, now);
  const year = invoiceSeriesYear(issueDate);
  const sequence = await takeNumber(trx, studio.id, 'corrective', year);
  const id = uuidv7();
  const buyer: BuyerSnapshot = input.buyer
    ? { ...input.buyer, clientId: input.buyer.clientId ?? original.clientId }
    : state.buyer;
  await trx('invoices').insert({
    id,
    studioId: studio.id,
    kind: 'corrective',
    number: formatInvoiceNumber({ kind: 'corrective', year, sequence }),
    seriesYear: year,
    sequence,
    status: 'issued',
    issueDate,
    saleDate: original.saleDate,
    placeOfIssue: original.placeOfIssue,
    currency: original.currency,
    priceBasis: original.priceBasis,
    vatTreatment: original.vatTreatment,
    exemptionBasis: original.exemptionBasis,
    exchangeRate: original.exchangeRate ? JSON.stringify(original.exchangeRate) : null,
    seller: JSON.stringify(original.seller),
    buyer: JSON.stringify(buyer),
    buyerBefore: buyerChanged ? JSON.stringify(state.buyer) : null,
    recipient: original.recipient ? JSON.stringify(original.recipient) : null,
    buyerName: buyer.name,
    buyerTaxId: buyer.taxId,
    clientId: original.clientId,
    orderId: original.orderId,
    paymentMethod: original.paymentMethod,
    paymentTermDays: original.paymentTermDays,
    paymentDueDate: paymentDueDate(issueDate, original.paymentTermDays),
    paidAmount: 0,
    netTotal: correction.difference.net,
    vatTotal: correction.difference.vat,
    grossTotal: correction.difference.gross,
    rates: JSON.stringify(correction.rates.map((r) => ({ ...r, vatRate: invoiceVatRateKey(r.vatRate) }))),
    remarks: '',
    language: original.language,
    correctedInvoiceId: original.id,
    correctionReason: input.reason,
    issuedBy: actorId,
    createdAt: now,
    updatedAt: now,
  });
  await trx('invoice_lines').insert([
    ...correction.before.lines.map((l, i) => lineRow(studio.id, id, 'before', l, i)),
    ...correction.after.lines.map((l, i) => lineRow(studio.id, id, 'after', l, i)),
  ]);
  return id;
}

// ------------------------------------------------------------------------------------ cancelling

/**
 * Cancels an invoice that should not have been issued (wrong buyer, issued twice). Its number stays
 * taken: the series has no gap, the document is marked cancelled. An invoice with corrections, or a
 * correction that a later one builds on, cannot be cancelled.
 */
export async function cancelInvoice(
  trx: Trx,
  studio: Studio,
  actorId: string,
  invoiceId: string,
  reason: string,
  now: Date,
): Promise<void> {
  const invoice = await invoiceRow(trx, studio.id, invoiceId, true);
  if (invoice.status === 'cancelled')
    throw new AppError('invoice.alreadyCancelled', { message: 'the invoice is already cancelled' });
  const later =
    invoice.kind === 'invoice'
      ? await trx('invoices').where({ correctedInvoiceId: invoice.id, status: 'issued' }).first('id')
      : await trx('invoices')
          .where({ correctedInvoiceId: invoice.correctedInvoiceId, status: 'issued' })
          .where('id', '>', invoice.id)
          .first('id');
  if (later)
    throw new AppError('invoice.hasCorrections', {
      message: 'cancel its corrections first (newest first)',
    });
  await trx('invoices').where({ id: invoice.id }).update({
    status: 'cancelled',
    cancelledAt: now,
    cancelledBy: actorId,
    cancelReason: reason,
    updatedAt: now,
  });
}

// ------------------------------------------------------------------------------------ reading

export async function invoiceDetail(db: Db, studio: Studio, id: string, now: Date): Promise<InvoiceView> {
  const row = await invoiceRow(db, studio.id, id);
  const lines = (await db('invoice_lines')
    .where({ invoiceId: id })
    .orderBy(['side', 'position'])) as InvoiceLineRow[];
  const corrected = row.correctedInvoiceId ? await invoiceRow(db, studio.id, row.correctedInvoiceId) : null;
  const corrections = (await selectInvoices(db, studio.id)
    .where('i.corrected_invoice_id', row.kind === 'invoice' ? id : '00000000-0000-0000-0000-000000000000')
    .orderBy('i.id')) as InvoiceRow[];
  const issuer = row.issuedBy
    ? ((await db('users').where({ id: row.issuedBy }).first('id', 'firstName', 'lastName')) as
        { id: string; firstName: string; lastName: string } | undefined)
    : undefined;
  return presentInvoice(row, lines, {
    studioUuid: studio.id,
    today: todayOf(studio, now),
    correctedInvoice: corrected ? invoiceRef(corrected) : null,
    corrections: corrections.map(invoiceRef),
    issuedBy: issuer ? { id: issuer.id, name: `${issuer.firstName} ${issuer.lastName}`.trim() } : null,
  });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listInvoices(db: Db, studio: Studio, query: InvoiceListQuery): Promise<InvoiceList> {
  const q = selectInvoices(db, studio.id)
    .leftJoin('invoices as c', 'c.id', 'i.corrected_invoice_id')
    .select('c.number as corrected_invoice_number')
    .orderBy('i.id', 'desc')
    .limit(query.limit + 1);
  if (query.status !== 'all') q.where('i.status', query.status);
  if (query.kind !== 'all') q.where('i.kind', query.kind);
  if (query.from) q.where('i.issue_date', '>=', query.from);
  if (query.to) q.where('i.issue_date', '<=', query.to);
  if (query.cursor) {
    if (!/^[0-9a-f-]{36}$/i.test(query.cursor))
      throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    q.where('i.id', '<', query.cursor);
  }
  if (query.q) {
    const term = query.q.trim();
    const digits = term.replace(/[\s-]/g, '');
    q.where((w) => {
      w.whereRaw('lower(i.buyer_name) like ?', [`%${escapeLike(term.toLowerCase())}%`]).orWhereRaw(
        'i.number ilike ?',
        [`%${escapeLike(term)}%`],
      );
      if (/^(PL)?\d{3,}$/i.test(digits))
        w.orWhere('i.buyer_tax_id', 'like', `%${digits.replace(/^PL/i, '')}%`);
    });
  }
  const rows = (await q) as (InvoiceRow & { correctedInvoiceNumber: string | null })[];
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(presentListItem),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

// ------------------------------------------------------------------------------------ the client's own

/**
 * The signed-in client's own invoices, newest first: issued ones only (a cancelled invoice is void
 * and stays with the accountant), corrections included. "Own" is the invoice's `client_id`, which an
 * invoice for an order takes from the order.
 */
export async function listClientInvoices(
  db: Db,
  studio: Studio,
  clientId: string,
  query: ClientInvoiceListQuery,
): Promise<ClientInvoiceList> {
  const q = selectInvoices(db, studio.id)
    .where({ 'i.client_id': clientId, 'i.status': 'issued' })
    .leftJoin('invoices as c', 'c.id', 'i.corrected_invoice_id')
    .select('c.number as corrected_invoice_number')
    .orderBy('i.id', 'desc')
    .limit(query.limit + 1);
  if (query.cursor) q.where('i.id', '<', query.cursor);
  const rows = (await q) as (InvoiceRow & { correctedInvoiceNumber: string | null })[];
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((row) => presentClientInvoice(row, studio.id)),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

/** One of the client's own issued invoices; anyone else's (or a cancelled one) is unknown: 404. */
export async function clientInvoiceDetail(
  db: Db,
  studio: Studio,
  clientId: string,
  id: string,
  now: Date,
): Promise<InvoiceView> {
  const own = await db('invoices').where({ studioId: studio.id, id, clientId, status: 'issued' }).first('id');
  if (!own) throw AppError.notFound('invoice');
  return invoiceDetail(db, studio, id, now);
}
