import { z } from 'zod';
import {
  InvoiceKsefViewSchema,
  KsefInvoiceListQuerySchema,
  KsefInvoiceListSchema,
  KsefSettingsInputSchema,
  KsefSettingsViewSchema,
} from '../api/ksef';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
const InvoiceParams = z.object({ uuid: z.string(), invoice: z.uuid() });

/** KSeF (issue 19): the studio's settings, each invoice's state, resending, the UPO. */
export const KsefApi = contractGroup('ksef', {
  getSettings: {
    method: 'get',
    path: '/v4/:uuid/ksef-settings',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    response: KsefSettingsViewSchema,
  },
  putSettings: {
    method: 'put',
    path: '/v4/:uuid/ksef-settings',
    access: 'staff',
    ability: 'sales.invoices',
    params: StudioParams,
    body: KsefSettingsInputSchema,
    response: KsefSettingsViewSchema,
  },
  listInvoices: {
    method: 'get',
    path: '/v4/:uuid/ksef/invoices',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: KsefInvoiceListQuerySchema,
    response: KsefInvoiceListSchema,
  },
  getInvoice: {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/ksef',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    response: InvoiceKsefViewSchema,
  },
  resend: {
    method: 'post',
    path: '/v4/:uuid/invoice/:invoice/ksef/resend',
    access: 'staff',
    ability: 'sales.invoices',
    params: InvoiceParams,
    response: InvoiceKsefViewSchema,
  },
  getUpo: {
    method: 'get',
    path: '/v4/:uuid/invoice/:invoice/ksef/upo.xml',
    access: 'staff',
    ability: 'sales.view',
    params: InvoiceParams,
    responseKind: 'file',
  },
});
