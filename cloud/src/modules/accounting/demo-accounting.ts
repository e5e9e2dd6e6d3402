import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import {
  InvoiceCorrectiveInputSchema,
  InvoiceFromOrderInputSchema,
} from '../../../../shared/contracts/api/invoices';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { computeReceiptTotals, type ReceiptLineInput } from '../../../../shared/domain/receipts';
import { PaymentMethod } from '../../../../shared/enums';
import type { Studio } from '../identity/index';
import { correctInvoice } from '../invoices/index';
import { issue } from '../invoices/index';
import { issueInvoiceForOrder } from '../invoices/index';
import { createOrder } from '../sales/index';

/**
 * Demo data for the accountant (issue 19): the JPK settings, and three months of sales before today
 * so that last month's JPK_FA, JPK_V7M and sales register are not empty — invoices to companies
 * (two a week, one corrected), and the front desk's fiscal receipts (a few each weekday, printed on
 * the station "recepcja"). Invoices are issued through the invoices module (numbered in date order);
 * the receipts are the station's reports (`fiscal_documents`, printed) with the shared totals.
 */
const BUYERS = [
  {
    name: 'Fundacja Ruch i Zdrowie',
    addressLine: 'ul. Długa 5',
    postalCode: '00-238',
    city: 'Warszawa',
    taxId: '7740001454',
  },
  {
    name: 'Biuro Rachunkowe Łączka s.c.',
    addressLine: 'ul. Żurawia 12',
    postalCode: '00-503',
    city: 'Warszawa',
    taxId: '5260250274',
  },
];
const INVOICE_LINES = [
  {
    description: 'Karnet open — pakiet firmowy',
    quantity: '4',
    unit: 'usł.',
    unitPrice: 25000,
    vatRate: 2300 as const,
  },
  {
    description: 'Wynajem sali (godzina)',
    quantity: '3',
    unit: 'h',
    unitPrice: 12000,
    vatRate: 2300 as const,
  },
  { description: 'Ręcznik', quantity: '5', unit: 'szt.', unitPrice: 3000, vatRate: 800 as const },
];
const BASKETS: ReceiptLineInput[][] = [
  [{ name: 'Wejście jednorazowe', unitPrice: 4500, vatRate: 800 }],
  [
    { name: 'Karnet 4 wejścia', unitPrice: 16000, vatRate: 2300 },
    { name: 'Woda mineralna', unitPrice: 500, quantity: '2', vatRate: 500 },
  ],
  [{ name: 'Mata do jogi', unitPrice: 12900, vatRate: 2300 }],
];
const DAY = 86_400_000;

export async function seedDemoAccounting(
  trx: Knex.Transaction,
  studio: Pick<
    Studio,
    'id' | 'name' | 'timeZone' | 'currency' | 'addressLine' | 'postalCode' | 'city' | 'country'
  >,
  ownerId: string,
  now: Date,
): Promise<void> {
  await trx('studio_accounting_settings').insert({
    studioId: studio.id,
    taxOfficeCode: '1435',
    email: 'ksiegowosc@demo.studio',
    province: 'mazowieckie',
    county: 'Warszawa',
    commune: 'Śródmieście',
    street: 'Marszałkowska',
    houseNumber: '10',
    flatNumber: '4',
  });
  const start = new Date(now.getTime() - 92 * DAY);
  const today = localDateOf(now, studio.timeZone);
  const lastMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 10));
  const forReceiptDay = lastMonth.toISOString().slice(0, 10);
  let first: { id: string; lines: typeof INVOICE_LINES } | null = null;
  for (let day = 0; day < 90; day++) {
    const at = new Date(start.getTime() + day * DAY + 10 * 3_600_000);
    const weekday = at.getUTCDay();
    // On the 10th of last month a company asks for an invoice for its receipt (FP): a mat sold at the
    // desk, printed with the buyer's NIP, then invoiced to that NIP.
    if (localDateOf(at, studio.timeZone) === forReceiptDay)
      await invoiceForReceipt(
        trx,
        studio as Studio,
        ownerId,
        new Date(at.getTime() + 5 * 3_600_000),
        9000 + day,
      );
    if (weekday === 0) continue;
    if (weekday === 2 || weekday === 4) {
      const i = day % INVOICE_LINES.length;
      const lines = [INVOICE_LINES[i]!, INVOICE_LINES[(i + 2) % INVOICE_LINES.length]!];
      const id = await issue(
        trx,
        studio as Studio,
        ownerId,
        {
          buyer: { ...BUYERS[day % BUYERS.length]!, country: 'PL', email: null, clientId: null },
          recipient: null,
          priceBasis: 'gross',
          currency: 'PLN',
          exchangeRate: null,
          paymentMethod: weekday === 2 ? PaymentMethod.bankTransfer : PaymentMethod.paymentCard,
          paidAmount: weekday === 2 ? 0 : 1_000_000,
          clipPaid: true,
          remarks: '',
          lines,
          orderId: null,
        },
        at,
      );
      first ??= { id, lines };
    }
    // The desk's receipts: 2 to 4 a day.
    for (let n = 0; n < 2 + (day % 3); n++)
      await printedReceipt(
        trx,
        studio.id,
        BASKETS[(day + n) % BASKETS.length]!,
        new Date(at.getTime() + n * 3_600_000),
        day * 4 + n + 1,
      );
  }
  // One correction: the first invoice's first line was one unit too many.
  if (first)
    await correctInvoice(
      trx,
      studio as Studio,
      ownerId,
      first.id,
      InvoiceCorrectiveInputSchema.parse({
        reason: 'Błędna liczba sztuk',
        lines: first.lines.map((l, i) => (i === 0 ? { ...l, quantity: String(Number(l.quantity) - 1) } : l)),
      }),
      new Date(start.getTime() + 20 * DAY),
    );
}

