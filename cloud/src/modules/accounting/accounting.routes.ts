import type Router from '@koa/router';
import { AccountingApi } from '../../../../shared/contracts/http/accounting';
import type { AccountingSettingsView, AccountingSummary } from '../../../../shared/contracts/api/accounting';
import type { Knex } from '../../db/knex';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { XLSX_CONTENT_TYPE } from '../clients/index';
import {
  accountingSettings,
  loadPeriod,
  saveAccountingSettings,
  settingsForJpk,
  summary,
} from './accounting-data';
import { jpkFaXml } from './jpk-fa';
import { jpkV7mXml } from './jpk-v7m';
import { salesRegisterCsv, salesRegisterXlsx } from './sales-register';

/** A downloaded file: an attachment, never cached. */
function attach(ctx: AppContext, name: string, type: string) {
  ctx.attachment(name);
  ctx.type = type;
  ctx.set('Cache-Control', 'private, no-store');
}

const XML = 'application/xml; charset=utf-8';
const span = (q: { from: string; to: string }) => `${q.from}_${q.to}`;

/** The accountant's files (issue 19; `shared/contracts/http/accounting.ts`, README "Accounting"). */
export function registerAccountingRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...AccountingApi.getSettings,
    handle: async ({ db, studio }): Promise<AccountingSettingsView> => accountingSettings(db, studio),
  });

  defineRoute(router, {
    ...AccountingApi.putSettings,
    handle: async ({ db, studio, body, deps }): Promise<AccountingSettingsView> =>
      saveAccountingSettings(db as Knex.Transaction, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...AccountingApi.getSummary,
    handle: async ({ db, studio, query, deps }): Promise<AccountingSummary> =>
      summary(await loadPeriod(db, studio, query.from, query.to, deps.clock.now())),
  });

  defineRoute(router, {
    ...AccountingApi.getJpkFa,
    handle: async ({ db, studio, query, deps, ctx }): Promise<string> => {
      const now = deps.clock.now();
      const period = await loadPeriod(db, studio, query.from, query.to, now);
      const settings = await settingsForJpk(db, studio, period.seller);
      const xml = jpkFaXml(period, settings, now);
      attach(ctx, `JPK_FA_${span(query)}.xml`, XML);
      return xml;
    },
  });

  defineRoute(router, {
    ...AccountingApi.getJpkV7m,
    handle: async ({ db, studio, query, deps, ctx }): Promise<string> => {
      const now = deps.clock.now();
      const period = await loadPeriod(db, studio, query.from, query.to, now);
      const settings = await settingsForJpk(db, studio, period.seller);
      const xml = jpkV7mXml(period, settings, now);
      attach(ctx, `JPK_V7M_${query.from.slice(0, 7)}.xml`, XML);
      return xml;
    },
  });

  defineRoute(router, {
    ...AccountingApi.getSalesRegisterCsv,
    handle: async ({ db, studio, query, deps, ctx }): Promise<string> => {
      const csv = salesRegisterCsv(await loadPeriod(db, studio, query.from, query.to, deps.clock.now()));
      attach(ctx, `rejestr_sprzedazy_${span(query)}.csv`, 'text/csv; charset=utf-8');
      return csv;
    },
  });

  defineRoute(router, {
    ...AccountingApi.getSalesRegisterXlsx,
    handle: async ({ db, studio, query, deps, ctx }): Promise<Buffer> => {
      const xlsx = await salesRegisterXlsx(
        await loadPeriod(db, studio, query.from, query.to, deps.clock.now()),
      );
      attach(ctx, `rejestr_sprzedazy_${span(query)}.xlsx`, XLSX_CONTENT_TYPE);
      return xlsx;
    },
  });
}
