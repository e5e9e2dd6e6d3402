import type Router from '@koa/router';
import { z } from 'zod';
import {
  ClientInvoiceListQuerySchema,
  InvoiceCancelInputSchema,
  InvoiceCorrectiveInputSchema,
  InvoiceFromOrderInputSchema,
  InvoiceIssueInputSchema,
  InvoiceListQuerySchema,
  InvoiceSettingsInputSchema,
  TaxIdCheckQuerySchema,
  type ClientInvoiceList,
  type InvoiceInit,
  type InvoiceList,
  type InvoiceOrderDraft,
  type InvoiceSettingsView,
  type InvoiceView,
  type TaxIdCheckResult,
} from '../../../../shared/contracts/api/invoices';
import { formatNip, invoiceSeriesYear } from '../../../../shared/domain/invoices';
import { PaymentMethod } from '../../../../shared/enums';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { renderInvoicePdf } from './invoice-pdf';
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

const StudioParams = z.object({ uuid: z.string() });
const InvoiceParams = z.object({ uuid: z.string(), invoice: z.uuid() });
const OrderParams = z.object({ uuid: z.string(), clientOrder: z.uuid() });

/**
 * Polish VAT invoices (spec §3 Invoice, §7 downloads by id and the NIP check). Staff read invoices
 * and download PDFs with `sales.view`; issuing, correcting, cancelling and the seller's settings need
 * `sales.invoices` (the accountant's and the manager's ability). The NIP check is open to any member
 * of the studio (clients type their company's NIP too).
 */
export function registerInvoiceRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/company/tax-identification-number/check',
    access: 'studio',
    params: StudioParams,
    query: TaxIdCheckQuerySchema,
    handle: async ({ query }): Promise<TaxIdCheckResult> => ({
      isValid: true,
      taxIdentificationNumber: query.taxIdentificationNumber,
      formatted: formatNip(query.taxIdentificationNumber),
    }),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/invoice-settings',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<InvoiceSettingsView> => invoiceSettings(db, studio),
  });

  defineRoute(router, {
    method: 'put',
    path: '/v4/:uuid/invoice-settings',
    access: 'staff',
    ability: 'sales.invoices',
    params: StudioParams,
    body: InvoiceSettingsInputSchema,
    handle: async ({ db, studio, body, deps }): Promise<InvoiceSettingsView> =>
      saveInvoiceSettings(trx(db), studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/invoice/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio, deps }): Promise<InvoiceInit> => {
      const today = todayOf(studio, deps.clock.now());
      const taxes = (await db('taxes')
        .where({ studioId: studio.id })
        .orderBy('name')
        .select('id', 'name', 'rateBp')) as { id: string; name: string; rateBp: number | null }[];
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
    method: 'get',
    path: '/v4/:uuid/invoice/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: InvoiceListQuerySchema,
    handle: async ({ db, studio, query }): Promise<InvoiceList> => listInvoices(db, studio, query),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/invoice',
    access: 'staff',
    ability: 'sales.invoices',
    params: StudioParams,
    body: InvoiceIssueInputSchema,
    status: 201,
    handle: async ({ db, studio, body, auth, deps }): Promise<InvoiceView> => {
      const id = await issueInvoice(trx(db), studio, auth.user.id, body, deps.clock.now());
      return invoiceDetail(db, studio, id, deps.clock.now());
    },
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client-order/:clientOrder/invoice/init',
    access: 'staff',
    ability: 'sales.view',
    params: OrderParams,
    handle: async ({ db, studio, params }): Promise<InvoiceOrderDraft> =>
      orderDraft(db, studio, params.clientOrder),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/client-order/:clientOrder/invoice',
    access: 'staff',
    ability: 'sales.invoices',
    params: OrderParams,
    body: InvoiceFromOrderInputSchema,
    status: 201,
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
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    handle: async ({ db, studio, params, deps }): Promise<InvoiceView> =>
      invoiceDetail(db, studio, params.invoice, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/pdf',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    handle: async ({ db, studio, params, deps, ctx }): Promise<Buffer> => {
      const invoice = await invoiceDetail(db, studio, params.invoice, deps.clock.now());
      const pdf = await renderInvoicePdf(invoice, await ksefPdfBlock(db, invoice));
      ctx.attachment(invoiceFileName(invoice.number));
      ctx.type = 'application/pdf';
      ctx.set('Cache-Control', 'private, no-store');
      return pdf;
    },
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/ksef.xml',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    handle: async ({ db, studio, params, deps, ctx }): Promise<string> => {
      const invoice = await invoiceDetail(db, studio, params.invoice, deps.clock.now());
      ctx.attachment(ksefFileName(invoice.number));
      ctx.type = 'application/xml; charset=utf-8';
      ctx.set('Cache-Control', 'private, no-store');
      return invoiceFa3Xml(invoice);
    },
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/invoice/:invoice/corrective',
    access: 'staff',
    ability: 'sales.invoices',
    params: InvoiceParams,
    body: InvoiceCorrectiveInputSchema,
    status: 201,
    handle: async ({ db, studio, body, auth, deps, params }): Promise<InvoiceView> => {
      const id = await correctInvoice(trx(db), studio, auth.user.id, params.invoice, body, deps.clock.now());
      return invoiceDetail(db, studio, id, deps.clock.now());
    },
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/invoice/:invoice/cancel',
    access: 'staff',
    ability: 'sales.invoices',
    params: InvoiceParams,
    body: InvoiceCancelInputSchema,
    handle: async ({ db, studio, body, auth, deps, params }): Promise<InvoiceView> => {
      await cancelInvoice(trx(db), studio, auth.user.id, params.invoice, body.reason, deps.clock.now());
      return invoiceDetail(db, studio, params.invoice, deps.clock.now());
    },
  });

  // ---------------------------------------------------------------------------------- the client's own

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/purchases/invoices',
    access: 'client',
    params: StudioParams,
    query: ClientInvoiceListQuerySchema,
    handle: async ({ db, studio, auth, query }): Promise<ClientInvoiceList> =>
      listClientInvoices(db, studio, auth.user.id, query),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/purchases/invoice/:invoice/pdf',
    access: 'client',
    params: InvoiceParams,
    handle: async ({ db, studio, auth, params, deps, ctx }): Promise<Buffer> => {
      const invoice = await clientInvoiceDetail(db, studio, auth.user.id, params.invoice, deps.clock.now());
      const pdf = await renderInvoicePdf(invoice, await ksefPdfBlock(db, invoice));
      ctx.attachment(invoiceFileName(invoice.number));
      ctx.type = 'application/pdf';
      ctx.set('Cache-Control', 'private, no-store');
      return pdf;
    },
  });
}
