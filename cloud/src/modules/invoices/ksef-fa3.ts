import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { InvoiceLineView, InvoiceView } from '../../../../shared/contracts/api/invoices';
import { parseExchangeRate, vatInPln } from '../../../../shared/domain/invoices';
import { PaymentMethod } from '../../../../shared/enums';

/**
 * An invoice as a KSeF structured invoice, logical structure FA(3), schema 1-0E (the Ministry of
 * Finance's `schemat_FA(3)_v1-0E.xsd`; a copy and its sources are in `shared/spec/ksef/`). Built with
 * xmlbuilder2 (escaping, element order as the schema's sequences). Mapping decisions:
 * - Per-rate sums: 23/22 % → P_13_1/P_14_1, 8/7 % → _2, 5 % → _3, 4/3 % → _4, 0 % → P_13_6_1 ("0 KR",
 *   a domestic 0 %), exempt → P_13_7 ("zw"), reverse charge for a business in another EU country →
 *   P_13_9 ("np II", art. 28b services) and outside the EU → P_13_8 ("np I"). A foreign-currency
 *   invoice adds the VAT in złoty per rate (P_14_xW, NBP rate) and the rate on each line (KursWaluty).
 * - Gross-priced invoices (art. 106e ust. 7–8) give gross unit prices and values (P_9B, P_11A); net
 *   ones net (P_9A, P_11).
 * - Adnotacje: reverse charge sets P_18; an exempt line sets P_19 with the basis in P_19A (the act's
 *   article); everything else "no".
 * - A corrective invoice (KOR) names the corrected invoice (its KSeF number, else NrKSeFN), its reason,
 *   the buyer before the correction (Podmiot2K) when the buyer changed, the lines before (StanPrzed)
 *   and after, and the differences per rate.
 * - An invoice for a fiscal receipt is FP = 1, the receipt named in DodatkowyOpis.
 * - Payment: paid in full → Zaplacono with the date (the date of sale, or of issue when earlier); else
 *   the deadline and, for a transfer, the seller's account.
 * - A split payment (an order paid several ways, issue 26) → ZnacznikZaplatyCzesciowej with one
 *   ZaplataCzesciowa per method (amount, date, its own FormaPlatnosci or PlatnoscInna + OpisPlatnosci),
 *   and no invoice-level form: 2 ("paid in full in two or more parts") when the parts pay the invoice,
 *   else 1 ("paid in part") with the deadline, the invoice's method and account for the rest.
 */

const NS = 'http://crd.gov.pl/wzor/2025/06/25/13775/';

/** Country codes of the EU VAT area as KSeF spells them (Greece is EL). */
const EU = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'EL',
  'HR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'XI',
]);
const euCode = (country: string) => (country === 'GR' ? 'EL' : country);

