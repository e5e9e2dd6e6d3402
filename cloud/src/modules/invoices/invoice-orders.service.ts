import {
  REVERSE_CHARGE_MESSAGES,
  type InvoiceFromOrderInput,
  type InvoiceOrderDraft,
} from '../../../../shared/contracts/api/invoices';
import {
  computeInvoiceTotals,
  type InvoiceLineInput,
  type VatTreatment,
} from '../../../../shared/domain/invoices';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { parseVatRate } from '../../../../shared/domain/orders';
import { spreadDiscount } from '../../../../shared/domain/receipts/receipt-totals';
import { compareVatRates, vatRateKey, type VatRate } from '../../../../shared/domain/receipts/vat-rate';
import { formatQuantity } from '../../../../shared/domain/receipts/quantity';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  invoiceRef,
  presentSettings,
  type BuyerSnapshot,
  type InvoiceRef,
  type InvoiceRow,
} from './invoices.presenter';

import { selectInvoices, type Trx } from './invoices.rows';
import { settingsRow } from './invoice-settings.service';
import { issue } from './invoice-issue.service';
import { receiptBlock, receiptForInvoice, receiptOfOrder } from './invoice-receipts';

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
  const order: OrderForInvoice | undefined = await db('client_orders as o')
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
    );
  if (!order) throw AppError.notFound('order');
  const lines: {
    kind: string;
    name: string;
    nameTexts: LocaleText | null;
    quantity: number;
    unitPrice: number;
    vatRate: string;
    total: number;
  }[] = await db('client_order_lines')
    .where({ orderId })
    .orderBy('position')
    .select('kind', 'name', 'nameTexts', 'quantity', 'unitPrice', 'vatRate', 'total');
  return { order, lines };
}

/**
 * The invoice lines of an order, gross-priced as the order was. The voucher discount and negative
 * fee lines are spread the way the fiscal receipt spreads them: first over the VAT rates in
 * proportion (`spreadDiscount`, the receipt's rule), then within each rate over its lines (largest
 * remainder, to the grosz). So each rate's gross equals what the receipt stores for it, and the
 * invoice's gross equals what the client owes. When the sale was receipted, `receiptRates` (the
 * printed receipt's per-rate totals) are taken as they are. A line whose discounted value does not
 * divide by its quantity becomes two lines of the same name: some units at p, the rest at p + 1 grosz.
 */
/** An invoice is Polish, or bilingual (Polish and English) for a buyer abroad (invoice-issue.service). */
export type InvoiceLanguage = 'pl' | 'pl-en';
export const invoiceLanguageFor = (buyerCountry: string): InvoiceLanguage =>
  buyerCountry === 'PL' ? 'pl' : 'pl-en';

/** Units of measure in the invoice's language (issue 25: never "usł." on an English line alone). */
export const INVOICE_UNITS: Record<InvoiceLanguage, Record<'piece' | 'service', string>> = {
  pl: { piece: 'szt.', service: 'usł.' },
  'pl-en': { piece: 'szt./pcs', service: 'usł./service' },
};

/**
 * A line's name in the invoice's language: the catalogue's Polish name (and, on a bilingual invoice,
 * " / " its English one when it differs), whatever language the buyer shopped in; a line kept before
 * names were stored per language (or with none: fees, top-ups) keeps the name it was sold under.
 */
export function invoiceLineName(
  line: { name: string; nameTexts?: LocaleText | null },
  language: InvoiceLanguage,
): string {
  if (!line.nameTexts) return line.name;
  const pl = resolveLocaleText(line.nameTexts, 'pl', 'pl') || line.name;
  if (language === 'pl') return pl;
  const en = resolveLocaleText(line.nameTexts, 'en', 'en');
  return en && en !== pl ? `${pl} / ${en}`.slice(0, 300) : pl;
}

export function orderInvoiceLines(
  lines: {
    kind: string;
    name: string;
    nameTexts?: LocaleText | null;
    quantity: number;
    unitPrice: number;
    vatRate: string;
    total: number;
  }[],
  discount: number,
  receiptRates?: readonly { vatRate: VatRate; total: number }[],
  language: InvoiceLanguage = 'pl',
): InvoiceLineInput[] {
  const positive = lines.filter((l) => l.total >= 0);
  const reduction = discount + lines.filter((l) => l.total < 0).reduce((a, l) => a - l.total, 0);
  const base = positive.reduce((a, l) => a + l.total, 0);
  const rateOfLine = positive.map((l) => parseVatRate(l.vatRate) ?? 'exempt');
  const groups = [...new Set(rateOfLine.map(vatRateKey))]
    .map((key) => {
      const indexes = rateOfLine.flatMap((r, i) => (vatRateKey(r) === key ? [i] : []));
      return {
        key,
        vatRate: rateOfLine[indexes[0]!]!,
        indexes,
        sum: indexes.reduce((a, i) => a + positive[i]!.total, 0),
      };
    })
    .sort((a, b) => compareVatRates(a.vatRate, b.vatRate));
  const rateShares = receiptRates
    ? groups.map((g) => {
        const printed = receiptRates.find((r) => vatRateKey(r.vatRate) === g.key)?.total ?? 0;
        if (printed > g.sum)
          throw new Error(`the receipt's ${g.key} total ${printed} exceeds the order's ${g.sum}`);
        return g.sum - printed;
      })
    : spreadDiscount(
        Math.min(reduction, base),
        groups.map((g) => g.sum),
      );
  const shares = positive.map(() => 0);
  groups.forEach((g, gi) => {
    const within = spreadDiscount(
      rateShares[gi]!,
      g.indexes.map((i) => positive[i]!.total),
    );
    g.indexes.forEach((i, k) => (shares[i] = within[k]!));
  });
  return positive.flatMap((line, i) => {
    const vatRate = parseVatRate(line.vatRate) ?? 'exempt';
    const unit = INVOICE_UNITS[language][line.kind === 'product' ? 'piece' : 'service'];
    const description = invoiceLineName(line, language);
    const value = line.total - shares[i]!;
    // The value may no longer divide by the quantity: the line splits into units at p and units at
    // p + 1 grosz (same name, same unit), so the quantity and the name stay what was sold.
    const low = Math.floor(value / line.quantity);
    const high = value - low * line.quantity;
    const part = (quantity: number, unitPrice: number): InvoiceLineInput => ({
      description,
      quantity: String(quantity),
      unit,
      unitPrice,
      vatRate,
    });
    if (!(line.quantity >= 1)) return [part(1, value)];
    if (high === 0) return [part(line.quantity, low)];
    return [part(line.quantity - high, low), part(high, low + 1)];
  });
}

