import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { AccountingSettings } from '../../../../shared/contracts/api/accounting';
import type { InvoiceView } from '../../../../shared/contracts/api/invoices';
import { parseExchangeRate, vatInPln } from '../../../../shared/domain/invoices';
import { mulDivRoundHalfUp } from '../../../../shared/domain/receipts/rounding';
import { amount } from '../invoices/index';
import { rateNotInJpk, recordRates, type AccountingPeriod } from './accounting-data';

/**
 * JPK_V7M(3) — the sales records of one month (ewidencja sprzedaży; the Ministry of Finance's
 * `Schemat_JPK_V7M(3)_v1-0E.xsd`, copy and source in `shared/spec/jpk/v7m3`), without the declaration
 * part (Deklaracja is optional in the schema; the accountant files it with the purchases the product
 * does not know) and without purchase rows (ZakupCtrl 0). Markers the product knows:
 * - an invoice or corrective invoice: one row with its KSeF number (NrKSeF) once KSeF accepted it,
 *   OFF when it was issued in KSeF's offline mode and has no number yet, BFK when it never went to
 *   KSeF (the studio sends no e-invoices); the buyer's tax id or "BRAK";
 * - an invoice for a fiscal receipt: TypDokumentu FP — in the records, left out of PodatekNalezny (its
 *   sale is already in the receipts' RO row);
 * - the fiscal receipts of a day: one RO row (DI, "sprzedaż detaliczna", the day's per-rate totals as
 *   the daily fiscal report sums them).
 * Rates: 23/22 % → K_19/K_20, 8/7 % → K_17/K_18, 5 % → K_15/K_16, 0 % → K_13, exempt → K_10, reverse
 * charge (art. 28b services to a business abroad) → K_11, and K_12 as well for a buyer in the EU.
 * Amounts are złoty: a foreign-currency invoice is converted at its NBP rate (net and VAT half up).
 * A row without any K_ amount (a correction that changes only the buyer) is still listed.
 */

const NS = 'http://crd.gov.pl/wzor/2025/12/19/14090/';
const ETD = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/09/13/eD/DefinicjeTypy/';
const EU = new Set(
  'AT BE BG CY CZ DK EE FI FR DE EL HR HU IE IT LV LT LU MT NL PT RO SK SI ES SE XI'.split(' '),
);
const K_ORDER = ['K_10', 'K_11', 'K_12', 'K_13', 'K_15', 'K_16', 'K_17', 'K_18', 'K_19', 'K_20'];
const TAX_FIELDS = ['K_16', 'K_18', 'K_20'];

type Rate = InvoiceView['rates'][number]['vatRate'];
type KFields = Map<string, number>;

function add(k: KFields, field: string, value: number) {
  k.set(field, (k.get(field) ?? 0) + value);
}

/** Adds one rate's net and VAT (złoty) to the K_ fields of a row. */
export function addRate(k: KFields, rate: Rate, net: number, vat: number, buyerCountry: string) {
  if (rate === 'exempt') return add(k, 'K_10', net);
  if (rate === 'reverseCharge') {
    add(k, 'K_11', net);
    const code = buyerCountry === 'GR' ? 'EL' : buyerCountry;
    if (EU.has(code)) add(k, 'K_12', net);
    return;
  }
  if (rate === 0) return add(k, 'K_13', net);
  const pair: Record<number, [string, string]> = {
    2300: ['K_19', 'K_20'],
    2200: ['K_19', 'K_20'],
    800: ['K_17', 'K_18'],
    700: ['K_17', 'K_18'],
    500: ['K_15', 'K_16'],
  };
  const found = pair[rate];
  if (!found) throw rateNotInJpk(rate, 'JPK_V7M(3)');
  add(k, found[0], net);
  add(k, found[1], vat);
}

interface Row {
  kontrahent: { country: string | null; id: string; name: string };
  document: string;
  issueDate: string;
  saleDate: string | null;
  mark: 'BFK' | 'DI' | 'OFF' | { ksefNumber: string };
  type: 'FP' | 'RO' | null;
  k: KFields;
}

function invoiceRow(inv: InvoiceView, ksef: AccountingPeriod['ksef']): Row {
  const rate = inv.exchangeRate ? parseExchangeRate(inv.exchangeRate.rate) : null;
  const pln = (minor: number) =>
    rate ? Math.sign(minor) * mulDivRoundHalfUp(Math.abs(minor), rate, 10000) : minor;
  const k: KFields = new Map();
  for (const r of recordRates(inv))
    addRate(k, r.vatRate, pln(r.net), rate ? vatInPln(r.vat, rate) : r.vat, inv.buyer.country);
  const foreign = inv.buyer.country !== 'PL' && inv.buyer.taxId;
  const code = inv.buyer.country === 'GR' ? 'EL' : inv.buyer.country;
  let id = inv.buyer.taxId ?? 'BRAK';
  if (foreign && id.startsWith(code)) id = id.slice(code.length) || id;
  return {
    kontrahent: { country: foreign ? code : null, id, name: inv.buyer.name.slice(0, 512) || 'BRAK' },
    document: inv.number,
    issueDate: inv.issueDate,
    saleDate: inv.saleDate !== inv.issueDate ? inv.saleDate : null,
    mark: ksefMark(ksef.get(inv.id)),
    type: inv.receipt ? 'FP' : null,
    k,
  };
}

