import type Router from '@koa/router';
import type { Readable } from 'node:stream';
import { ReportsApi } from '../../../../shared/contracts/http/reports';
import type {
  Dac7Report,
  Dashboard,
  MemberLocations,
  PayRates,
  ReportCatalog,
  ReportData,
  StudioExportView,
} from '../../../../shared/contracts/api/reports';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { pageLocale } from '../../http/pages';
import { defineRoute } from '../../http/route';
import { XLSX_CONTENT_TYPE } from '../clients/index';
import { dac7Reports, setDac7Seller } from './dac7';
import { dashboard, dashboardScope, setMemberLocations } from './dashboard';
import { payRates, setPayRates } from './pay-rates';
import { reportCatalog, reportDef } from './report-catalog';
import { reportContext } from './report-period';
import { reportCsv, reportData, reportXlsx } from './report-runner';
import { exportStream, findExport, listExports, presentExport, requestExport } from './studio-export';

/** Management insight (issue 20; `shared/contracts/http/reports.ts`, README). */
export function registerReportRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...ReportsApi.dashboard,
    handle: async ({ db, studio, ctx, query, deps, auth }): Promise<Dashboard> =>
      dashboard(
        db,
        studio,
        deps.clock.now(),
        pageLocale(ctx, studio),
        await dashboardScope(db, studio, auth.user.id, query),
      ),
  });

  defineRoute(router, {
    ...ReportsApi.setDashboardLocations,
    handle: async ({ db, studio, auth, body }): Promise<MemberLocations> =>
      setMemberLocations(db as Knex.Transaction, studio, auth.user.id, body.locations),
  });

  // Before report/:report, which would otherwise take report/all.
  defineRoute(router, {
    ...ReportsApi.catalog,
    handle: async ({ db, studio, ctx }): Promise<ReportCatalog> =>
      reportCatalog(db, studio, pageLocale(ctx, studio)),
  });

  defineRoute(router, {
    ...ReportsApi.data,
    handle: async ({ db, studio, ctx, params, query }): Promise<ReportData> => {
      const def = reportDef(params.report);
      if (!def) throw AppError.notFound('report');
      return reportData(def, reportContext(db, studio, query, pageLocale(ctx, studio)));
    },
  });

  /** CSV or XLSX of every row, streamed from a cursor (never the whole file in memory). */
  defineRoute(router, {
    ...ReportsApi.export,
    handle: async ({ studio, params, query, deps, ctx }): Promise<Readable> => {
      const def = reportDef(params.report);
      if (!def) throw AppError.notFound('report');
      const locale = pageLocale(ctx, studio);
      const { format, ...filters } = query;
      const input = { knex: deps.knex, def, ctx: reportContext(deps.knex, studio, filters, locale), locale };
      const name = `${def.id}_${query.from}_${query.to}.${format}`;
      ctx.attachment(name);
      ctx.set('Cache-Control', 'private, no-store');
      if (format === 'xlsx') {
        ctx.type = XLSX_CONTENT_TYPE;
        return reportXlsx(input, def.id);
      }
      ctx.type = 'text/csv; charset=utf-8';
      return reportCsv(input);
    },
  });

  defineRoute(router, {
    ...ReportsApi.payRates,
    handle: async ({ db, studio, ctx }): Promise<PayRates> => payRates(db, studio, pageLocale(ctx, studio)),
  });

  defineRoute(router, {
    ...ReportsApi.setPayRates,
    handle: async ({ db, studio, body, deps }): Promise<void> => {
      await setPayRates(db as Knex.Transaction, studio, body, deps.clock.now());
    },
    present: async (_, { db, studio, ctx }): Promise<PayRates> =>
      payRates(db, studio, pageLocale(ctx, studio)),
  });

  defineRoute(router, {
    ...ReportsApi.requestStudioExport,
    handle: async ({ db, studio, auth }): Promise<StudioExportView> =>
      requestExport(db as Knex.Transaction, studio, auth.user.id),
  });

  // Before studio-data-export/:export.
  defineRoute(router, {
    ...ReportsApi.studioExports,
    handle: async ({ db, studio }): Promise<{ items: StudioExportView[] }> => ({
      items: await listExports(db, studio),
    }),
  });

  defineRoute(router, {
    ...ReportsApi.studioExport,
    handle: async ({ db, studio, params }): Promise<StudioExportView> =>
      presentExport(await findExport(db, studio, params.export)),
  });

  /** The zip, streamed chunk by chunk from the database. */
  defineRoute(router, {
    ...ReportsApi.downloadStudioExport,
    handle: async ({ db, studio, params, deps, ctx }): Promise<Readable> => {
      const row = await findExport(db, studio, params.export);
      if (row.status !== 'ready')
        throw new AppError('studioExport.notReady', { message: 'the export is not ready yet' });
      ctx.attachment(`${studio.slug}-data-${row.createdAt.toISOString().slice(0, 10)}.zip`);
      ctx.type = 'application/zip';
      ctx.set('Cache-Control', 'private, no-store');
      return exportStream(deps.knex, row);
    },
  });

  defineRoute(router, {
    ...ReportsApi.dac7Collection,
    handle: async ({ db, studio, deps }): Promise<{ items: Dac7Report[] }> => ({
      items: await dac7Reports(db, studio, deps.clock.now()),
    }),
  });

  defineRoute(router, {
    ...ReportsApi.setDac7Seller,
    handle: async ({ db, studio, body, deps }): Promise<void> => {
      await setDac7Seller(db as Knex.Transaction, studio, body, deps.clock.now());
    },
    present: async (_, { db, studio, deps }): Promise<{ items: Dac7Report[] }> => ({
      items: await dac7Reports(db, studio, deps.clock.now()),
    }),
  });
}
