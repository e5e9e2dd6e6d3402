import type {
  ClientInvoiceList,
  ClientInvoiceListQuery,
  InvoiceList,
  InvoiceListQuery,
  InvoiceView,
} from '../../../../shared/contracts/api/invoices';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  invoiceRef,
  presentInvoice,
  presentClientInvoice,
  presentListItem,
  type InvoiceLineRow,
  type InvoiceRow,
} from './invoices.presenter';

import { todayOf, invoiceRow, selectInvoices } from './invoices.rows';

// ------------------------------------------------------------------------------------ reading

export async function invoiceDetail(db: Db, studio: Studio, id: string, now: Date): Promise<InvoiceView> {
  const row = await invoiceRow(db, studio.id, id);
  const lines = (await db('invoice_lines')
    .where({ invoiceId: id })
    .orderBy(['side', 'position'])) as InvoiceLineRow[];
  const corrected = row.correctedInvoiceId ? await invoiceRow(db, studio.id, row.correctedInvoiceId) : null;
  const corrections: InvoiceRow[] = await selectInvoices(db, studio.id)
    .where('i.corrected_invoice_id', row.kind === 'invoice' ? id : '00000000-0000-0000-0000-000000000000')
    .orderBy('i.id');
  const issuer = row.issuedBy
    ? ((await db('users').where({ id: row.issuedBy }).first('id', 'firstName', 'lastName')) as
        { id: string; firstName: string; lastName: string } | undefined)
    : undefined;
  return presentInvoice(row, lines, {
    studioUuid: studio.id,
    today: todayOf(studio, now),
    correctedInvoice: corrected ? invoiceRef(corrected) : null,
    corrections: corrections.map(invoiceRef),
    issuedBy: issuer ? { id: issuer.id, name: `${issuer.firstName} ${issuer.lastName}`.trim() } : null,
  });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listInvoices(db: Db, studio: Studio, query: InvoiceListQuery): Promise<InvoiceList> {
  const q = selectInvoices(db, studio.id)
    .leftJoin('invoices as c', 'c.id', 'i.corrected_invoice_id')
    .select('c.number as corrected_invoice_number')
    .orderBy('i.id', 'desc')
    .limit(query.limit + 1);
  if (query.status !== 'all') q.where('i.status', query.status);
  if (query.kind !== 'all') q.where('i.kind', query.kind);
  if (query.from) q.where('i.issue_date', '>=', query.from);
  if (query.to) q.where('i.issue_date', '<=', query.to);
  if (query.cursor) {
    if (!/^[0-9a-f-]{36}$/i.test(query.cursor))
      throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    q.where('i.id', '<', query.cursor);
  }
  if (query.q) {
    const term = query.q.trim();
    const digits = term.replace(/[\s-]/g, '');
    q.where((w) => {
      w.whereRaw('lower(i.buyer_name) like ?', [`%${escapeLike(term.toLowerCase())}%`]).orWhereRaw(
        'i.number ilike ?',
        [`%${escapeLike(term)}%`],
      );
      if (/^(PL)?\d{3,}$/i.test(digits))
        w.orWhere('i.buyer_tax_id', 'like', `%${digits.replace(/^PL/i, '')}%`);
    });
  }
  const rows: (InvoiceRow & { correctedInvoiceNumber: string | null })[] = await q;
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(presentListItem),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

// ------------------------------------------------------------------------------------ the client's own

/**
 * The signed-in client's own invoices, newest first: issued ones only (a cancelled invoice is void
 * and stays with the accountant), corrections included. "Own" is the invoice's `client_id`, which an
 * invoice for an order takes from the order.
 */
export async function listClientInvoices(
  db: Db,
  studio: Studio,
  clientId: string,
  query: ClientInvoiceListQuery,
): Promise<ClientInvoiceList> {
  const q = selectInvoices(db, studio.id)
    .where({ 'i.client_id': clientId, 'i.status': 'issued' })
    .leftJoin('invoices as c', 'c.id', 'i.corrected_invoice_id')
    .select('c.number as corrected_invoice_number')
    .orderBy('i.id', 'desc')
    .limit(query.limit + 1);
  if (query.cursor) q.where('i.id', '<', query.cursor);
  const rows: (InvoiceRow & { correctedInvoiceNumber: string | null })[] = await q;
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((row) => presentClientInvoice(row, studio.id)),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

/** One of the client's own issued invoices; anyone else's (or a cancelled one) is unknown: 404. */
export async function clientInvoiceDetail(
  db: Db,
  studio: Studio,
  clientId: string,
  id: string,
  now: Date,
): Promise<InvoiceView> {
  const own = await db('invoices').where({ studioId: studio.id, id, clientId, status: 'issued' }).first('id');
  if (!own) throw AppError.notFound('invoice');
  return invoiceDetail(db, studio, id, now);
}
