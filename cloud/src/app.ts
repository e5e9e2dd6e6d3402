import { randomUUID } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import helmet from 'koa-helmet';
import serve from 'koa-static';
import { AppError } from '../../shared/errors';
import { authMiddleware, csrfMiddleware } from './http/auth';
import type { AppCustom, AppState, Deps } from './http/context';
import { errorMiddleware } from './http/errors';
import { httpsOnly } from './http/https-only';
import { instrumentKnex, serverTimingHeader, withRequestTiming } from './http/server-timing';
import { memoizeRouteMatching } from './http/route-match-memo';
import { routeCatalog } from './http/route';
import { registerPageRoutes } from './http/pages';
import { registerTranslationRoutes } from './http/translations';
import { registerEntryRoutes } from './modules/entry/index';
import { registerAccountErasureRoutes } from './modules/identity/index';
import { registerClientRoutes } from './modules/clients/index';
import { registerClientRecordRoutes } from './modules/client-records/index';
import { registerClientAccountRoutes } from './modules/client-accounts/index';
import { registerCatalogRoutes } from './modules/catalog/index';
import { registerAuthRoutes } from './modules/identity/index';
import { registerStaffRoutes } from './modules/staff/index';
import { registerProductRoutes } from './modules/products/index';
import { registerFiscalPrinterRoutes } from './modules/fiscal-printers/index';
import { registerScheduleRoutes } from './modules/schedule/index';
import { registerSalesRoutes } from './modules/sales/index';
import { registerSalesPageRoutes } from './modules/sales/index';
import { registerSubscriptionPageRoutes, registerSubscriptionRoutes } from './modules/subscription/index';
import { registerDonationGuards } from './modules/sales/index';
import { configurePaymentSecrets } from './modules/sales/index';
import { configureKsef } from './modules/invoices/index';
import { configureWebhookSecrets } from './webhooks/secrets';
import { registerKsefRoutes } from './modules/invoices/index';
import { registerBookingRoutes } from './modules/bookings/index';
import { registerSyncRoutes } from './sync/sync.routes';
import { registerSyncReviewRoutes } from './sync/review.routes';
import { registerPlacesRoutes } from './modules/places/index';
import { registerContractRoutes } from './modules/contracts/index';
import { registerInvoiceRoutes } from './modules/invoices/index';
import { registerAccountingRoutes } from './modules/accounting/index';
import { registerReportRoutes } from './modules/reports/index';
import { registerStudioAdminRoutes } from './modules/studio-admin/index';
import { registerTranslationsRoutes } from './modules/translations/index';
import { registerAppointmentsRoutes } from './modules/appointments/index';
import { registerCommunicationRoutes } from './modules/communication/index';
import { registerRetailRoutes } from './modules/retail/index';
import { registerKioskRoutes } from './modules/kiosk/index';
import { kioskScopeMiddleware } from './modules/kiosk/index';
import { registerStationRoutes } from './modules/stations/index';
import { registerEntriesRoutes } from './modules/entries/index';
import { isVideoUploadPath, registerVideoRoutes, videoUploadMiddleware } from './modules/videos/index';
import { registerDeskFleetRoutes, registerDesktopRoutes } from './modules/desk-fleet/index';
import { registerIntegrationRoutes } from './modules/integrations/index';
import { publicApiKeyMiddleware } from './modules/integrations/index';
import { configureWebhookNetwork } from './modules/integrations/index';
import { configureGoogleCalendar } from './modules/appointments/index';
import { registerApiDocsRoutes } from './modules/integrations/index';
import { WEB_DIST_DIR } from './paths';

/** Every module's API routes, mounted under /api. */
const API_MODULES: ReadonlyArray<(router: Router<AppState, AppCustom>) => void> = [
  registerAuthRoutes,
  registerEntryRoutes,
  registerAccountErasureRoutes,
  registerStaffRoutes,
  registerClientRoutes,
  registerClientRecordRoutes,
  registerProductRoutes,
  registerClientAccountRoutes,
  registerCatalogRoutes,
  registerFiscalPrinterRoutes,
  // Before the schedule: its class-service/{classService} would otherwise take class-service/all.
  registerPlacesRoutes,
  registerScheduleRoutes,
  // Before sales: the donation checkout's rate limits run first.
  registerDonationGuards,
  registerSalesRoutes,
  registerBookingRoutes,
  registerContractRoutes,
  registerInvoiceRoutes,
  registerAccountingRoutes,
  registerReportRoutes,
  registerAppointmentsRoutes,
  registerCommunicationRoutes,
  registerKsefRoutes,
  registerRetailRoutes,
  registerStationRoutes,
  registerDeskFleetRoutes,
  registerKioskRoutes,
  registerSyncReviewRoutes,
  registerEntriesRoutes,
  registerVideoRoutes,
  registerStudioAdminRoutes,
  registerSubscriptionRoutes,
  registerTranslationsRoutes,
  registerIntegrationRoutes,
];

export type ExtraMiddleware = Koa.Middleware<AppState, AppCustom>;

/**
 * The Koa application. Order matters: request id and logging, security headers, the error envelope,
 * static assets, body parsing, session, CSRF, then the API and the page routes.
 */
