import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { AccountingSettings } from '../../../../shared/contracts/api/accounting';
import type { InvoiceLineView, InvoiceView } from '../../../../shared/contracts/api/invoices';
import { parseExchangeRate, vatInPln } from '../../../../shared/domain/invoices';
import { AppError } from '../../../../shared/errors';
import { amount } from '../invoices/index';
import { rateNotInJpk, recordRates, type AccountingPeriod } from './accounting-data';

/**
 * JPK_FA(4) — the invoices of a period on demand (the Ministry of Finance's `Schemat_JPK_FA(4)_v1-0.xsd`,
 * copy and source in `shared/spec/jpk/fa4`). Built with xmlbuilder2 in the schema's element order.
 * - One `Faktura` per invoice or corrective invoice issued in the period (RodzajFaktury VAT or
 *   KOREKTA with the corrected number and the reason), amounts in the invoice's currency (KodWaluty);
 *   a foreign-currency invoice adds the VAT in złoty per rate (P_14_xW).
 * - Per-rate sums: 23/22 % → P_13_1/P_14_1, 8/7 % → _2, 5 % → _3, 4/3 % → _4, reverse charge for a
 *   buyer abroad (art. 28b services) → P_13_5, 0 % → P_13_6, exempt → P_13_7. A correction carries
 *   its differences.
 * - P_18 (odwrotne obciążenie) for reverse charge, P_19 with P_19A (the basis) for an exempt line.
 * - Lines (FakturaWiersz): the net value P_11 always; gross-priced invoices (art. 106e ust. 7–8) give
 *   the gross unit price P_9B and gross value P_11A too, net ones the net unit price P_9A; a correction lists its lines before (negated) and after, so they add up to it.
 * - The seller (Podmiot1) is the invoice settings' name and NIP with the accounting settings' address.
 */

const NS = 'http://jpk.mf.gov.pl/wzor/2022/02/17/02171/';
const ETD = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2018/08/24/eD/DefinicjeTypy/';
const EU = new Set(
  'AT BE BG CY CZ DK EE FI FR DE EL HR HU IE IT LV LT LU MT NL PT RO SK SI ES SE XI'.split(' '),
);

type Rate = InvoiceLineView['vatRate'];

/** The P_13/P_14 suffix of a rate, and the P_12 code of a line. */
export function jpkFaRate(rate: Rate): { sum: string; vat: boolean; code: string } {
  if (rate === 'exempt') return { sum: '7', vat: false, code: 'zw' };
  if (rate === 'reverseCharge') return { sum: '5', vat: false, code: 'np' };
  if (rate === 0) return { sum: '6', vat: false, code: '0' };
  const field: Record<number, string> = {
    2300: '1',
    2200: '1',
    800: '2',
    700: '2',
    500: '3',
    400: '4',
    300: '4',
  };
  const sum = field[rate];
  if (!sum) throw rateNotInJpk(rate, 'JPK_FA(4)');
  return { sum, vat: true, code: String(rate / 100) };
}

const address = (p: { addressLine: string; postalCode: string; city: string; country?: string }) =>
  [p.addressLine, `${p.postalCode} ${p.city}`.trim(), p.country && p.country !== 'PL' ? p.country : '']
    .filter((s) => s.trim() !== '')
    .join(', ');

const cut = (s: string) => s.slice(0, 256);

function faktura(root: XMLBuilder, inv: InvoiceView, seller: AccountingPeriod['seller']) {
  const f = root.ele('Faktura');
  f.ele('KodWaluty').txt(inv.currency);
  f.ele('P_1').txt(inv.issueDate);
  f.ele('P_2A').txt(inv.number);
  f.ele('P_3A').txt(cut(inv.buyer.name));
  const buyerAddress = address(inv.buyer);
  if (buyerAddress) f.ele('P_3B').txt(cut(buyerAddress));
  f.ele('P_3C').txt(cut(inv.seller.name));
  f.ele('P_3D').txt(cut(address(inv.seller) || address({ ...seller, addressLine: seller.addressLine })));
  if (inv.seller.taxId) f.ele('P_4B').txt(inv.seller.taxId);
  const taxId = inv.buyer.taxId;
  if (taxId) {
    const code = inv.buyer.country === 'GR' ? 'EL' : inv.buyer.country;
    if (inv.buyer.country !== 'PL' && EU.has(code) && taxId.startsWith(code)) {
      f.ele('P_5A').txt(code);
      f.ele('P_5B').txt(taxId.slice(code.length));
    } else f.ele('P_5B').txt(taxId);
  }
  if (inv.saleDate !== inv.issueDate) f.ele('P_6').txt(inv.saleDate);

  const rate = inv.exchangeRate ? parseExchangeRate(inv.exchangeRate.rate) : null;
  const sums = new Map<string, { net: number; vat: number }>();
  for (const r of recordRates(inv)) {
    const { sum } = jpkFaRate(r.vatRate);
    const s = sums.get(sum) ?? { net: 0, vat: 0 };
    s.net += r.net;
    s.vat += r.vat;
    sums.set(sum, s);
  }
  for (const n of ['1', '2', '3', '4']) {
    const s = sums.get(n);
    if (!s) continue;
    f.ele(`P_13_${n}`).txt(amount(s.net));
    f.ele(`P_14_${n}`).txt(amount(s.vat));
    if (rate) f.ele(`P_14_${n}W`).txt(amount(vatInPln(s.vat, rate)));
  }
  if (sums.has('5')) f.ele('P_13_5').txt(amount(sums.get('5')!.net));
  if (sums.has('6')) f.ele('P_13_6').txt(amount(sums.get('6')!.net));
  if (sums.has('7')) f.ele('P_13_7').txt(amount(sums.get('7')!.net));
  f.ele('P_15').txt(amount(recordRates(inv).reduce((a, r) => a + r.gross, 0)));
  const exemption = inv.notes.find((n) => n.kind === 'vatExempt');
  f.ele('P_16').txt('false');
  f.ele('P_17').txt('false');
  f.ele('P_18').txt(String(inv.vatTreatment === 'reverseCharge'));
  f.ele('P_18A').txt('false');
  f.ele('P_19').txt(String(Boolean(exemption)));
  if (exemption && exemption.kind === 'vatExempt') f.ele('P_19A').txt(cut(exemption.basis));
  for (const field of ['P_20', 'P_21', 'P_22', 'P_23', 'P_106E_2', 'P_106E_3']) f.ele(field).txt('false');
  if (inv.correction) {
    f.ele('RodzajFaktury').txt('KOREKTA');
    if (inv.correction.reason.trim()) f.ele('PrzyczynaKorekty').txt(cut(inv.correction.reason));
    f.ele('NrFaKorygowanej').txt(inv.correction.correctedInvoice.number);
  } else f.ele('RodzajFaktury').txt('VAT');
}

