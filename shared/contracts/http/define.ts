import type { z } from 'zod';
import type { Ability } from '../../policies/abilities';

/**
 * Who may call a route:
 * - public: anyone (still CSRF-checked when it changes state);
 * - user: any signed-in user;
 * - studio: a signed-in user with any membership in the `:uuid` studio;
 * - staff: a signed-in member of staff of the `:uuid` studio;
 * - client: a signed-in client of the `:uuid` studio.
 */
export type Access = 'public' | 'user' | 'studio' | 'staff' | 'client';

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One API route, written once and shared by the cloud (which implements it: `defineRoute(router,
 * { ...entry, handle })`), the web (which calls it: `api.call(entry, { params, query, body })`), the
 * desktop's offline router (which answers it from SQLite) and the integration tests (which parse
 * every 2xx answer with `response`). The catalog of all entries (`./index.ts`) is the source of the
 * API documentation.
 */
export interface ApiContract<
  A extends Access = Access,
  PS extends z.ZodType | undefined = z.ZodType | undefined,
  QS extends z.ZodType | undefined = z.ZodType | undefined,
  BS extends z.ZodType | undefined = z.ZodType | undefined,
  RS extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** Stable operation name, `<area>.<operation>` (the OpenAPI operationId). */
  readonly name: string;
  readonly method: RouteMethod;
  /** Koa-style path under `/api`, e.g. `/v4/:uuid/schedule/init`. */
  readonly path: string;
  readonly access: A;
  /** For staff routes: the ability the caller's role must hold (403 otherwise). */
  readonly ability?: Ability;
  readonly params?: PS;
  readonly query?: QS;
  readonly body?: BS;
  /**
   * The success body (JSON). Omitted only for answers that are not JSON (files, 204) — say so in
   * `responseKind`.
   */
  readonly response?: RS;
  /** What a success sends when it is not JSON described by `response`. */
  readonly responseKind?: 'empty' | 'file' | 'redirect';
  /** For a `file` answer: its media type (`application/pdf`); the cloud's pipeline sends it. */
  readonly contentType?: string;
  /** HTTP status of success; 204 sends no body. */
  readonly status?: number;
  /**
   * A POST that only reads (a search whose filters do not fit a query string): the cloud runs it on
   * the plain connection like a GET, without BEGIN/COMMIT around it. Never set on a route that writes.
   */
  readonly readOnly?: boolean;
}

export type AnyContract = ApiContract<
  Access,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType | undefined
>;

/** Keeps the literal types of an entry (its access and schemas) so callers and handlers are typed. */
export function defineContract<
  const A extends Access,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  RS extends z.ZodType | undefined = undefined,
>(entry: ApiContract<A, PS, QS, BS, RS>): ApiContract<A, PS, QS, BS, RS> {
  return Object.freeze(entry);
}

/** Names every entry of a module's map after its area and key (`schedule.init`): one place for both. */
export function contractGroup<const G extends Record<string, Omit<AnyContract, 'name'>>>(
  area: string,
  entries: G,
): { readonly [K in keyof G]: G[K] & { readonly name: string } } {
  const out: Record<string, AnyContract> = {};
  for (const [key, entry] of Object.entries(entries))
    out[key] = Object.freeze({ ...entry, name: `${area}.${key}` });
  return Object.freeze(out) as { readonly [K in keyof G]: G[K] & { readonly name: string } };
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the caller sends for an entry (schema inputs) and what it gets back (the response's output). */
export type ContractParams<C> = C extends { params?: infer S } ? In<S> : undefined;
export type ContractQuery<C> = C extends { query?: infer S } ? In<S> : undefined;
export type ContractBody<C> = C extends { body?: infer S } ? In<S> : undefined;
export type ContractResponse<C> = C extends { response?: infer S } ? Out<S> : unknown;

/** Path parameter names of a Koa-style path (`:uuid`, `:scheduleEvent`). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** The path with its parameters filled in (each one URI-encoded); throws when one is missing. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${path}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** A matcher for the concrete paths of an entry (`/v4/<uuid>/schedule/init`): the parameters by name, or null. */
export function pathMatcher(path: string): (concrete: string) => Record<string, string> | null {
  const names = pathParamNames(path);
  const source = path
    .split(/(:[A-Za-z0-9_]+)/)
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${source}$`);
  return (concrete) => {
    const m = re.exec(concrete);
    if (!m) return null;
    const out: Record<string, string> = {};
    names.forEach((name, i) => {
      out[name] = decodeURIComponent(m[i + 1]!);
    });
    return out;
  };
}
