import type Router from '@koa/router';
import type {
  ClientInvoiceList,
  InvoiceInit,
  InvoiceList,
  InvoiceOrderDraft,
  InvoiceSettingsView,
  InvoiceView,
  TaxIdCheckResult,
} from '../../../../shared/contracts/api/invoices';
import { InvoicesApi } from '../../../../shared/contracts/http/invoices';
import { formatNip, invoiceSeriesYear } from '../../../../shared/domain/invoices';
import { PaymentMethod } from '../../../../shared/enums';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { renderInvoicePdf } from './invoice-pdf';
import { invoiceBranding } from './invoice-branding';
import { fileStorage } from '../../storage/index';
import { ksefPdfBlock } from './ksef/ksef-pdf';
import { invoiceFa3Xml, ksefFileName } from './ksef-fa3';
import { invoiceFileName } from './invoices.presenter';
import { cancelInvoice, correctInvoice } from './invoice-corrections.service';
import { issueInvoice, peekNumber } from './invoice-issue.service';
import { issueInvoiceForOrder, orderDraft } from './invoice-orders.service';
import { invoiceSettings, saveInvoiceSettings } from './invoice-settings.service';
import { todayOf } from './invoices.rows';
import { clientInvoiceDetail, invoiceDetail, listClientInvoices, listInvoices } from './invoices.service';

/** Mutating routes run in a transaction: `db` is one there. */
const trx = (db: Db) => db as Knex.Transaction;

/**
 * Polish VAT invoices (spec §3 Invoice, §7 downloads by id and the NIP check). Staff read invoices
 * and download PDFs with `sales.view`; issuing, correcting, cancelling and the seller's settings need
 * `sales.invoices` (the accountant's and the manager's ability). The NIP check is open to any member
 * of the studio (clients type their company's NIP too).
 */
export function registerInvoiceRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...InvoicesApi.getTaxIdentificationNumberCheck,
    handle: async ({ query }): Promise<TaxIdCheckResult> => ({
      isValid: true,
      taxIdentificationNumber: query.taxIdentificationNumber,
      formatted: formatNip(query.taxIdentificationNumber),
    }),
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoiceSettings,
    handle: async ({ db, studio }): Promise<InvoiceSettingsView> => invoiceSettings(db, studio),
  });

  defineRoute(router, {
    ...InvoicesApi.putInvoiceSettings,
    handle: async ({ db, studio, body, deps }): Promise<InvoiceSettingsView> =>
      saveInvoiceSettings(trx(db), studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoiceInit,
    handle: async ({ db, studio, deps }): Promise<InvoiceInit> => {
      const today = todayOf(studio, deps.clock.now());
      const taxes = await db('taxes')
        .where({ studioId: studio.id })
        .orderBy('name')
        .select('id', 'name', 'rateBp');
      return {
        currency: studio.currency,
        language: 'pl',
        settings: await invoiceSettings(db, studio),
        taxes,
        paymentMethods: Object.values(PaymentMethod),
        nextNumber: await peekNumber(db, studio.id, 'invoice', invoiceSeriesYear(today)),
        today,
      };
    },
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoiceAll,
    handle: async ({ db, studio, query }): Promise<InvoiceList> => listInvoices(db, studio, query),
  });

  defineRoute(router, {
    ...InvoicesApi.postInvoice,
    handle: async ({ db, studio, body, auth, deps }): Promise<InvoiceView> => {
      const id = await issueInvoice(trx(db), studio, auth.user.id, body, deps.clock.now());
      return invoiceDetail(db, studio, id, deps.clock.now());
    },
  });

  defineRoute(router, {
    ...InvoicesApi.getClientOrderInvoiceInit,
    handle: async ({ db, studio, params }): Promise<InvoiceOrderDraft> =>
      orderDraft(db, studio, params.clientOrder),
  });

  defineRoute(router, {
    ...InvoicesApi.postClientOrderInvoice,
    handle: async ({ db, studio, body, auth, deps, params }): Promise<InvoiceView> => {
      const id = await issueInvoiceForOrder(
        trx(db),
        studio,
        auth.user.id,
        params.clientOrder,
        body,
        deps.clock.now(),
      );
      return invoiceDetail(db, studio, id, deps.clock.now());
    },
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoice,
    handle: async ({ db, studio, params, deps }): Promise<InvoiceView> =>
      invoiceDetail(db, studio, params.invoice, deps.clock.now()),
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoicePdf,
    handle: async ({ db, studio, params, deps, ctx }): Promise<Buffer> => {
      const invoice = await invoiceDetail(db, studio, params.invoice, deps.clock.now());
      const pdf = await renderInvoicePdf(
        invoice,
        await ksefPdfBlock(db, invoice),
        await invoiceBranding(fileStorage(deps.config), studio),
      );
      ctx.attachment(invoiceFileName(invoice.number));
      ctx.set('Cache-Control', 'private, no-store');
      return pdf;
    },
  });

  defineRoute(router, {
    ...InvoicesApi.getInvoiceKsefXml,
    handle: async ({ db, studio, params, deps, ctx }): Promise<string> => {
      const invoice = await invoiceDetail(db, studio, params.invoice, deps.clock.now());
      ctx.attachment(ksefFileName(invoice.number));
      ctx.set('Cache-Control', 'private, no-store');
      return invoiceFa3Xml(invoice);
    },
  });

  defineRoute(router, {
    ...InvoicesApi.postInvoiceCorrective,
    handle: async ({ db, studio, body, auth, deps, params }): Promise<InvoiceView> => {
      const id = await correctInvoice(trx(db), studio, auth.user.id, params.invoice, body, deps.clock.now());
      return invoiceDetail(db, studio, id, deps.clock.now());
    },
  });

  defineRoute(router, {
    ...InvoicesApi.postInvoiceCancel,
    handle: async ({ db, studio, body, auth, deps, params }): Promise<InvoiceView> => {
      await cancelInvoice(trx(db), studio, auth.user.id, params.invoice, body.reason, deps.clock.now());
      return invoiceDetail(db, studio, params.invoice, deps.clock.now());
    },
  });

  // ---------------------------------------------------------------------------------- the client's own

  defineRoute(router, {
    ...InvoicesApi.getPurchasesInvoices,
    handle: async ({ db, studio, auth, query }): Promise<ClientInvoiceList> =>
      listClientInvoices(db, studio, auth.user.id, query),
  });

  defineRoute(router, {
    ...InvoicesApi.getPurchasesInvoicePdf,
    handle: async ({ db, studio, auth, params, deps, ctx }): Promise<Buffer> => {
      const invoice = await clientInvoiceDetail(db, studio, auth.user.id, params.invoice, deps.clock.now());
      const pdf = await renderInvoicePdf(
        invoice,
        await ksefPdfBlock(db, invoice),
        await invoiceBranding(fileStorage(deps.config), studio),
      );
      ctx.attachment(invoiceFileName(invoice.number));
      ctx.set('Cache-Control', 'private, no-store');
      return pdf;
    },
  });
}
