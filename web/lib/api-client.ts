import type { z } from 'zod';
import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
  authHeaderValue,
  type PageContext,
} from '../../shared/contracts/page-context';
import {
  fillPath,
  type AnyContract,
  type ContractBody,
  type ContractParams,
  type ContractQuery,
  type ContractResponse,
} from '../../shared/contracts/http/define';
import { isErrorEnvelope, type ErrorEnvelope, type FieldErrors } from '../../shared/errors/app-error';

/** The credentials every request carries (spec §6); starts from the page context. */
export interface ApiSession {
  userId: string | null;
  sessionId: string | null;
  /** CSRF token. */
  token: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A failed call: the HTTP status and, when the server sent one, its error envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly envelope: ErrorEnvelope | null;

  constructor(status: number, envelope: ErrorEnvelope | null, message?: string) {
    super(message ?? envelope?.error.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.envelope = envelope;
  }

  /** Stable error name (e.g. `auth.invalidCredentials`), or null without an envelope. */
  get key(): string | null {
    return this.envelope?.error.key ?? null;
  }

  /** Stable error number of the envelope, or null. */
  get code(): number | null {
    return this.envelope?.error.code ?? null;
  }

  get fields(): FieldErrors {
    return this.envelope?.error.fields ?? {};
  }
}

/** The call never got an HTTP answer (offline, DNS, server down). */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** A success answer that is not JSON or does not match its contract schema: a bug on one side. */
export class ContractError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ContractError';
  }
}

export interface RequestOptions<T> {
  body?: unknown;
  /** Validates (and types) the success body. Without it the body is returned as is. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  query?: Record<string, string | number | boolean | undefined>;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
}

/** The parts of a call to a contract entry: path parameters, query and body, typed by the entry. */
/** A part the caller may leave out: the entry has no schema for it, or every field of it is optional. */
/** A part the caller may leave out: absent, an object of optional fields, or one with none (`{}`). */
type Optional<T> = undefined extends T
  ? true
  : object extends T
    ? true
    : Record<never, never> extends T
      ? true
      : false;

/** The parts of a call to a contract entry: path parameters, query and body, typed by the entry. */
export type CallInput<C extends AnyContract> = {
  signal?: AbortSignal;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
} & (Optional<ContractParams<C>> extends true
  ? { params?: ContractParams<C> }
  : { params: ContractParams<C> }) &
  (Optional<ContractQuery<C>> extends true ? { query?: ContractQuery<C> } : { query: ContractQuery<C> }) &
  (Optional<ContractBody<C>> extends true ? { body?: ContractBody<C> } : { body: ContractBody<C> });

export interface ApiClientOptions {
  session: ApiSession;
  /** Prefix of every path. Relative on purpose: calls stay same-origin whatever the page's host. */
  apiRoot?: string;
  fetch?: typeof fetch;
}

/**
 * Thin fetch wrapper for /api/v4: the spec's headers, JSON in and out, ApiError on failure.
 * Holds the session so a sign-in can update it without a page reload; React reads it through
 * `subscribe`/`getSession` (useSyncExternalStore).
 */
export class ApiClient {
  private session: ApiSession;
  private readonly apiRoot: string;
  /** `/api`: contract entries carry their version (`/v4/...`, `/v2/...`). */
  private readonly apiBase: string;
  private readonly fetchImpl: typeof fetch;
  private readonly listeners = new Set<() => void>();

  constructor(options: ApiClientOptions) {
    this.session = { ...options.session };
    this.apiRoot = (options.apiRoot ?? '/api/v4').replace(/\/+$/, '');
    this.apiBase = this.apiRoot.replace(/\/v\d+$/, '');
    // Bound lazily so tests can stub globalThis.fetch after construction.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  static fromPageContext(context: PageContext, options: Omit<ApiClientOptions, 'session'> = {}): ApiClient {
    return new ApiClient({
      ...options,
      session: { userId: context.userId, sessionId: context.sessionId, token: context.token },
    });
  }

  getSession = (): ApiSession => this.session;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  get isSignedIn(): boolean {
    return Boolean(this.session.userId && this.session.sessionId);
  }

  /** Adopts new credentials, e.g. the LoginResult of auth/login. */
  setSession(session: Partial<ApiSession>): void {
    this.session = { ...this.session, ...session };
    for (const listener of this.listeners) listener();
  }

  /** Forgets the user (keeps the CSRF token; the page reload after sign-out brings a fresh one). */
  clearSession(): void {
    this.setSession({ userId: null, sessionId: null });
  }

  headers(): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      [CSRF_HEADER]: this.session.token,
      [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
    };
    if (this.session.userId && this.session.sessionId) {
      headers[AUTH_HEADER] = authHeaderValue(this.session.userId, this.session.sessionId);
    }
    return headers;
  }

  url(path: string, query?: RequestOptions<unknown>['query']): string {
    const base = `${this.apiRoot}/${path.replace(/^\/+/, '')}`;
    if (!query) return base;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return qs ? `${base}?${qs}` : base;
  }

  /**
   * Calls a contract entry of `shared/contracts/http`: the URL is built from its path and `params`,
   * the query and body are typed by its schemas, and a success is parsed with its response schema.
   */
  call<C extends AnyContract>(
    contract: C,
    ...[input]: Optional<ContractParams<C>> extends true ? [CallInput<C>?] : [CallInput<C>]
  ): Promise<ContractResponse<C>> {
    const { params, query, body, signal, headers } = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    };
    const url = withQuery(`${this.apiBase}${fillPath(contract.path, params)}`, query);
    return this.send(contract.method.toUpperCase() as HttpMethod, url, {
      body,
      signal,
      headers,
      schema: contract.response as z.ZodType<ContractResponse<C>> | undefined,
    });
  }

  /** The URL of a contract entry (for what `call` cannot send: uploads, downloads). */
  urlOf(contract: AnyContract, params: Record<string, unknown>): string {
    return `${this.apiBase}${fillPath(contract.path, params)}`;
  }

  async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.send(method, this.url(path, options.query), options);
  }

  private async send<T>(
    method: HttpMethod,
    url: string,
    options: Omit<RequestOptions<T>, 'query'>,
  ): Promise<T> {
    const path = url;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers: { ...this.headers(), ...options.headers },
        credentials: 'same-origin',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new NetworkError(`${method} ${path} failed: no answer from the server`, { cause });
    }

    const payload = await readJson(response);
    if (!response.ok) {
      throw new ApiError(response.status, isErrorEnvelope(payload) ? payload : null);
    }
    if (options.schema) {
      const parsed = options.schema.safeParse(payload);
      if (!parsed.success) {
        throw new ContractError(`${method} ${path}: the answer does not match its contract`, {
          cause: parsed.error,
        });
      }
      return parsed.data;
    }
    return payload as T;
  }

  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T> {
    return this.request('GET', path, options);
  }

  post<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T> {
    return this.request('POST', path, { ...options, body });
  }

  put<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T> {
    return this.request('PUT', path, { ...options, body });
  }

  patch<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T> {
    return this.request('PATCH', path, { ...options, body });
  }

  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T> {
    return this.request('DELETE', path, options);
  }
}

/** A query object as a query string: undefined values left out, arrays as repeated keys. */
function withQuery(base: string, query: Record<string, unknown> | undefined): string {
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  const qs = params.toString();
  return qs ? `${base}?${qs}` : base;
}

/** 204 and empty bodies give undefined; a non-JSON error page gives null (so status still counts). */
async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok) throw new ContractError(`Expected JSON from ${response.url || 'the server'}`);
    return null;
  }
}