/** NrKSeF with the number KSeF gave, OFF for an offline invoice still without one, else BFK. */
function ksefMark(state: { number: string | null; offline: boolean } | undefined): Row['mark'] {
  if (state?.number) return { ksefNumber: state.number };
  return state?.offline ? 'OFF' : 'BFK';
}

function receiptRows(period: AccountingPeriod): Row[] {
  return period.receiptDays.map((d) => {
    const k: KFields = new Map();
    for (const r of d.rates) addRate(k, r.vatRate, r.net, r.vat, 'PL');
    return {
      kontrahent: { country: null, id: 'BRAK', name: 'sprzedaż detaliczna' },
      document: `RO ${d.day}`,
      issueDate: d.day,
      saleDate: null,
      mark: 'DI',
      type: 'RO',
      k,
    };
  });
}

function row(ew: XMLBuilder, lp: number, r: Row) {
  const w = ew.ele('SprzedazWiersz');
  w.ele('LpSprzedazy').txt(String(lp));
  if (r.kontrahent.country) w.ele('KodKrajuNadaniaTIN').txt(r.kontrahent.country);
  w.ele('NrKontrahenta').txt(r.kontrahent.id);
  w.ele('NazwaKontrahenta').txt(r.kontrahent.name);
  w.ele('DowodSprzedazy').txt(r.document.slice(0, 256));
  w.ele('DataWystawienia').txt(r.issueDate);
  if (r.saleDate) w.ele('DataSprzedazy').txt(r.saleDate);
  if (typeof r.mark === 'object') w.ele('NrKSeF').txt(r.mark.ksefNumber);
  else w.ele(r.mark).txt('1');
  if (r.type) w.ele('TypDokumentu').txt(r.type);
  for (const field of K_ORDER) if (r.k.has(field)) w.ele(field).txt(amount(r.k.get(field)!));
}

/** The rows of the month's records: invoices by date of issue, then the receipts' days. */
export function v7mRows(period: AccountingPeriod): Row[] {
  return [...period.invoices.map((inv) => invoiceRow(inv, period.ksef)), ...receiptRows(period)];
}

/** PodatekNalezny: the VAT of the rows, without invoices marked FP. */
export function taxDue(rows: readonly Row[]): number {
  return rows
    .filter((r) => r.type !== 'FP')
    .reduce((a, r) => a + TAX_FIELDS.reduce((b, f) => b + (r.k.get(f) ?? 0), 0), 0);
}

export function jpkV7mXml(period: AccountingPeriod, settings: AccountingSettings, now: Date): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(NS, 'JPK').att('xmlns:etd', ETD);
  const h = root.ele('Naglowek');
  h.ele('KodFormularza').att('kodSystemowy', 'JPK_V7M (3)').att('wersjaSchemy', '1-0E').txt('JPK_VAT');
  h.ele('WariantFormularza').txt('3');
  h.ele('DataWytworzeniaJPK').txt(now.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  h.ele('NazwaSystemu').txt('Studio');
  h.ele('CelZlozenia').att('poz', 'P_7').txt('1');
  h.ele('KodUrzedu').txt(settings.taxOfficeCode);
  h.ele('Rok').txt(period.from.slice(0, 4));
  h.ele('Miesiac').txt(String(Number(period.from.slice(5, 7))));

  const podmiot = root.ele('Podmiot1').att('rola', 'Podatnik');
  if (settings.naturalPerson && settings.birthDate) {
    // A sole trader: the person (etd:TIdentyfikatorOsobyFizycznej2), then the tns e-mail.
    const p = podmiot.ele('OsobaFizyczna');
    p.ele(ETD, 'etd:NIP').txt(period.seller.taxId ?? '');
    p.ele(ETD, 'etd:ImiePierwsze').txt(settings.firstName);
    p.ele(ETD, 'etd:Nazwisko').txt(settings.lastName);
    p.ele(ETD, 'etd:DataUrodzenia').txt(settings.birthDate);
    p.ele('Email').txt(settings.email);
  } else {
    const p = podmiot.ele('OsobaNiefizyczna');
    p.ele('NIP').txt(period.seller.taxId ?? '');
    p.ele('PelnaNazwa').txt(period.seller.sellerName.slice(0, 240));
    p.ele('Email').txt(settings.email);
  }

  const rows = v7mRows(period);
  const ew = root.ele('Ewidencja');
  rows.forEach((r, i) => row(ew, i + 1, r));
  const ctrl = ew.ele('SprzedazCtrl');
  ctrl.ele('LiczbaWierszySprzedazy').txt(String(rows.length));
  ctrl.ele('PodatekNalezny').txt(amount(taxDue(rows)));
  const zc = ew.ele('ZakupCtrl');
  zc.ele('LiczbaWierszyZakupow').txt('0');
  zc.ele('PodatekNaliczony').txt('0.00');
  return doc.end({ prettyPrint: true });
}
