import { PaymentMethod } from '../../../../shared/enums/payments';
import { REPORT_IDS, type ReportCatalog, type ReportId } from '../../../../shared/contracts/api/reports';
import { resolveLocaleText } from '../../../../shared/domain/locale-text';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import type { ReportDef } from './report-def';
import { studioClassServices, studioInstructors } from './pay-rates';
import { passLiability, walletBalances } from './report-clients';
import { fiscalDocuments, stock, voucherLiability } from './report-retail';
import { outstanding, payments, salesByDay, salesByItem, salesByMethod } from './report-sales';
import { attendance, payroll, payrollSummary, retention } from './report-visits';

const DEFS: Record<ReportId, ReportDef> = {
  'sales-by-item': salesByItem,
  'sales-by-method': salesByMethod,
  'sales-by-day': salesByDay,
  payments,
  outstanding,
  attendance,
  retention,
  'pass-liability': passLiability,
  'wallet-balances': walletBalances,
  payroll,
  'payroll-summary': payrollSummary,
  'voucher-liability': voucherLiability,
  stock,
  'fiscal-documents': fiscalDocuments,
};

/** The report of that name, or undefined for a name that is not one (the route answers 404). */
export function reportDef(name: string): ReportDef | undefined {
  return (REPORT_IDS as readonly string[]).includes(name) ? DEFS[name as ReportId] : undefined;
}

/** report/all: every report with its filters, and the choices the filters offer. */
export async function reportCatalog(db: Db, studio: Studio, locale: string | null): Promise<ReportCatalog> {
  const [locations, instructors, classServices, pricingOptions] = await Promise.all([
    db('locations').where({ studioId: studio.id }).orderBy('name').select('id', 'name'),
    studioInstructors(db, studio.id),
    studioClassServices(db, studio, locale),
    db('pricing_options').where({ studioId: studio.id }).select('id', 'name'),
  ]);
  return {
    items: REPORT_IDS.map((id) => ({ id, group: DEFS[id].group, filters: DEFS[id].filters })),
    options: {
      locations: locations.map((l) => ({ id: l.id, name: l.name })),
      instructors,
      classServices,
      pricingOptions: pricingOptions
        .map((p) => ({ id: p.id, name: resolveLocaleText(p.name, locale, studio.defaultLocale) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      methods: Object.values(PaymentMethod).filter((m) => m !== PaymentMethod.test),
    },
  };
}