/**
 * How an order was paid when it was paid several ways (issue 26): the succeeded payments less their
 * successful refunds, summed per method, largest first; null when one method paid it all.
 */
export async function orderPaymentSplit(
  db: Db,
  orderId: string,
): Promise<{ method: number; amount: number }[] | null> {
  const rows = (await db('client_order_payments as p')
    .where({ 'p.orderId': orderId, 'p.status': 'succeeded' })
    .groupBy('p.method')
    .select(
      'p.method',
      db.raw(
        `sum(p.amount - coalesce((select sum(r.amount) from client_order_refunds r
           where r.payment_id = p.id and r.status = 'success'), 0))::int as amount`,
      ),
    )) as { method: number; amount: number }[];
  const split = rows.filter((r) => r.amount > 0).sort((a, b) => b.amount - a.amount || a.method - b.method);
  return split.length > 1 ? split : null;
}

function orderSaleDate(studio: Studio, order: OrderForInvoice): string {
  return localDateOf(new Date(order.paidAt ?? order.createdAt), studio.timeZone);
}

async function issuedInvoiceOfOrder(db: Db, studioId: string, orderId: string): Promise<InvoiceRef | null> {
  const row: InvoiceRow | undefined = await selectInvoices(db, studioId)
    .where({ 'i.order_id': orderId, 'i.kind': 'invoice', 'i.status': 'issued' })
    .first();
  return row ? invoiceRef(row) : null;
}

export async function orderDraft(db: Db, studio: Studio, orderId: string): Promise<InvoiceOrderDraft> {
  const { order, lines } = await orderForInvoice(db, studio.id, orderId, false);
  const existing = await issuedInvoiceOfOrder(db, studio.id, orderId);
  const settings = await settingsRow(db, studio);
  const receipt = await receiptOfOrder(db, studio.id, orderId);
  const block = receiptBlock(receipt);
  const printed = receipt?.status === 'printed' && !block ? receipt : null;
  const invoiceLines = orderInvoiceLines(lines, order.discount, printed?.totals.vatGroups);
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
        : block;
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
      // A receipt that carries the buyer's NIP names the buyer the invoice must have.
      taxId: printed ? printed.buyerNip : (last?.buyer.taxId ?? null),
      email: last?.buyer.email ?? order.email,
      clientId: order.clientId,
    },
    receipt: receipt
      ? {
          status: receipt.status,
          number: receipt.receiptNumber,
          date: receipt.printedAt ? localDateOf(new Date(receipt.printedAt), studio.timeZone) : null,
          printerName: receipt.printerName,
          stationSlug: receipt.stationSlug,
          buyerNip: receipt.buyerNip,
        }
      : null,
    saleDate: orderSaleDate(studio, order),
    paymentMethod: order.method ?? PaymentMethod.bankTransfer,
    paymentSplit: await orderPaymentSplit(db, orderId),
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
  if (input.vatTreatment === 'reverseCharge' && lines.some((l) => l.kind === 'product' && l.total > 0))
    throw AppError.invalid({ vatTreatment: [REVERSE_CHARGE_MESSAGES.goods] });
  // The buyer's tax id as the contract normalised it (a Polish NIP is its ten digits).
  const orderReceipt = await receiptOfOrder(trx, studio.id, orderId, true);
  const receipt = receiptForInvoice(studio, orderReceipt, input.buyer.taxId);
  // A receipted sale's invoice takes its per-rate totals from the receipt as printed.
  const invoiceLines = orderInvoiceLines(
    lines,
    order.discount,
    receipt ? orderReceipt!.totals.vatGroups : undefined,
    invoiceLanguageFor(input.buyer.country),
  );
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
      paymentSplit: await orderPaymentSplit(trx, orderId),
      paymentTermDays: input.paymentTermDays,
      paidAmount: Math.max(0, order.paid),
      clipPaid: true,
      remarks: input.remarks,
      lines: invoiceLines,
      orderId,
      receipt,
    },
    now,
  );
}
