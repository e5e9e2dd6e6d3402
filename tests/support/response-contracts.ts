import type { z } from 'zod';
import { describeApiRoutes } from '../../cloud/src/app';
import { pathMatcher } from '../../shared/contracts/http/define';

interface Matcher {
  method: string;
  match: (path: string) => Record<string, string> | null;
  name: string;
  fullPath: string;
  response: z.ZodType | undefined;
}

let matchers: Matcher[] | null = null;

/** The API routes in registration order (the router answers with the first that matches). */
function routes(): Matcher[] {
  matchers ??= describeApiRoutes().map((route) => ({
    method: route.method.toUpperCase(),
    match: pathMatcher(route.fullPath),
    name: route.name ?? `${route.method.toUpperCase()} ${route.fullPath}`,
    fullPath: route.fullPath,
    response: route.response,
  }));
  return matchers;
}

/** The route that answers a concrete request (`GET /api/v4/<uuid>/schedule/init?x=1`), or null. */
export function routeOf(method: string, url: string): Matcher | null {
  const path = url.split('?')[0]!.replace(/\/+$/, '');
  return routes().find((r) => r.method === method.toUpperCase() && r.match(path) !== null) ?? null;
}

/**
 * Fails (throws) when a success answer of a route with a contract response schema does not match it:
 * every integration test that calls the API through the test HTTP client proves the schemas.
 */
export function checkResponseContract(
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  if (status < 200 || status >= 300 || status === 204 || !url.startsWith('/api/')) return;
  // Files (CSV, XLSX exports) that a JSON route may answer instead are not described by the schema.
  if (!contentType.includes('json')) return;
  const route = routeOf(method, url);
  if (!route?.response) return;
  const parsed = route.response.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  throw new Error(
    `${method.toUpperCase()} ${url} answered ${status} with a body that does not match the response schema of ${route.name} (${route.fullPath}): ${issues}`,
  );
}
