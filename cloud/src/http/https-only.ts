import { AppError } from '../../../shared/errors';
import type { Config } from '../config';
import type { AppContext } from './context';

/**
 * COOKIE_SECURE=true promises that every cookie is Secure, and a Secure cookie cannot be set on a
 * plain-HTTP request (Koa's cookie jar throws, which was a 500 on /login). So with COOKIE_SECURE the
 * server answers only requests that reached it over HTTPS: TLS on the socket, or a proxy that says so
 * in X-Forwarded-Proto with TRUST_PROXY=true. Anything else gets a clear 403, before any cookie.
 */
export async function httpsOnly(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (ctx.deps.config.COOKIE_SECURE && !ctx.secure) {
    throw new AppError('request.httpsRequired', {
      message: ctx.app.proxy
        ? 'this server answers HTTPS only (COOKIE_SECURE=true) and the proxy did not say the request came over HTTPS (X-Forwarded-Proto: https)'
        : 'this server answers HTTPS only (COOKIE_SECURE=true): open it with https://, or set TRUST_PROXY=true behind a proxy that terminates TLS',
    });
  }
  await next();
}

/**
 * What start-up says about COOKIE_SECURE: the cloud itself listens on plain HTTP, so Secure cookies
 * need a proxy that terminates TLS and TRUST_PROXY=true to believe its X-Forwarded-Proto. Null when
 * the configuration is consistent.
 */
export function transportWarning(
  config: Pick<Config, 'COOKIE_SECURE'>,
  env: Record<string, string | undefined>,
): string | null {
  if (!config.COOKIE_SECURE || env.TRUST_PROXY === 'true') return null;
  return (
    'COOKIE_SECURE=true but TRUST_PROXY is not true: this server listens on plain HTTP, so every ' +
    'request will be refused (403 request.httpsRequired). Put it behind a proxy that terminates TLS ' +
    'and sends X-Forwarded-Proto, and set TRUST_PROXY=true; or set COOKIE_SECURE=false for plain HTTP.'
  );
}
