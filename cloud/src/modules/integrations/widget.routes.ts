import type Router from '@koa/router';
import type { AppCustom, AppState } from '../../http/context';

/**
 * The embeddable widget (issue 24, README "The widget"): a studio's website adds
 * `<script src="https://<cloud>/widget.js" data-studio="<studio id>" async></script>`; the script
 * mounts an iframe of `/<studio id>/widget/me` (the `widget` web app: the timetable in the studio's
 * colours) after itself, or into `data-target` (a CSS selector), and resizes it to the height the page
 * reports with postMessage (only from its own iframe, only from the cloud's origin). `data-locale`
 * (en, pl) picks the language, else the visitor's browser decides.
 */
export const WIDGET_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script) return;
  var studio = script.getAttribute('data-studio') || '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(studio)) {
    console.error('studio widget: data-studio must be the studio id');
    return;
  }
  var origin = new URL(script.src, document.baseURI).origin;
  var src = origin + '/' + studio + '/widget/me';
  var locale = script.getAttribute('data-locale');
  if (locale === 'en' || locale === 'pl') src += '?locale=' + locale;
  var frame = document.createElement('iframe');
  frame.src = src;
  frame.title = script.getAttribute('data-title') || 'Timetable';
  frame.setAttribute('data-studio-widget', studio);
  frame.style.cssText = 'display:block;width:100%;min-height:320px;height:640px;border:0;color-scheme:normal;';
  var selector = script.getAttribute('data-target');
  var target = selector ? document.querySelector(selector) : null;
  if (target) target.appendChild(frame);
  else script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (data && data.type === 'studio-widget:height' && typeof data.height === 'number' && data.height > 0)
      frame.style.height = Math.min(Math.ceil(data.height), 20000) + 'px';
  });
})();
`;

/**
 * The widget's page routes, registered before the page routes (docs.routes.ts registers them): the
 * loader script, and the framing headers of `/{uuid}/widget/me` — the only page any site may frame
 * (`frame-ancestors *`, no X-Frame-Options); every other page keeps `frame-ancestors 'self'`.
 */
export function registerWidgetPageRoutes(router: Router<AppState, AppCustom>): void {
  router.get('/widget.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    // Loaded by other sites' pages: helmet's same-origin resource policy would block it there.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.body = WIDGET_SCRIPT;
  });
  router.all('/:uuid/widget/me', async (ctx, next) => {
    await next();
    const csp = ctx.response.get('Content-Security-Policy');
    if (csp)
      ctx.set(
        'Content-Security-Policy',
        /frame-ancestors [^;]*/.test(csp)
          ? csp.replace(/frame-ancestors [^;]*/, 'frame-ancestors *')
          : `${csp};frame-ancestors *`,
      );
    ctx.remove('X-Frame-Options');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
}
