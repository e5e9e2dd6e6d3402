import { create } from 'xmlbuilder2';
import { DAC7_FIELDS, type Dac7Report } from '../../../../shared/contracts/api/reports';
import { PaymentMethod } from '../../../../shared/enums/payments';
import { sqlSet } from '../../../../shared/domain/sql';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/** Payments that pass through the platform (its payment provider): what DAC7 calls consideration. */
const THROUGH_PLATFORM = sqlSet([PaymentMethod.online, PaymentMethod.paymentCard]);

type Field = (typeof DAC7_FIELDS)[number];

/**
 * The studio's DAC7 reports (dac7-report/collection): one per year from the first year with a
 * payment through the platform to this year (at least this year). Identification comes from the
 * invoice settings' seller details and bank account; what is missing makes the report
 * `requireInput` and is named. Consideration per quarter (the studio's calendar): online and card
 * payments settled, less their refunds; activities: those payments; fees: the platform keeps none
 * (no platform fee is charged on sales today), so 0.
 */
export async function dac7Reports(db: Db, studio: Studio, now: Date): Promise<Dac7Report[]> {
  const settings = await db('studio_invoice_settings').where({ studioId: studio.id }).first();
  const values: Record<Field, string> = {
    sellerName: settings?.sellerName ?? '',
    taxId: settings?.taxId ?? '',
    addressLine: settings?.addressLine ?? '',
    postalCode: settings?.postalCode ?? '',
    city: settings?.city ?? '',
    country: settings?.country ?? '',
    iban: settings?.iban ?? '',
  };
  const missing = DAC7_FIELDS.filter((f) => values[f].trim() === '');
  const result: {
    rows: Array<{ year: number; quarter: number; consideration: string; activities: string }>;
  } = await db.raw(
    `select extract(year from at at time zone ?)::int as year, extract(quarter from at at time zone ?)::int as quarter,
            sum(amount) as consideration, sum(activities) as activities
       from (select p.settled_at as at, p.amount, 1 as activities
               from client_order_payments p
              where p.studio_id = ? and p.status = 'succeeded' and p.settled_at is not null
                and p.method in ${THROUGH_PLATFORM}
             union all
             select r.created_at, -r.amount, 0
               from client_order_refunds r join client_order_payments p on p.id = r.payment_id
              where r.studio_id = ? and r.status = 'success' and p.method in ${THROUGH_PLATFORM}) x
      group by 1, 2`,
    [studio.timeZone, studio.timeZone, studio.id, studio.id],
  );
  const thisYear = Number(
    new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: studio.timeZone }).format(now),
  );
  const firstYear = Math.min(thisYear, ...result.rows.map((r) => r.year));
  const reports: Dac7Report[] = [];
  for (let year = thisYear; year >= firstYear; year--) {
    reports.push({
      year,
      status: missing.length === 0 ? 'completed' : 'requireInput',
      missing,
      seller: {
        name: values.sellerName,
        taxId: values.taxId || null,
        address: [values.addressLine, `${values.postalCode} ${values.city}`.trim()]
          .filter(Boolean)
          .join(', '),
        country: values.country || studio.country,
        iban: values.iban || null,
      },
      currency: studio.currency,
      quarters: [1, 2, 3, 4].map((quarter) => {
        const row = result.rows.find((r) => r.year === year && r.quarter === quarter);
        return {
          quarter,
          consideration: Number(row?.consideration ?? 0),
          activities: Number(row?.activities ?? 0),
          fees: 0,
        };
      }),
    });
  }
  return reports;
}

export interface Dac7Operator {
  name: string;
  tin: string;
  country: string;
  address: string;
  platformName: string;
}

export interface Dac7Seller {
  studioId: string;
  report: Dac7Report;
  addressLine: string;
  postalCode: string;
  city: string;
}

const NS = 'urn:oecd:ties:dpi:v1';
const STF = 'urn:oecd:ties:dpistf:v1';
const amount = (minor: number) => (minor / 100).toFixed(2);

/**
 * The operator's DPI file for a year (`npm run dac7:export`): the OECD "DPI XML" message the Polish
 * tax authority takes for DAC7 (DPI_OECD v1.0, namespaces `urn:oecd:ties:dpi:v1` and
 * `urn:oecd:ties:dpistf:v1`). No copy of the XSD was available here to validate against; the
 * structure followed is written down in the module README ("DAC7"). Only `completed` reports are
 * included; each studio is an entity seller whose sales are personal services.
 */
