import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { InvoiceCorrectiveInputSchema } from '../../../../shared/contracts/api/invoices';
import { computeReceiptTotals, type ReceiptLineInput } from '../../../../shared/domain/receipts';
import { PaymentMethod } from '../../../../shared/enums';
import type { Studio } from '../identity/studio.model';
import { correctInvoice } from '../invoices/invoice-corrections.service';
import { issue } from '../invoices/invoice-issue.service';

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
  let first: { id: string; lines: typeof INVOICE_LINES } | null = null;
  for (let day = 0; day < 90; day++) {
    const at = new Date(start.getTime() + day * DAY + 10 * 3_600_000);
    const weekday = at.getUTCDay();
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
    for (let n = 0; n < 2 + (day % 3); n++) {
      const lines = BASKETS[(day + n) % BASKETS.length]!;
      const totals = computeReceiptTotals({ lines });
      const printedAt = new Date(at.getTime() + n * 3_600_000);
      await trx('fiscal_documents').insert({
        id: uuidv7(),
        studioId: studio.id,
        saleId: uuidv7(),
        stationSlug: 'recepcja',
        status: 'printed',
        receiptNumber: day * 4 + n + 1,
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
      });
    }
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