export const amount = (minor: number): string => {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

type Rate = InvoiceLineView['vatRate'];

/** The FA(3) sum field suffix and line rate code of a VAT rate. */
export function ksefRate(
  rate: Rate,
  buyerCountry: string,
): { field: string; code: string; vatField?: string } {
  if (rate === 'exempt') return { field: 'P_13_7', code: 'zw' };
  if (rate === 'reverseCharge')
    return EU.has(euCode(buyerCountry)) && buyerCountry !== 'PL'
      ? { field: 'P_13_9', code: 'np II' }
      : { field: 'P_13_8', code: 'np I' };
  if (rate === 0) return { field: 'P_13_6_1', code: '0 KR' };
  const byRate: Record<number, [string, string]> = {
    2300: ['1', '23'],
    2200: ['1', '22'],
    800: ['2', '8'],
    700: ['2', '7'],
    500: ['3', '5'],
    400: ['4', '4'],
    300: ['4', '3'],
  };
  const found = byRate[rate];
  if (!found) throw new RangeError(`VAT rate ${rate / 100} % has no field in FA(3)`);
  return { field: `P_13_${found[0]}`, vatField: `P_14_${found[0]}`, code: found[1] };
}

/** FA(3) quantity: up to six decimals, no trailing zeros. */
const quantity = (q: string) => q.replace(',', '.');

function party(
  el: XMLBuilder,
  p: { name: string; addressLine: string; postalCode: string; city: string; country: string },
) {
  const a = el.ele('Adres');
  a.ele('KodKraju').txt(p.country);
  a.ele('AdresL1').txt(p.addressLine);
  a.ele('AdresL2').txt(`${p.postalCode} ${p.city}`.trim());
}

function buyerIdentity(el: XMLBuilder, buyer: InvoiceView['buyer']) {
  const id = el.ele('DaneIdentyfikacyjne');
  const code = euCode(buyer.country);
  if (buyer.taxId && buyer.country === 'PL') id.ele('NIP').txt(buyer.taxId);
  else if (buyer.taxId && EU.has(code) && buyer.taxId.startsWith(code)) {
    id.ele('KodUE').txt(code);
    id.ele('NrVatUE').txt(buyer.taxId.slice(code.length));
  } else if (buyer.taxId) {
    id.ele('KodKraju').txt(buyer.country);
    id.ele('NrID').txt(buyer.taxId);
  } else id.ele('BrakID').txt('1');
  id.ele('Nazwa').txt(buyer.name);
}

const PAYMENT_FORM: Record<number, number> = {
  [PaymentMethod.cash]: 1,
  [PaymentMethod.paymentCard]: 2,
  [PaymentMethod.terminal]: 2,
  [PaymentMethod.gift]: 3,
  [PaymentMethod.bankTransfer]: 6,
};
const PAYMENT_OTHER: Record<number, string> = {
  [PaymentMethod.online]: 'płatność online',
  [PaymentMethod.wallet]: 'portfel (przedpłata)',
};

/** FormaPlatnosci for a method FA(3) names, else PlatnoscInna with a description. */
function paymentForm(el: XMLBuilder, method: number) {
  const form = PAYMENT_FORM[method];
  if (form) el.ele('FormaPlatnosci').txt(String(form));
  else {
    el.ele('PlatnoscInna').txt('1');
    el.ele('OpisPlatnosci').txt(PAYMENT_OTHER[method] ?? 'inna');
  }
}

function lineRows(
  fa: XMLBuilder,
  lines: InvoiceLineView[],
  invoice: InvoiceView,
  options: { from: number; before: boolean },
): number {
  let n = options.from;
  const gross = invoice.priceBasis === 'gross';
  const rate = invoice.exchangeRate ? parseExchangeRate(invoice.exchangeRate.rate) : null;
  for (const line of lines) {
    const row = fa.ele('FaWiersz');
    row.ele('NrWierszaFa').txt(String(n++));
    row.ele('P_7').txt(line.description);
    if (line.unit) row.ele('P_8A').txt(line.unit);
    row.ele('P_8B').txt(quantity(line.quantity));
    row.ele(gross ? 'P_9B' : 'P_9A').txt(amount(line.unitPrice));
    row.ele(gross ? 'P_11A' : 'P_11').txt(amount(gross ? line.gross : line.net));
    row.ele('P_12').txt(ksefRate(line.vatRate, invoice.buyer.country).code);
    if (rate) row.ele('KursWaluty').txt(invoice.exchangeRate!.rate);
    if (options.before) row.ele('StanPrzed').txt('1');
  }
  return n;
}

export interface Fa3Options {
  /** When the XML is produced (DataWytworzeniaFa); defaults to the invoice's creation. */
  producedAt?: Date;
  /** The corrected invoice's KSeF number, when it is in KSeF (else NrKSeFN). */
  correctedKsefNumber?: string;
}

/** The FA(3) XML of an invoice or corrective invoice (UTF-8, with the XML declaration). */
export function invoiceFa3Xml(invoice: InvoiceView, options: Fa3Options = {}): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(NS, 'Faktura');
  const header = root.ele('Naglowek');
  header.ele('KodFormularza', { kodSystemowy: 'FA (3)', wersjaSchemy: '1-0E' }).txt('FA');
  header.ele('WariantFormularza').txt('3');
  const produced = options.producedAt ?? new Date(invoice.createdAt);
  header.ele('DataWytworzeniaFa').txt(produced.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  header.ele('SystemInfo').txt('Studio Platform');

  const seller = root.ele('Podmiot1');
  const sid = seller.ele('DaneIdentyfikacyjne');
  sid.ele('NIP').txt(invoice.seller.taxId ?? '');
  sid.ele('Nazwa').txt(invoice.seller.name);
  party(seller, invoice.seller);

  const buyer = root.ele('Podmiot2');
  buyerIdentity(buyer, invoice.buyer);
  party(buyer, invoice.buyer);
  if (invoice.buyer.email) buyer.ele('DaneKontaktowe').ele('Email').txt(invoice.buyer.email);
  buyer.ele('JST').txt('2');
  buyer.ele('GV').txt('2');

  const fa = root.ele('Fa');
  fa.ele('KodWaluty').txt(invoice.currency);
  fa.ele('P_1').txt(invoice.issueDate);
  if (invoice.placeOfIssue) fa.ele('P_1M').txt(invoice.placeOfIssue);
  fa.ele('P_2').txt(invoice.number);
  fa.ele('P_6').txt(invoice.saleDate);

  // Sums per rate, in the schema's order of fields.
  const sums = new Map<string, { net: number; vat: number; vatField?: string }>();
  for (const r of invoice.rates) {
    const k = ksefRate(r.vatRate, invoice.buyer.country);
    const s = sums.get(k.field) ?? { net: 0, vat: 0, vatField: k.vatField };
    s.net += r.net;
    s.vat += r.vat;
    sums.set(k.field, s);
  }
  const fx =
    invoice.currency !== 'PLN' && invoice.exchangeRate ? parseExchangeRate(invoice.exchangeRate.rate) : null;
  for (const field of ['P_13_1', 'P_13_2', 'P_13_3', 'P_13_4', 'P_13_6_1', 'P_13_7', 'P_13_8', 'P_13_9']) {
    const s = sums.get(field);
    if (!s) continue;
    fa.ele(field).txt(amount(s.net));
    if (s.vatField) {
      fa.ele(s.vatField).txt(amount(s.vat));
      if (fx) fa.ele(`${s.vatField}W`).txt(amount(vatInPln(s.vat, fx)));
    }
  }
  fa.ele('P_15').txt(amount(invoice.totals.gross));

  const notes = fa.ele('Adnotacje');
  notes.ele('P_16').txt('2');
  notes.ele('P_17').txt('2');
  notes.ele('P_18').txt(invoice.vatTreatment === 'reverseCharge' ? '1' : '2');
  notes.ele('P_18A').txt('2');
  const exemption = invoice.notes.find((n) => n.kind === 'vatExempt');
  const zw = notes.ele('Zwolnienie');
  if (exemption && exemption.kind === 'vatExempt') {
    zw.ele('P_19').txt('1');
    zw.ele('P_19A').txt(exemption.basis.slice(0, 256));
  } else zw.ele('P_19N').txt('1');
  notes.ele('NoweSrodkiTransportu').ele('P_22N').txt('1');
  notes.ele('P_23').txt('2');
  notes.ele('PMarzy').ele('P_PMarzyN').txt('1');

  const correction = invoice.kind === 'corrective' ? invoice.correction : null;
  fa.ele('RodzajFaktury').txt(correction ? 'KOR' : 'VAT');
  if (correction) {
    fa.ele('PrzyczynaKorekty').txt(correction.reason.slice(0, 256));
    const corrected = fa.ele('DaneFaKorygowanej');
    corrected.ele('DataWystFaKorygowanej').txt(correction.correctedInvoice.issueDate);
    corrected.ele('NrFaKorygowanej').txt(correction.correctedInvoice.number);
    if (options.correctedKsefNumber) {
      corrected.ele('NrKSeF').txt('1');
      corrected.ele('NrKSeFFaKorygowanej').txt(options.correctedKsefNumber);
    } else corrected.ele('NrKSeFN').txt('1');
    if (correction.buyerBefore) {
      const before = fa.ele('Podmiot2K');
      buyerIdentity(before, correction.buyerBefore);
      party(before, correction.buyerBefore);
    }
  }
  if (invoice.receipt) fa.ele('FP').txt('1');
  if (invoice.receipt) {
    const extra = fa.ele('DodatkowyOpis');
    extra.ele('Klucz').txt('Paragon fiskalny');
    extra
      .ele('Wartosc')
      .txt(
        `nr ${invoice.receipt.number} z dnia ${invoice.receipt.date}` +
          (invoice.receipt.printerName ? `, drukarka ${invoice.receipt.printerName}` : ''),
      );
  }
  if (invoice.remarks) {
    const extra = fa.ele('DodatkowyOpis');
    extra.ele('Klucz').txt('Uwagi');
    extra.ele('Wartosc').txt(invoice.remarks.slice(0, 256));
  }

  if (correction) {
    const next = lineRows(fa, correction.before, invoice, { from: 1, before: true });
    lineRows(fa, correction.after, invoice, { from: next, before: false });
  } else lineRows(fa, invoice.lines, invoice, { from: 1, before: false });

  if (invoice.totals.gross > 0) {
    const pay = fa.ele('Platnosc');
    const paidOn = invoice.saleDate <= invoice.issueDate ? invoice.saleDate : invoice.issueDate;
    const paid = invoice.payment.state === 'paid';
    const split = invoice.payment.split;
    if (split && split.length > 1) {
      pay.ele('ZnacznikZaplatyCzesciowej').txt(paid ? '2' : '1');
      for (const part of split) {
        const el = pay.ele('ZaplataCzesciowa');
        el.ele('KwotaZaplatyCzesciowej').txt(amount(part.amount));
        el.ele('DataZaplatyCzesciowej').txt(paidOn);
        paymentForm(el, part.method);
      }
      if (!paid) {
        pay.ele('TerminPlatnosci').ele('Termin').txt(invoice.payment.dueDate);
        paymentForm(pay, invoice.payment.method);
      }
    } else {
      if (paid) {
        pay.ele('Zaplacono').txt('1');
        pay.ele('DataZaplaty').txt(paidOn);
      } else pay.ele('TerminPlatnosci').ele('Termin').txt(invoice.payment.dueDate);
      paymentForm(pay, invoice.payment.method);
    }
    if (!paid && invoice.seller.iban) {
      const account = pay.ele('RachunekBankowy');
      account.ele('NrRB').txt(invoice.seller.iban);
      if (invoice.seller.bankName) account.ele('NazwaBanku').txt(invoice.seller.bankName);
    }
  }
  return doc.end({ prettyPrint: true });
}

/** The file name of an invoice's FA(3) XML: `FV_2026_000001.xml`. */
export function ksefFileName(number: string): string {
  return `${number.replace(/\//g, '_')}.xml`;
}
