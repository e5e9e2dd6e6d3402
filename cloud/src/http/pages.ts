import fs from 'node:fs/promises';
import path from 'node:path';
import type Router from '@koa/router';
import type { PageContext, WebApp } from '../../../shared/contracts/page-context';
import { PAGE_CONTEXT_ELEMENT_ID } from '../../../shared/contracts/page-context';
import { DEFAULT_LOCALE, isLocale, negotiateLocale, type Locale } from '../../../shared/i18n/locales';
import { tFor } from '../i18n';
import { findStudio, type Studio } from '../modules/identity/index';
import { VERSION } from '../version';
import { csrfTokenFor } from './auth';
import type { AppContext, AppCustom, AppState, RouteContext } from './context';
import { LOCALE_COOKIE, SESSION_COOKIE } from './cookies';
import { sameOriginPath } from './redirect-target';
import { createWebPreloads, injectModulePreloads } from './web-preloads';

/** Where each app's index.html comes from: the Vite build, or Vite's dev server in `--dev`. */
export interface WebAssets {
  html(app: WebApp, url: string): Promise<string | null>;
  /** Chunks to modulepreload beyond index.html's for this path and language (see web-preloads.ts). */
  preloads?(app: WebApp, urlPath: string, locale: Locale): string[];
}

export function builtWebAssets(distDir: string): WebAssets {
  const cache = new Map<WebApp, string>();
  const preloads = createWebPreloads(distDir);
  return {
    preloads,
    async html(app) {
      const cached = cache.get(app);
      if (cached) return cached;
      try {
        const html = await fs.readFile(path.join(distDir, app, 'index.html'), 'utf8');
        cache.set(app, html);
        return html;
      } catch {
        return null;
      }
    },
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page's language: the user's choice (cookie, then saved profile), the browser's, the studio's. */
export function pageLocale(ctx: AppContext, studio?: Studio | null): Locale {
  const cookie = ctx.cookies.get(LOCALE_COOKIE);
  if (isLocale(cookie)) return cookie;
  const saved = ctx.state.auth?.user.locale;
  if (isLocale(saved)) return saved;
  const negotiated = negotiateLocale(ctx.get('accept-language'));
  if (negotiated) return negotiated;
  if (studio && isLocale(studio.defaultLocale)) return studio.defaultLocale;
  return DEFAULT_LOCALE;
}

export function buildPageContext(ctx: AppContext, app: WebApp, studio: Studio | null): PageContext {
  const auth = ctx.state.auth;
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  const sessionId = auth && cookie ? (decodeURIComponent(cookie).split(':')[1] ?? null) : null;
  const env = ctx.deps.config.NODE_ENV;
  return {
    app,
    baseUrl: ctx.deps.config.publicUrl,
    environment: env,
    // The page can only hand out a session it received as a cookie; header-only sessions stay in the client.
    sessionId: sessionId && auth ? sessionId : null,
    token: csrfTokenFor(ctx),
    userId: sessionId && auth ? auth.user.id : null,
    studioUuid: studio?.id ?? null,
    locale: pageLocale(ctx, studio),
    version: VERSION,
  };
}

function escapeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function injectPageContext(html: string, context: PageContext): string {
  const script = `<script id="${PAGE_CONTEXT_ELEMENT_ID}" type="application/json">${escapeJson(context)}</script>`;
  return html
    .replace('<!--page-context-->', script)
    .replace(/<html([^>]*?)\slang="[^"]*"/, `<html$1 lang="${context.locale}"`);
}

async function serveApp(ctx: AppContext, app: WebApp, studio: Studio | null, status = 200): Promise<void> {
  const html = await ctx.deps.web.html(app, ctx.originalUrl);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Vary', 'Cookie, Accept-Language');
  if (!html) {
    ctx.status = 503;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = tFor(pageLocale(ctx, studio))('server:webNotBuilt');
    return;
  }
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  const context = buildPageContext(ctx, app, studio);
  const preloads = ctx.deps.web.preloads?.(app, ctx.path, context.locale) ?? [];
  ctx.body = injectPageContext(injectModulePreloads(html, preloads), context);
}

function studioNotFound(ctx: AppContext): void {
  const locale = pageLocale(ctx);
  const t = tFor(locale);
  ctx.status = 404;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${t('server:studioNotFound.title')}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${t('server:studioNotFound.title')}</h1><p>${t('server:studioNotFound.body')}</p><p><a href="/login">${t('server:studioNotFound.back')}</a></p></body></html>`;
}

/** The studio-scoped pages: an unknown studio is a 404 page, not an app shell that loops. */
function studioPage(app: WebApp) {
  return async (ctx: RouteContext, next: () => Promise<unknown>) => {
    // Not a uuid: not a studio page at all (an unknown /api path, a missing asset): fall through to 404.
    if (!UUID_RE.test(ctx.params.uuid ?? '')) return next();
    const studio = await findStudio(ctx.deps.knex, ctx.params.uuid!);
    if (!studio) return studioNotFound(ctx);
    await serveApp(ctx, app, studio);
  };
}

const entryPage = async (ctx: AppContext) => serveApp(ctx, 'entry', null);

/** Page routes of spec §2. They answer any HTTP method, as the spec says. */
export function registerPageRoutes(router: Router<AppState, AppCustom>): void {
  router.all('/app/about-blank', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>';
  });
  router.all('/app/auth/check', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { authenticated: Boolean(ctx.state.auth), userId: ctx.state.auth?.user.id ?? null };
  });
  router.all('/auth/set-cookie', (ctx) => {
    // Lets a native shell or another app set the language for the pages that follow.
    const locale = ctx.query.locale;
    if (isLocale(locale)) {
      ctx.cookies.set(LOCALE_COOKIE, locale, {
        httpOnly: false,
        sameSite: 'lax',
        maxAge: 365 * 24 * 3600_000,
      });
    }
    ctx.redirect(sameOriginPath(ctx.query.redirect) ?? '/');
  });
  for (const p of [
    '/app/return',
    '/app/form-redirect',
    '/app/devtools',
    '/app/file',
    '/app/auth/facebook/callback',
    '/app/switch-account',
  ]) {
    router.all(p, entryPage);
  }

  router.all(`/:uuid/frontoffice{/*slug}`, studioPage('frontoffice'));
  router.all(`/:uuid/splashscreen`, studioPage('frontoffice'));
  router.all(`/:uuid/login-as-member`, studioPage('frontoffice'));
  router.all(`/:uuid/backoffice`, studioPage('backoffice'));
  router.all(`/:uuid/backoffice/inbox`, studioPage('backoffice'));
  router.all(`/:uuid/kiosk/:slug`, studioPage('kiosk'));
  router.all(`/:uuid/donation`, studioPage('donation'));
  router.all(`/:uuid/donation/payment-status`, studioPage('donation'));
  router.all(`/:uuid/widget/me`, studioPage('widget'));
  router.all('/backoffice.v4/:slug', async (ctx) => {
    // The slug names a back-office screen; without a studio in the URL, go to the user's own studio.
    const userId = ctx.state.auth?.user.id;
    const staff = userId
      ? await ctx.deps.knex('memberships').where({ userId, isMember: true }).whereNull('archivedAt').first()
      : undefined;
    if (!staff) return ctx.redirect('/login');
    ctx.redirect(`/${staff.studioId}/backoffice#/${encodeURIComponent(ctx.params.slug ?? '')}`);
  });

  // The entry app: / and its screens, and the app index /{slug} whose first segment the app treats
  // as a studio uuid (spec §2: letters, digits, underscore, dot, hyphen).
  router.all('/', entryPage);
  router.all('/:slug', async (ctx, next) => {
    if (!/^[A-Za-z0-9_.-]+$/.test(ctx.params.slug ?? '') || ctx.params.slug === 'api') return next();
    await entryPage(ctx);
  });
  router.all('/:uuid/*rest', studioPage('frontoffice'));
}
