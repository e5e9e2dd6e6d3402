import { z } from 'zod';
import { LOCALES } from '../i18n/locales';

/** The web apps the server renders a shell for. */
export const WEB_APPS = ['entry', 'frontoffice', 'backoffice', 'kiosk', 'donation', 'widget'] as const;
export type WebApp = (typeof WEB_APPS)[number];

/**
 * What the server renders into each app's HTML (spec §3 "Page context attributes"): base url,
 * environment, session id, token, user id, studio uuid, locale — plus the app name and version.
 * Rendered as JSON in <script id="page-context" type="application/json">.
 */
export const PageContextSchema = z.object({
  app: z.enum(WEB_APPS),
  baseUrl: z.string(),
  environment: z.enum(['production', 'development', 'test']),
  sessionId: z.string().nullable(),
  token: z.string(),
  userId: z.string().nullable(),
  studioUuid: z.string().nullable(),
  locale: z.enum(LOCALES),
  version: z.string(),
});
export type PageContext = z.infer<typeof PageContextSchema>;

export const PAGE_CONTEXT_ELEMENT_ID = 'page-context';

/** Request headers of spec §6. */
export const AUTH_HEADER = 'x-auth-token';
export const CSRF_HEADER = 'x-csrf-token';
export const REQUESTED_WITH_HEADER = 'x-requested-with';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';

/** The auth header value: user id and session id joined by a colon. */
export function authHeaderValue(userId: string, sessionId: string): string {
  return `${userId}:${sessionId}`;
}

export function parseAuthHeader(value: string | undefined): { userId: string; sessionId: string } | null {
  if (!value) return null;
  const index = value.indexOf(':');
  if (index <= 0 || index === value.length - 1) return null;
  return { userId: value.slice(0, index), sessionId: value.slice(index + 1) };
}
