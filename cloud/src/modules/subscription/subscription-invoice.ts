import type { InvoiceView } from '../../../../shared/contracts/api/invoices';
import type { PlatformSeller, SubscriptionLine } from '../../../../shared/contracts/api/subscription';
import { PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { renderInvoicePdf } from '../invoices/index';
import { periodRow, type PeriodRow } from './subscription.service';

type Buyer = Omit<PlatformSeller, 'iban' | 'bankName'>;

/**
 * The platform's invoice to the studio for a paid period, in the shape the invoices module prints
 * (`renderInvoicePdf`): the platform as seller (as configured when the period was paid), the studio's
 * invoicing details as buyer, one line per plan or add-on, VAT at the platform's rate, paid online.
 * Polish, with English under each label when the studio's language is English (as the studios'
 * own invoices to foreign buyers).
 */
export function subscriptionInvoiceView(row: PeriodRow, studio: Studio): InvoiceView {
  if (row.status !== 'paid' || !row.invoiceNumber || !row.invoiceDate)
    throw new AppError('subscription.invoiceNotIssued', { message: 'the period is not paid yet' });
  const language = studio.defaultLocale === 'en' ? 'pl-en' : 'pl';
  const seller = row.seller as PlatformSeller;
  const buyer = row.buyer as Buyer;
  const date =
    typeof row.invoiceDate === 'string'
      ? row.invoiceDate
      : new Date(row.invoiceDate.getTime() - row.invoiceDate.getTimezoneOffset() * 60_000)
          .toISOString()
          .slice(0, 10);
  const lines = (row.lines as SubscriptionLine[]).map((line, i) => {
    const vat = Math.round((line.net * row.vatRate) / 10_000);
    const name = language === 'pl-en' ? `${line.name.pl} / ${line.name.en}` : line.name.pl;
    return {
      position: i + 1,
      description: `${name} (${row.period})`,
      quantity: String(line.quantity),
      unit: 'usł.',
      unitPrice: line.unitPrice,
      vatRate: row.vatRate,
      net: line.net,
      vat,
      gross: line.net + vat,
    };
  });
  // Rounding once on the total (as the period's `vat`): the last line absorbs a difference.
  const lineVat = lines.reduce((s, l) => s + l.vat, 0);
  if (lines.length > 0 && lineVat !== row.vat) {
    const last = lines[lines.length - 1]!;
    last.vat += row.vat - lineVat;
    last.gross = last.net + last.vat;
  }
  return {
    id: row.id,
    kind: 'invoice',
    number: row.invoiceNumber,
    status: 'issued',
    issueDate: date,
    saleDate: date,
    placeOfIssue: seller.city,
    currency: row.currency,
    priceBasis: 'net',
    vatTreatment: 'standard',
    language,
    seller: { ...seller },
    sellerVatExempt: false,
    buyer: { ...buyer, email: null, clientId: null },
    recipient: null,
    lines,
    rates: [{ vatRate: row.vatRate, net: row.net, vat: row.vat, gross: row.total }],
    totals: { net: row.net, vat: row.vat, gross: row.total, paid: row.total, due: 0 },
    payment: {
      method: PaymentMethod.online,
      split: null,
      termDays: 0,
      dueDate: date,
      bankTransfer: false,
      state: 'paid',
    },
    correction: null,
    corrections: [],
    notes: [],
    remarks: '',
    exchangeRate: null,
    orderId: null,
    receipt: null,
    cancellation: null,
    issuedBy: null,
    createdAt: (row.paidAt ?? row.createdAt).toISOString(),
    downloadPath: `/api/v4/${studio.id}/studio-subscription-period/${row.id}/invoice`,
  };
}

export async function subscriptionInvoicePdf(
  db: Db,
  studio: Studio,
  periodId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const row = await periodRow(db, studio.id, periodId);
  const view = subscriptionInvoiceView(row, studio);
  return { fileName: `${view.number.replace(/\//g, '-')}.pdf`, pdf: await renderInvoicePdf(view) };
}
