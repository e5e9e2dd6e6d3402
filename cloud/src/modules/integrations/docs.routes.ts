import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { openApiDocument, type ApiDocument, type CatalogRoute } from './openapi';
import { registerWidgetPageRoutes } from './widget.routes';

const require = createRequire(import.meta.url);
/** Scalar's API reference, one self-contained browser bundle: the docs work offline and need no CDN. */
const VIEWER = '@scalar/api-reference/browser/standalone.js';
let viewer: Promise<Buffer> | undefined;

const page = (title: string, url: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
  </head>
  <body>
    <script id="api-reference" data-url="${url}" data-configuration='${JSON.stringify({
      url,
      withDefaultFonts: false,
      hideClientButton: true,
      hideDownloadButton: false,
      defaultOpenFirstTag: true,
      telemetry: false,
    })}'></script>
    <script src="/docs/api/reference.js"></script>
  </body>
</html>`;

/**
 * The API documentation (issue 24): `/docs/api` (the public API's reference, readable by anyone),
 * `/docs/api/openapi.json` (its OpenAPI 3.1 document), `/docs/api/private` and `/docs/api/private.json`
 * (every other route, for signed-in users). The documents are generated from the route catalog once.
 */
export function registerApiDocsRoutes(
  router: Router<AppState, AppCustom>,
  catalog: () => readonly CatalogRoute[],
): void {
  // The widget's loader and framing headers: pages of this module too, before the page routes.
  registerWidgetPageRoutes(router);
  const documents = new Map<string, object>();
  const document = (which: ApiDocument, origin: string) => {
    const key = `${which}|${origin}`;
    let doc = documents.get(key);
    if (!doc) documents.set(key, (doc = openApiDocument(catalog(), which, origin)));
    return doc;
  };
  const origin = (ctx: { deps: { config: { publicUrl: string } }; origin: string }) =>
    ctx.deps.config.publicUrl || ctx.origin;

  router.get('/docs/api', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = page('Studio Platform public API', '/docs/api/openapi.json');
  });
  router.get('/docs/api/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = document('public', origin(ctx));
  });
  router.get('/docs/api/private', (ctx) => {
    if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = page('Studio Platform apps API', '/docs/api/private.json');
  });
  router.get('/docs/api/private.json', (ctx) => {
    if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = document('private', origin(ctx));
  });
  router.get('/docs/api/reference.js', async (ctx) => {
    viewer ??= readFile(require.resolve(VIEWER));
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await viewer;
  });
}