export function dac7Xml(
  operator: Dac7Operator,
  year: number,
  sellers: Dac7Seller[],
  messageId: string,
  now: Date,
): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS, 'dpi:DPI_OECD', {
    version: '1.0',
    'xmlns:stf': STF,
  });
  const spec = doc.ele(NS, 'dpi:MessageSpec');
  spec.ele(NS, 'dpi:TransmittingCountry').txt(operator.country);
  spec.ele(NS, 'dpi:ReceivingCountry').txt(operator.country);
  spec.ele(NS, 'dpi:MessageType').txt('DPI');
  spec.ele(NS, 'dpi:MessageRefId').txt(messageId);
  spec.ele(NS, 'dpi:MessageTypeIndic').txt('DPI401');
  spec.ele(NS, 'dpi:ReportingPeriod').txt(`${year}-12-31`);
  spec.ele(NS, 'dpi:Timestamp').txt(now.toISOString().slice(0, 19));
  const body = doc.ele(NS, 'dpi:DPIBody');
  const po = body.ele(NS, 'dpi:PlatformOperator');
  po.ele(NS, 'dpi:ResCountryCode').txt(operator.country);
  po.ele(NS, 'dpi:TIN', { issuedBy: operator.country }).txt(operator.tin);
  po.ele(NS, 'dpi:Name').txt(operator.name);
  po.ele(NS, 'dpi:PlatformBusinessName').txt(operator.platformName);
  const poAddress = po.ele(NS, 'dpi:Address', { legalAddressType: 'OECD301' });
  poAddress.ele(NS, 'dpi:CountryCode').txt(operator.country);
  poAddress.ele(NS, 'dpi:AddressFree').txt(operator.address);
  const poDoc = po.ele(NS, 'dpi:DocSpec');
  poDoc.ele(STF, 'stf:DocTypeIndic').txt('OECD1');
  poDoc.ele(STF, 'stf:DocRefId').txt(`${messageId}-PO`);
  for (const seller of sellers) {
    const r = seller.report;
    const rs = body.ele(NS, 'dpi:ReportableSeller');
    const entity = rs.ele(NS, 'dpi:Identity').ele(NS, 'dpi:EntitySeller').ele(NS, 'dpi:Standard');
    const id = entity.ele(NS, 'dpi:EntSellerID');
    id.ele(NS, 'dpi:ResCountryCode').txt(r.seller.country);
    id.ele(NS, 'dpi:TIN', { issuedBy: r.seller.country }).txt(r.seller.taxId ?? '');
    id.ele(NS, 'dpi:Name').txt(r.seller.name);
    const address = id.ele(NS, 'dpi:Address', { legalAddressType: 'OECD301' });
    address.ele(NS, 'dpi:CountryCode').txt(r.seller.country);
    const fix = address.ele(NS, 'dpi:AddressFix');
    fix.ele(NS, 'dpi:Street').txt(seller.addressLine);
    fix.ele(NS, 'dpi:PostCode').txt(seller.postalCode);
    fix.ele(NS, 'dpi:City').txt(seller.city);
    entity
      .ele(NS, 'dpi:FinancialIdentifier')
      .ele(NS, 'dpi:Identifier', { AccountNumberType: 'IBAN' })
      .txt(r.seller.iban ?? '');
    const services = rs.ele(NS, 'dpi:RelevantActivities').ele(NS, 'dpi:PersonalServices');
    const cons = services.ele(NS, 'dpi:Consideration');
    for (const q of r.quarters)
      cons.ele(NS, `dpi:ConsQ${q.quarter}`, { currCode: r.currency }).txt(amount(q.consideration));
    const count = services.ele(NS, 'dpi:NumberOfActivities');
    for (const q of r.quarters) count.ele(NS, `dpi:NumbQ${q.quarter}`).txt(String(q.activities));
    const fees = services.ele(NS, 'dpi:Fees');
    for (const q of r.quarters)
      fees.ele(NS, `dpi:FeesQ${q.quarter}`, { currCode: r.currency }).txt(amount(q.fees));
    const taxes = services.ele(NS, 'dpi:Taxes');
    for (const q of r.quarters)
      taxes.ele(NS, `dpi:TaxQ${q.quarter}`, { currCode: r.currency }).txt(amount(0));
    const docSpec = rs.ele(NS, 'dpi:DocSpec');
    docSpec.ele(STF, 'stf:DocTypeIndic').txt('OECD1');
    docSpec.ele(STF, 'stf:DocRefId').txt(`${messageId}-${seller.studioId}`);
  }
  return doc.end({ prettyPrint: true });
}
