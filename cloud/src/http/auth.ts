import { AppError } from '../../../shared/errors';
import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
  parseAuthHeader,
} from '../../../shared/contracts/page-context';
import { findLiveSession } from '../modules/identity/index';
import { newSecret, safeEqual } from '../modules/identity/index';
import type { AppContext } from './context';
import { CSRF_COOKIE, SESSION_COOKIE } from './cookies';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** An API path whose first segment after the version is a studio's uuid. */
const STUDIO_PATH = /^\/api\/v\d+\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

/**
 * Resolves the session from the auth header (spec §6: user id and session id) or, for page loads
 * and clients that lost the header, from the HttpOnly session cookie.
 */
export async function authMiddleware(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  ctx.state.auth = null;
  const raw = ctx.get(AUTH_HEADER) || ctx.cookies.get(SESSION_COOKIE) || '';
  const parsed = parseAuthHeader(raw ? decodeURIComponent(raw) : undefined);
  if (parsed && /^[0-9a-f-]{36}$/i.test(parsed.userId)) {
    const { knex, clock, config } = ctx.deps;
    // A studio's route: its studio and the caller's membership come with the session (one statement).
    const studioId = STUDIO_PATH.exec(ctx.path)?.[1];
    const found = await findLiveSession(
      knex,
      clock,
      parsed.userId,
      parsed.sessionId,
      config.SESSION_TTL_HOURS,
      studioId,
    );
    if (found) {
      const { studioScope, ...auth } = found;
      ctx.state.auth = auth;
      if (studioScope) ctx.state.studioScope = { ...studioScope, userId: auth.user.id };
    }
    if (!ctx.state.auth && ctx.get(AUTH_HEADER)) {
      // A header that names a dead session is an expired sign-in, not an anonymous visitor.
      if (ctx.path.startsWith('/api/'))
        throw new AppError('auth.sessionExpired', { message: 'session expired, sign in again' });
    }
  }
  await next();
}

/**
 * State-changing API calls must carry the XMLHttpRequest marker and the CSRF token from the page
 * context: the session's token when signed in, else the anonymous double-submit cookie's value.
 */
export async function csrfMiddleware(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  // The public API authenticates with a per-studio key in a custom header, which a browser cannot
  // send cross-site without CORS: no cookie, so nothing to forge (bookings module, `x-api-key`).
  const apiKeyCall = ctx.path.startsWith('/api/v2/public/') && Boolean(ctx.get('x-api-key'));
  // RFC 8058 one-click unsubscribe: a mail provider POSTs it with no cookie; the unguessable token in
  // the path is the only authority, so there is nothing a forged request could borrow.
  const oneClick = ctx.method === 'POST' && ctx.path.startsWith('/api/v4/unsubscribe/');
  // Bounce and complaint feedback (modules/communication): only a bearer token is read, never a cookie.
  const mailFeedback = ctx.method === 'POST' && ctx.path === '/api/v4/mail-feedback';
  if (
    ctx.path.startsWith('/api/') &&
    !SAFE_METHODS.has(ctx.method) &&
    !apiKeyCall &&
    !oneClick &&
    !mailFeedback
  ) {
    const marker = ctx.get(REQUESTED_WITH_HEADER);
    const token = ctx.get(CSRF_HEADER);
    const expected = ctx.state.auth ? ctx.state.auth.session.csrfToken : ctx.cookies.get(CSRF_COOKIE);
    if (marker !== REQUESTED_WITH_VALUE || !token || !expected || !safeEqual(token, expected)) {
      throw new AppError('auth.csrf', { message: 'missing or invalid CSRF token' });
    }
  }
  await next();
}

/** The CSRF token for this browser: the session's when signed in, else the anonymous cookie (set if new). */
export function csrfTokenFor(ctx: AppContext): string {
  if (ctx.state.auth) return ctx.state.auth.session.csrfToken;
  let token = ctx.cookies.get(CSRF_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{20,64}$/.test(token)) {
    token = newSecret(24);
    ctx.cookies.set(CSRF_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.deps.config.COOKIE_SECURE,
      maxAge: 7 * 24 * 3600_000,
      overwrite: true,
    });
  }
  return token;
}
