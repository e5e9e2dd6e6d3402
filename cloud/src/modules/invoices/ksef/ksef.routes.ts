import type Router from '@koa/router';
import type { InvoiceKsefView, KsefInvoiceList } from '../../../../../shared/contracts/api/ksef';
import { KsefApi } from '../../../../../shared/contracts/http/ksef';
import { AppError } from '../../../../../shared/errors';
import type { Db, Knex } from '../../../db/knex';
import type { AppCustom, AppState } from '../../../http/context';
import { defineRoute } from '../../../http/route';
import { invoiceRow } from '../invoices.rows';
import { ksefRow, ksefView, resendToKsef, type KsefRow } from './ksef-send.service';
import { ksefSettings, saveKsefSettings } from './ksef-settings.service';

const trx = (db: Db) => db as Knex.Transaction;

async function invoiceKsef(db: Db, studioId: string, invoiceId: string): Promise<InvoiceKsefView> {
  const invoice = await invoiceRow(db, studioId, invoiceId);
  const seller = invoice.seller as unknown as { taxId: string | null };
  return ksefView(invoice.id, await ksefRow(db, invoice.id), seller.taxId, invoice.issueDate);
}

/** KSeF (issue 19): settings, each invoice's state, resend, the UPO. See ../README.md "KSeF". */
export function registerKsefRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...KsefApi.getSettings,
    handle: async ({ db, studio }) => ksefSettings(db, studio.id),
  });

  defineRoute(router, {
    ...KsefApi.putSettings,
    handle: async ({ db, studio, body, deps }) =>
      saveKsefSettings(trx(db), studio.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...KsefApi.listInvoices,
    handle: async ({ db, studio, query }): Promise<KsefInvoiceList> => {
      const q = db('invoices as i')
        .leftJoin('invoice_ksef as k', 'k.invoice_id', 'i.id')
        .where('i.studio_id', studio.id)
        .where('i.status', 'issued')
        .orderBy('i.id', 'desc')
        .limit(query.limit)
        .select(
          db.raw('i.id as invoice_id'),
          'i.number',
          'i.kind',
          db.raw('i.issue_date::text as issue_date'),
          'i.buyer_name',
          'i.gross_total',
          'i.currency',
          db.raw(`i.seller->>'taxId' as seller_tax_id`),
          db.raw('k.invoice_id is not null as has_ksef'),
          'k.status',
          'k.mode',
          'k.environment',
          'k.attempt',
          'k.invoice_hash',
          'k.ksef_number',
          'k.status_code',
          'k.reason',
          'k.last_error',
          'k.sent_at',
          'k.accepted_at',
          db.raw('k.upo is not null as has_upo'),
        );
      if (query.state === 'none') q.whereNull('k.invoice_id');
      else if (query.state !== 'all') q.where('k.status', query.state);
      const rows = (await q) as Array<
        KsefRow & {
          number: string;
          kind: 'invoice' | 'corrective';
          issueDate: string;
          buyerName: string;
          grossTotal: number;
          currency: string;
          sellerTaxId: string | null;
          hasKsef: boolean;
          hasUpo: boolean;
        }
      >;
      return {
        items: rows.map((r) => ({
          ...ksefView(
            r.invoiceId,
            r.hasKsef ? { ...r, upo: r.hasUpo ? 'yes' : null } : undefined,
            r.sellerTaxId,
            r.issueDate,
          ),
          number: r.number,
          kind: r.kind,
          issueDate: r.issueDate,
          buyerName: r.buyerName,
          gross: r.grossTotal,
          currency: r.currency,
        })),
      };
    },
  });

  defineRoute(router, {
    ...KsefApi.getInvoice,
    handle: async ({ db, studio, params }) => invoiceKsef(db, studio.id, params.invoice),
  });

  defineRoute(router, {
    ...KsefApi.resend,
    handle: async ({ db, studio, params, deps }) => {
      await resendToKsef(trx(db), studio.id, params.invoice, deps.clock.now());
      return invoiceKsef(db, studio.id, params.invoice);
    },
  });

  defineRoute(router, {
    ...KsefApi.getUpo,
    handle: async ({ db, studio, params, ctx }): Promise<string> => {
      const invoice = await invoiceRow(db, studio.id, params.invoice);
      const row = await ksefRow(db, invoice.id);
      if (!row?.upo) throw AppError.notFound('upo');
      ctx.attachment(`UPO_${invoice.number.replace(/\//g, '_')}.xml`);
      ctx.type = 'application/xml; charset=utf-8';
      ctx.set('Cache-Control', 'private, no-store');
      return row.upo;
    },
  });
}
