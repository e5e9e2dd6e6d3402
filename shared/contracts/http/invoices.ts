import {
  ClientInvoiceListQuerySchema,
  ClientInvoiceListSchema,
  InvoiceCancelInputSchema,
  InvoiceCorrectiveInputSchema,
  InvoiceFromOrderInputSchema,
  InvoiceInitSchema,
  InvoiceIssueInputSchema,
  InvoiceListQuerySchema,
  InvoiceListSchema,
  InvoiceOrderDraftSchema,
  InvoiceSettingsInputSchema,
  InvoiceSettingsViewSchema,
  InvoiceViewSchema,
  TaxIdCheckQuerySchema,
  TaxIdCheckResultSchema,
} from '../api/invoices';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const InvoiceParams = studioParams('invoice');
const OrderParams = studioParams('clientOrder');
const PDF = 'application/pdf';

/**
 * Polish VAT invoices (spec §3 Invoice, §7 downloads by id and the NIP check). Staff read invoices
 * and download PDFs with `sales.view`; issuing, correcting, cancelling and the seller's settings need
 * `sales.invoices` (the accountant's and the manager's ability). The NIP check is open to any member
 * of the studio (clients type their company's NIP too); clients read and download their own invoices.
 */
export const InvoicesApi = contractGroup('invoices', {
  getTaxIdentificationNumberCheck: {
    method: 'get',
    path: '/v4/:uuid/company/tax-identification-number/check',
    access: 'studio',
    params: StudioParams,
    query: TaxIdCheckQuerySchema,
    response: TaxIdCheckResultSchema,
  },
  getInvoiceSettings: {
    method: 'get',
    path: '/v4/:uuid/invoice-settings',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    response: InvoiceSettingsViewSchema,
  },
  putInvoiceSettings: {
    method: 'put',
    path: '/v4/:uuid/invoice-settings',
    access: 'staff',
    ability: 'sales.invoices',
    params: StudioParams,
    body: InvoiceSettingsInputSchema,
    response: InvoiceSettingsViewSchema,
  },
  getInvoiceInit: {
    method: 'get',
    path: '/v4/:uuid/invoice/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    response: InvoiceInitSchema,
  },
  getInvoiceAll: {
    method: 'get',
    path: '/v4/:uuid/invoice/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: InvoiceListQuerySchema,
    response: InvoiceListSchema,
  },
  postInvoice: {
    method: 'post',
    path: '/v4/:uuid/invoice',
    access: 'staff',
    ability: 'sales.invoices',
    status: 201,
    params: StudioParams,
    body: InvoiceIssueInputSchema,
    response: InvoiceViewSchema,
  },
  getClientOrderInvoiceInit: {
    method: 'get',
    path: '/v4/:uuid/client-order/:clientOrder/invoice/init',
    access: 'staff',
    ability: 'sales.view',
    params: OrderParams,
    response: InvoiceOrderDraftSchema,
  },
  postClientOrderInvoice: {
    method: 'post',
    path: '/v4/:uuid/client-order/:clientOrder/invoice',
    access: 'staff',
    ability: 'sales.invoices',
    status: 201,
    params: OrderParams,
    body: InvoiceFromOrderInputSchema,
    response: InvoiceViewSchema,
  },
  getInvoice: {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    response: InvoiceViewSchema,
  },
  getInvoicePdf: {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/pdf',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    responseKind: 'file',
    contentType: PDF,
  },
  /** The invoice as the KSeF structured invoice (FA(3) XML). */
  getInvoiceKsefXml: {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/ksef.xml',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    responseKind: 'file',
    contentType: 'application/xml; charset=utf-8',
  },
  postInvoiceCorrective: {
    method: 'post',
    path: '/v4/:uuid/invoice/:invoice/corrective',
    access: 'staff',
    ability: 'sales.invoices',
    status: 201,
    params: InvoiceParams,
    body: InvoiceCorrectiveInputSchema,
    response: InvoiceViewSchema,
  },
  postInvoiceCancel: {
    method: 'post',
    path: '/v4/:uuid/invoice/:invoice/cancel',
    access: 'staff',
    ability: 'sales.invoices',
    params: InvoiceParams,
    body: InvoiceCancelInputSchema,
    response: InvoiceViewSchema,
  },
  getPurchasesInvoices: {
    method: 'get',
    path: '/v4/:uuid/purchases/invoices',
    access: 'client',
    params: StudioParams,
    query: ClientInvoiceListQuerySchema,
    response: ClientInvoiceListSchema,
  },
  getPurchasesInvoicePdf: {
    method: 'get',
    path: '/v4/:uuid/purchases/invoice/:invoice/pdf',
    access: 'client',
    params: InvoiceParams,
    responseKind: 'file',
    contentType: PDF,
  },
});
