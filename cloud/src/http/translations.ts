import type Router from '@koa/router';
import { isLocale, type Locale } from '../../../shared/i18n/locales';
import { serverI18n } from '../i18n';
import type { AppContext, AppCustom, AppState, RouteContext } from './context';
import { pageLocale } from './pages';

/**
 * GET /translations/{domain}.{format} (spec §2; domain defaults to "messages", format to "js").
 * "messages" is every namespace; any other domain is one namespace of locales/<lng>/<domain>.json.
 * The language is ?locale=, else the page's language.
 */
export function registerTranslationRoutes(router: Router<AppState, AppCustom>): void {
  const handler = async (ctx: RouteContext) => {
    const file = (ctx.params.file as string | undefined) ?? 'messages';
    const match = /^([A-Za-z0-9_-]+)(?:\.(js|json))?$/.exec(file);
    if (!match) return notFound(ctx);
    const domain = match[1]!;
    const format = match[2] ?? 'js';
    const locale: Locale = isLocale(ctx.query.locale) ? ctx.query.locale : pageLocale(ctx);
    const { catalog } = serverI18n();
    const namespaces = catalog[locale];
    const messages = domain === 'messages' ? namespaces : namespaces[domain];
    if (!messages) return notFound(ctx);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Vary', 'Cookie, Accept-Language');
    if (format === 'json') {
      ctx.body = { locale, domain, messages };
    } else {
      ctx.type = 'application/javascript; charset=utf-8';
      const json = JSON.stringify(messages).replace(/</g, '\\u003c');
      ctx.body = `(function(w){var t=w.__TRANSLATIONS__=w.__TRANSLATIONS__||{};t[${JSON.stringify(locale)}]=t[${JSON.stringify(locale)}]||{};t[${JSON.stringify(locale)}][${JSON.stringify(domain)}]=${json};})(window);\n`;
    }
  };
  router.get('/translations', handler);
  router.get('/translations/:file', handler);
}

function notFound(ctx: AppContext): void {
  ctx.status = 404;
  ctx.body = { error: { code: 1200, key: 'resource.notFound', message: 'unknown translation domain' } };
}
