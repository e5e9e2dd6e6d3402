import { create } from 'xmlbuilder2';
import {
  DAC7_FIELDS,
  type Dac7Report,
  type Dac7SellerBody,
  type Dac7SellerKind,
} from '../../../../shared/contracts/api/reports';
import { PaymentMethod } from '../../../../shared/enums/payments';
import { sqlSet } from '../../../../shared/domain/sql';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';

/** Payments that pass through the platform (its payment provider): what DAC7 calls consideration. */
const THROUGH_PLATFORM = sqlSet([PaymentMethod.online, PaymentMethod.paymentCard]);

type Field = (typeof DAC7_FIELDS)[number];

/** The seller's identification: the invoice settings, and who the studio is (entity or individual). */
async function sellerValues(db: Db, studio: Studio) {
  const [settings, seller] = await Promise.all([
    db('studio_invoice_settings').where({ studioId: studio.id }).first(),
    db('studio_dac7_sellers').where({ studioId: studio.id }).first(),
  ]);
  const kind: Dac7SellerKind = seller?.kind === 'individual' ? 'individual' : 'entity';
  const values: Record<Field, string> = {
    sellerName: settings?.sellerName ?? '',
    taxId: settings?.taxId ?? '',
    addressLine: settings?.addressLine ?? '',
    postalCode: settings?.postalCode ?? '',
    city: settings?.city ?? '',
    country: settings?.country ?? '',
    iban: settings?.iban ?? '',
    firstName: kind === 'individual' ? (seller?.firstName ?? '') : '',
    lastName: kind === 'individual' ? (seller?.lastName ?? '') : '',
    birthDate: kind === 'individual' && seller?.birthDate ? ymd(seller.birthDate) : '',
  };
  const needed = DAC7_FIELDS.filter(
    (f) => kind === 'individual' || !INDIVIDUAL_ONLY.includes(f as (typeof INDIVIDUAL_ONLY)[number]),
  );
  return { kind, values, missing: needed.filter((f) => values[f].trim() === '') };
}

