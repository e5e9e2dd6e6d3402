import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
} from '../../shared/contracts/page-context';
import type { LoginResult } from '../../shared/contracts/api/auth';
import { checkResponseContract } from './response-contracts';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/**
 * Talks to a running server the way the web apps do: the spec's headers, a cookie jar, JSON.
 * `anonymous()` fetches the anonymous CSRF token first; `signIn()` swaps to the session's headers.
 */
export class HttpClient {
  private cookies = new Map<string, string>();
  token = '';
  session: LoginResult | null = null;

  constructor(readonly baseUrl: string) {}

  static async anonymous(baseUrl: string): Promise<HttpClient> {
    const client = new HttpClient(baseUrl);
    const res = await client.request<{ token: string }>('GET', '/api/v4/auth/csrf');
    client.token = res.body.token;
    return client;
  }

  static async signedIn(
    baseUrl: string,
    emailAddress: string,
    password: string,
    studioUuid?: string,
  ): Promise<HttpClient> {
    const client = await HttpClient.anonymous(baseUrl);
    const res = await client.signIn(emailAddress, password, studioUuid);
    if (res.status !== 200) throw new Error(`sign-in failed for ${emailAddress}: ${res.status} ${res.text}`);
    return client;
  }

  async signIn(emailAddress: string, password: string, studioUuid?: string): Promise<ApiResponse<any>> {
    const res = await this.post('/api/v4/auth/login', {
      emailAddress,
      password,
      ...(studioUuid ? { studioUuid } : {}),
    });
    if (res.status === 200) {
      this.session = res.body as LoginResult;
      this.token = res.body.token;
    }
    return res;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = {
      [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
      [CSRF_HEADER]: this.token,
      ...extra,
    };
    if (this.session) h[AUTH_HEADER] = `${this.session.userId}:${this.session.sessionId}`;
    const jar = [...this.cookies].map(([k, v]) => `${k}=${v}`);
    if (jar.length || extra.cookie) h.cookie = [...jar, ...(extra.cookie ? [extra.cookie] : [])].join('; ');
    return h;
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options: {
      headers?: Record<string, string>;
      raw?: string;
      contentType?: string;
      noDefaults?: boolean;
      /** Don't check the answer against its contract's response schema (a test of the check itself). */
      skipContract?: boolean;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers = options.noDefaults ? { ...options.headers } : this.headers(options.headers);
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= options.contentType ?? 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    // A 2xx answer of a route whose contract has a response schema must match it.
    if (!options.skipContract)
      checkResponseContract(method, path, res.status, parsed, res.headers.get('content-type') ?? '');
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  get<T = any>(path: string, options?: Parameters<HttpClient['request']>[3]) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: Parameters<HttpClient['request']>[3]) {
    return this.request<T>('POST', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: Parameters<HttpClient['request']>[3]) {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, body?: unknown, options?: Parameters<HttpClient['request']>[3]) {
    return this.request<T>('DELETE', path, body, options);
  }

  /** Drops the session headers but keeps cookies (a page that still has the session cookie). */
  forgetHeaders(): void {
    this.session = null;
  }

  clearCookies(): void {
    this.cookies.clear();
  }
}
