import type { Knex } from 'knex';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { type InvoiceRow } from './invoices.presenter';

export type Trx = Knex.Transaction;

export const todayOf = (studio: Studio, now: Date) => localDateOf(now, studio.timeZone);

// `date` columns come back as text ('YYYY-MM-DD'): node-pg would turn them into local-midnight Dates.
// The later column of the same name wins in node-pg's row object.
const INVOICE_COLUMNS = [
  'i.*',
  'i.issue_date::text as issue_date',
  'i.sale_date::text as sale_date',
  'i.payment_due_date::text as payment_due_date',
];

export function selectInvoices(db: Db, studioId: string) {
  return db('invoices as i')
    .where('i.studio_id', studioId)
    .select(INVOICE_COLUMNS.map((c) => db.raw(c)));
}

export async function invoiceRow(db: Db, studioId: string, id: string, lock = false): Promise<InvoiceRow> {
  const q = selectInvoices(db, studioId).where('i.id', id).first();
  if (lock) q.forUpdate();
  const row: InvoiceRow | undefined = await q;
  if (!row) throw AppError.notFound('invoice');
  return row;
}