/** The lines a record lists for an invoice: a correction's before (negated) and after. */
function recordLines(inv: InvoiceView): InvoiceLineView[] {
  if (!inv.correction) return inv.lines;
  const negate = (l: InvoiceLineView): InvoiceLineView => ({
    ...l,
    quantity: l.quantity.startsWith('-') || l.quantity === '0' ? l.quantity : `-${l.quantity}`,
    net: -l.net,
    vat: -l.vat,
    gross: -l.gross,
  });
  return [...inv.correction.before.map(negate), ...inv.correction.after];
}

export function jpkFaXml(period: AccountingPeriod, settings: AccountingSettings, now: Date): string {
  if (period.invoices.length === 0)
    throw new AppError('accounting.nothingToReport', {
      message: 'no invoice was issued in the period: JPK_FA holds at least one',
    });
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(NS, 'JPK').att('xmlns:etd', ETD);
  const h = root.ele('Naglowek');
  h.ele('KodFormularza').att('kodSystemowy', 'JPK_FA (4)').att('wersjaSchemy', '1-0').txt('JPK_FA');
  h.ele('WariantFormularza').txt('4');
  h.ele('CelZlozenia').txt('1');
  h.ele('DataWytworzeniaJPK').txt(now.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  h.ele('DataOd').txt(period.from);
  h.ele('DataDo').txt(period.to);
  h.ele('KodUrzedu').txt(settings.taxOfficeCode);

  const seller = period.seller;
  const p = root.ele('Podmiot1');
  const id = p.ele('IdentyfikatorPodmiotu');
  id.ele('NIP').txt(seller.taxId ?? '');
  id.ele('PelnaNazwa').txt(seller.sellerName.slice(0, 240));
  const a = p.ele('AdresPodmiotu');
  a.ele(`${ETD}`, 'etd:KodKraju').txt('PL');
  a.ele(`${ETD}`, 'etd:Wojewodztwo').txt(settings.province);
  a.ele(`${ETD}`, 'etd:Powiat').txt(settings.county);
  a.ele(`${ETD}`, 'etd:Gmina').txt(settings.commune);
  if (settings.street) a.ele(`${ETD}`, 'etd:Ulica').txt(settings.street);
  a.ele(`${ETD}`, 'etd:NrDomu').txt(settings.houseNumber);
  if (settings.flatNumber) a.ele(`${ETD}`, 'etd:NrLokalu').txt(settings.flatNumber);
  a.ele(`${ETD}`, 'etd:Miejscowosc').txt(seller.city.slice(0, 56));
  a.ele(`${ETD}`, 'etd:KodPocztowy').txt(seller.postalCode.slice(0, 8));

  for (const inv of period.invoices) faktura(root, inv, seller);
  const ctrl = root.ele('FakturaCtrl');
  ctrl.ele('LiczbaFaktur').txt(String(period.invoices.length));
  ctrl
    .ele('WartoscFaktur')
    .txt(amount(period.invoices.reduce((s, i) => s + recordRates(i).reduce((a2, r) => a2 + r.gross, 0), 0)));

  let lines = 0;
  let lineSum = 0;
  for (const inv of period.invoices) {
    for (const line of recordLines(inv)) {
      const w = root.ele('FakturaWiersz');
      w.ele('P_2B').txt(inv.number);
      w.ele('P_7').txt(cut(line.description));
      w.ele('P_8A').txt(cut(line.unit || 'szt.'));
      w.ele('P_8B').txt(line.quantity.replace(',', '.'));
      const gross = inv.priceBasis === 'gross';
      w.ele(gross ? 'P_9B' : 'P_9A').txt(amount(line.unitPrice));
      w.ele('P_11').txt(amount(line.net));
      if (gross) w.ele('P_11A').txt(amount(line.gross));
      w.ele('P_12').txt(jpkFaRate(line.vatRate).code);
      lines += 1;
      lineSum += line.net;
    }
  }
  const wctrl = root.ele('FakturaWierszCtrl');
  wctrl.ele('LiczbaWierszyFaktur').txt(String(lines));
  wctrl.ele('WartoscWierszyFaktur').txt(amount(lineSum));
  return doc.end({ prettyPrint: true });
}
