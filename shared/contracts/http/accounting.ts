import { z } from 'zod';
import {
  AccountingMonthQuerySchema,
  AccountingRangeQuerySchema,
  AccountingSettingsInputSchema,
  AccountingSettingsViewSchema,
  AccountingSummarySchema,
} from '../api/accounting';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });

/**
 * The accountant's files (issue 19): staff with `reports.export` (accountant, manager, owner). The
 * files answer as attachments; a JPK file needs the studio's accounting settings (409
 * `accounting.settingsMissing` until they are saved).
 */
export const AccountingApi = contractGroup('accounting', {
  getSettings: {
    method: 'get',
    path: '/v4/:uuid/accounting/settings',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    response: AccountingSettingsViewSchema,
  },
  putSettings: {
    method: 'put',
    path: '/v4/:uuid/accounting/settings',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    body: AccountingSettingsInputSchema,
    response: AccountingSettingsViewSchema,
  },
  getSummary: {
    method: 'get',
    path: '/v4/:uuid/accounting/summary',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    query: AccountingRangeQuerySchema,
    response: AccountingSummarySchema,
  },
  getJpkFa: {
    method: 'get',
    path: '/v4/:uuid/accounting/jpk-fa.xml',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    query: AccountingRangeQuerySchema,
    responseKind: 'file',
  },
  getJpkV7m: {
    method: 'get',
    path: '/v4/:uuid/accounting/jpk-v7m.xml',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    query: AccountingMonthQuerySchema,
    responseKind: 'file',
  },
  getSalesRegisterCsv: {
    method: 'get',
    path: '/v4/:uuid/accounting/sales-register.csv',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    query: AccountingRangeQuerySchema,
    responseKind: 'file',
  },
  getSalesRegisterXlsx: {
    method: 'get',
    path: '/v4/:uuid/accounting/sales-register.xlsx',
    access: 'staff',
    ability: 'reports.export',
    params: StudioParams,
    query: AccountingRangeQuerySchema,
    responseKind: 'file',
  },
});