const INDIVIDUAL_ONLY = ['firstName', 'lastName', 'birthDate'] as const;
/** A `date` column as node-postgres gives it (a local-midnight Date) as YYYY-MM-DD. */
const ymd = (d: Date | string) =>
  typeof d === 'string'
    ? d.slice(0, 10)
    : `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * The studio's DAC7 reports (dac7-report/collection): one per year from the first year with a
 * payment through the platform to this year (at least this year). Identification comes from the
 * invoice settings' seller details and bank account, and for an individual seller (a sole trader)
 * their names and date of birth (`studio_dac7_sellers`); what is missing makes the report
 * `requireInput` and is named. Consideration per quarter (the studio's calendar): online and card
 * payments settled, less their refunds; activities: those payments; fees: what the platform operator
 * charged the studio in the quarter (`platform_fees`).
 */
export async function dac7Reports(db: Db, studio: Studio, now: Date): Promise<Dac7Report[]> {
  const { kind, values, missing } = await sellerValues(db, studio);
  const result: {
    rows: Array<{ year: number; quarter: number; consideration: string; activities: string; fees: string }>;
  } = await db.raw(
    `select extract(year from at at time zone ?)::int as year, extract(quarter from at at time zone ?)::int as quarter,
            sum(amount) as consideration, sum(activities) as activities, sum(fee) as fees
       from (select p.settled_at as at, p.amount, 1 as activities, 0 as fee
               from client_order_payments p
              where p.studio_id = ? and p.status = 'succeeded' and p.settled_at is not null
                and p.method in ${THROUGH_PLATFORM}
             union all
             select r.created_at, -r.amount, 0, 0
               from client_order_refunds r join client_order_payments p on p.id = r.payment_id
              where r.studio_id = ? and r.status = 'success' and p.method in ${THROUGH_PLATFORM}
             union all
             select f.charged_at, 0, 0, f.amount from platform_fees f where f.studio_id = ?) x
      group by 1, 2`,
    [studio.timeZone, studio.timeZone, studio.id, studio.id, studio.id],
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
        kind,
        name: kind === 'individual' ? `${values.firstName} ${values.lastName}`.trim() : values.sellerName,
        firstName: values.firstName,
        lastName: values.lastName,
        birthDate: values.birthDate || null,
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
          fees: Number(row?.fees ?? 0),
        };
      }),
    });
  }
  return reports;
}

/** Sets who the studio is as a seller (`PUT dac7-report/seller`); an entity keeps no names. */
export async function setDac7Seller(
  trx: Knex.Transaction,
  studio: Studio,
  body: Dac7SellerBody,
  now: Date,
): Promise<void> {
  const individual = body.kind === 'individual';
  const row = {
    kind: body.kind,
    firstName: individual ? body.firstName : '',
    lastName: individual ? body.lastName : '',
    birthDate: individual ? body.birthDate : null,
    updatedAt: now,
  };
  await trx('studio_dac7_sellers')
    .insert({ studioId: studio.id, ...row })
    .onConflict('studioId')
    .merge(row);
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
/** DPI amounts are whole units of the currency (MonAmnt_Type is an integer): rounded half up. */
/** A tax id as the authority keys it: letters and digits only ("526-025-02-74" → "5260250274"). */
const tin = (text: string) => text.replace(/[^0-9A-Za-z]/g, '');
const amount = (minor: number) => String(Math.round(minor / 100));

/**
 * The operator's DPI file for a year (`npm run dac7:export`): the OECD "DPI XML" message the Polish
 * tax authority takes for DAC7 (DPI_OECD v1.0, namespaces `urn:oecd:ties:dpi:v1` and
 * `urn:oecd:ties:dpistf:v1`, MessageType `DAC7` as the EU directive asks), validated against the
 * OECD's DPIXML_v1.0.xsd by `dac7.test.ts` when the schema is at hand (README "DAC7"). Only
 * `completed` reports are included; a studio is an entity seller or, a sole trader, an individual
 * one (names and date of birth); its sales are personal services.
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
  spec.ele(NS, 'dpi:MessageType').txt('DAC7');
  spec.ele(NS, 'dpi:MessageRefId').txt(messageId);
  spec.ele(NS, 'dpi:MessageTypeIndic').txt('DPI401');
  spec.ele(NS, 'dpi:ReportingPeriod').txt(`${year}-12-31`);
  spec.ele(NS, 'dpi:Timestamp').txt(now.toISOString().slice(0, 19));
  const body = doc.ele(NS, 'dpi:DPIBody');
  const po = body.ele(NS, 'dpi:PlatformOperator');
  po.ele(NS, 'dpi:ResCountryCode').txt(operator.country);
  po.ele(NS, 'dpi:TIN', { issuedBy: operator.country }).txt(tin(operator.tin));
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
    const identity = rs.ele(NS, 'dpi:Identity');
    const individual = r.seller.kind === 'individual';
    const standard = identity
      .ele(NS, individual ? 'dpi:IndividualSeller' : 'dpi:EntitySeller')
      .ele(NS, 'dpi:Standard');
    const id = standard.ele(NS, individual ? 'dpi:IndSellerID' : 'dpi:EntSellerID');
    id.ele(NS, 'dpi:ResCountryCode').txt(r.seller.country);
    id.ele(NS, 'dpi:TIN', { issuedBy: r.seller.country }).txt(tin(r.seller.taxId ?? ''));
    if (individual) {
      const name = id.ele(NS, 'dpi:Name');
      name.ele(NS, 'dpi:FirstName').txt(r.seller.firstName);
      name.ele(NS, 'dpi:LastName').txt(r.seller.lastName);
    } else id.ele(NS, 'dpi:Name').txt(r.seller.name);
    const address = id.ele(NS, 'dpi:Address', { legalAddressType: 'OECD301' });
    address.ele(NS, 'dpi:CountryCode').txt(r.seller.country);
    const fix = address.ele(NS, 'dpi:AddressFix');
    fix.ele(NS, 'dpi:Street').txt(seller.addressLine);
    fix.ele(NS, 'dpi:PostCode').txt(seller.postalCode);
    fix.ele(NS, 'dpi:City').txt(seller.city);
    if (individual)
      id.ele(NS, 'dpi:BirthInfo')
        .ele(NS, 'dpi:BirthDate')
        .txt(r.seller.birthDate ?? '');
    standard
      .ele(NS, 'dpi:FinancialIdentifier')
      .ele(NS, 'dpi:Identifier', { AccountNumberType: 'IBAN' })
      .txt((r.seller.iban ?? '').replace(/\s/g, ''));
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