/** A receipt the desk printed (the station's report: a printed fiscal document). */
async function printedReceipt(
  trx: Knex.Transaction,
  studioId: string,
  lines: ReceiptLineInput[],
  printedAt: Date,
  receiptNumber: number,
  saleId: string = uuidv7(),
  buyerNip: string | null = null,
): Promise<ReturnType<typeof computeReceiptTotals>> {
  const totals = computeReceiptTotals({ lines });
  await trx('fiscal_documents').insert({
    id: uuidv7(),
    studioId,
    saleId,
    stationSlug: 'recepcja',
    status: 'printed',
    receiptNumber,
    lines: JSON.stringify(lines),
    payments: JSON.stringify([{ type: 'card', amount: totals.total }]),
    totals: JSON.stringify(totals),
    subtotal: totals.subtotal,
    discount: totals.discount,
    total: totals.total,
    vat: totals.vat,
    currency: 'PLN',
    printedAt,
    createdAt: printedAt,
    updatedAt: printedAt,
    buyerNip,
  });
  return totals;
}

/** A desk sale printed on a receipt with the buyer's NIP, then invoiced for that receipt (FP). */
async function invoiceForReceipt(
  trx: Knex.Transaction,
  studio: Studio,
  ownerId: string,
  at: Date,
  receiptNumber: number,
): Promise<void> {
  const buyer = BUYERS[0]!;
  const lines: ReceiptLineInput[] = [{ name: 'Mata do jogi', unitPrice: 12900, vatRate: 2300 }];
  const { id: orderId } = await createOrder(trx, {
    studioId: studio.id,
    clientId: null,
    source: 'desk',
    sourceId: 'demo-invoice-for-receipt',
    status: 'paid',
    lines: [{ kind: 'product', name: 'Mata do jogi', quantity: 1, unitPriceMinor: 12900, vatRate: '2300' }],
  });
  await trx('client_orders').where({ id: orderId }).update({ paidAt: at, createdAt: at, updatedAt: at });
  await trx('client_order_payments').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId,
    method: PaymentMethod.paymentCard,
    amount: 12900,
    currency: 'PLN',
    status: 'succeeded',
    settledAt: at,
    createdAt: at,
  });
  const receiptId = uuidv7();
  const totals = computeReceiptTotals({ lines });
  await trx('retail_receipts').insert({
    id: receiptId,
    studioId: studio.id,
    stationSlug: 'recepcja',
    lines: JSON.stringify(lines),
    payments: JSON.stringify([{ type: 'card', amount: totals.total }]),
    totals: JSON.stringify(totals),
    subtotal: totals.subtotal,
    total: totals.total,
    vat: totals.vat,
    currency: 'PLN',
    printRequests: 1,
    buyerNip: buyer.taxId,
    createdAt: at,
    updatedAt: at,
  });
  await trx('retail_receipt_orders').insert({ orderId, receiptId, studioId: studio.id });
  await printedReceipt(trx, studio.id, lines, at, receiptNumber, receiptId, buyer.taxId);
  await issueInvoiceForOrder(
    trx,
    studio,
    ownerId,
    orderId,
    InvoiceFromOrderInputSchema.parse({ buyer: { ...buyer, country: 'PL' } }),
    new Date(at.getTime() + 3_600_000),
  );
}