export function createApp(
  deps: Deps,
  options: { devMiddleware?: ExtraMiddleware } = {},
): Koa<AppState, AppCustom> {
  const app = new Koa<AppState, AppCustom>({ proxy: process.env.TRUST_PROXY === 'true' });
  app.context.deps = deps;
  configurePaymentSecrets(deps.config);
  configureKsef(deps.config);
  configureWebhookSecrets(deps.config);
  configureWebhookNetwork({ allowLoopback: deps.config.WEBHOOKS_ALLOW_LOOPBACK });
  configureGoogleCalendar(deps.config);
  const dev = Boolean(options.devMiddleware);
  instrumentKnex(deps.knex);

  app.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = /^[A-Za-z0-9_-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.state.log = deps.log.child({ requestId: ctx.state.requestId });
    const started = process.hrtime.bigint();
    await withRequestTiming(async (timing) => {
      try {
        await next();
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (!ctx.path.startsWith('/assets/')) {
          if (!ctx.headerSent) ctx.set('Server-Timing', serverTimingHeader(timing, ms));
          ctx.state.log.info(
            { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 },
            'request',
          );
        }
      }
    });
  });

  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // Vite's dev server injects an inline preamble and opens a websocket; production needs neither.
          'script-src': dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          // hls.js plays course videos through Media Source Extensions: a blob: URL of the page's own.
          'media-src': ["'self'", 'blob:'],
          'connect-src': dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
          'worker-src': dev ? ["'self'", 'blob:'] : ["'self'"],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: deps.config.COOKIE_SECURE,
    }),
  );

  app.use(errorMiddleware);
  app.use(httpsOnly);

  if (!dev) {
    const assets = serve(WEB_DIST_DIR, {
      maxage: 365 * 24 * 3600_000,
      immutable: true,
      index: false,
      gzip: false,
      brotli: false,
    });
    app.use(async (ctx, next) => (ctx.path.startsWith('/assets/') ? assets(ctx, next) : next()));
  }

  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: '1mb',
      encoding: 'utf-8',
      // DELETE too: erasing an account carries the password that confirms it.
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      onError: (err) => {
        // raw-body marks an over-limit body with status 413: that is a size problem, not bad JSON.
        if ((err as { status?: unknown }).status === 413)
          throw new AppError('request.tooLarge', {
            message: 'request body too large',
            fields: { '': ['the request body is larger than 1 MB'] },
          });
        throw new AppError('request.malformedJson', {
          message: 'malformed JSON body',
          fields: { '': ['malformed JSON body'] },
        });
      },
    }),
  );
  app.use(async (ctx, next) => {
    // A mutating API call must send JSON (or nothing): other content types would bypass validation.
    if (
      ctx.path.startsWith('/api/') &&
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) &&
      ctx.request.length
    ) {
      // Uploads (`…/upload`, POST studio-document) may send multipart/form-data: their route parses and checks it.
      // The RFC 8058 one-click unsubscribe is form-encoded (`List-Unsubscribe=One-Click`), never read.
      const oneClick = ctx.path.startsWith('/api/v4/unsubscribe/') && ctx.is('urlencoded');
      if (
        !ctx.is('json') &&
        !oneClick &&
        !(
          (ctx.path.endsWith('/upload') || /^\/api\/v4\/[^/]+\/studio-document$/.test(ctx.path)) &&
          ctx.is('multipart')
        ) &&
        !isVideoUploadPath(ctx.path)
      )
        throw new AppError('request.unsupportedMediaType', { message: 'send application/json' });
    }
    await next();
  });
  // A kiosk session may make kiosk calls only (modules/kiosk): 403 before anything else looks at it.
  app.use(kioskScopeMiddleware);
  // The public API's key, scope and per-key rate limit (modules/integrations), before any session.
  app.use(publicApiKeyMiddleware);
  app.use(authMiddleware);
  app.use(csrfMiddleware);
  // The tus endpoint of video uploads (modules/videos): its own protocol, not a JSON route.
  app.use(videoUploadMiddleware(deps));

  const api = memoizeRouteMatching(new Router<AppState, AppCustom>({ prefix: '/api' }));
  for (const register of API_MODULES) register(api);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  // Station sync (device tokens, not sessions): docs/offline-sync.md, cloud/src/sync/README.md.
  // The desks' update feed, contact, logs and crash reports (and the version floor on /sync).
  registerDesktopRoutes(app);
  registerSyncRoutes(app);

  const pages = new Router<AppState, AppCustom>();
  pages.get('/health', async (ctx) => {
    await deps.knex.raw('select 1');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  registerTranslationRoutes(pages);
  registerApiDocsRoutes(pages, describeApiRoutes);
  registerSalesPageRoutes(pages);
  registerSubscriptionPageRoutes(pages);
  registerPageRoutes(pages);
  const pageRoutes = pages.routes() as unknown as Koa.Middleware<AppState, AppCustom>;
  app.use(async (ctx, next) => (ctx.path.startsWith('/api/') ? next() : pageRoutes(ctx, next)));
  if (options.devMiddleware) app.use(options.devMiddleware);

  return app;
}

/** Every API route with its access rule and schemas (for the bad-input suite and the API docs). */
export function describeApiRoutes() {
  const router = new Router<AppState, AppCustom>({ prefix: '/api' });
  for (const register of API_MODULES) register(router);
  return (routeCatalog.get(router) ?? []).map((spec) => ({ ...spec, fullPath: `/api${spec.path}` }));
}

/** The API's router as `createApp` builds it, unmemoized (for `route-match-memo.test.ts`). */
export function apiRouter() {
  const router = new Router<AppState, AppCustom>({ prefix: '/api' });
  for (const register of API_MODULES) register(router);
  return router;
}
