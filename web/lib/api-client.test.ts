import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScheduleApi } from '../../shared/contracts/http/schedule';
import { ApiClient, ApiError, ContractError, NetworkError } from './api-client';

function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function setup(
  session = { userId: 'u-1', sessionId: 's-1', token: 'csrf-1' },
  response: Response = jsonResponse(200, { ok: true }),
) {
  const fetch = vi.fn<typeof globalThis.fetch>(async () => response);
  const api = new ApiClient({ session, fetch });
  return { api, fetch };
}

function sentInit(
  fetch: ReturnType<typeof setup>['fetch'],
): RequestInit & { headers: Record<string, string> } {
  const init = fetch.mock.calls[0]?.[1];
  if (!init) throw new Error('fetch was not called');
  return init as RequestInit & { headers: Record<string, string> };
}

describe('ApiClient', () => {
  it('sends the spec headers, same-origin credentials and a JSON body', async () => {
    const { api, fetch } = setup();
    await api.post('auth/login', { emailAddress: 'a@b.pl', password: 'x' });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v4/auth/login');
    const init = sentInit(fetch);
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe(JSON.stringify({ emailAddress: 'a@b.pl', password: 'x' }));
    expect(init.headers).toMatchObject({
      'x-auth-token': 'u-1:s-1',
      'x-csrf-token': 'csrf-1',
      'x-requested-with': 'XMLHttpRequest',
      'content-type': 'application/json',
    });
  });

  it('omits the auth header when nobody is signed in, but keeps CSRF and the XHR marker', async () => {
    const { api, fetch } = setup({
      userId: null as unknown as string,
      sessionId: null as unknown as string,
      token: 'csrf-0',
    });
    await api.get('auth/me');
    const init = sentInit(fetch);
    expect(init.headers['x-auth-token']).toBeUndefined();
    expect(init.headers['x-csrf-token']).toBe('csrf-0');
    expect(init.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(init.body).toBeUndefined();
  });

  it('uses the new credentials after setSession and notifies subscribers', async () => {
    const { api, fetch } = setup({
      userId: null as unknown as string,
      sessionId: null as unknown as string,
      token: 'old',
    });
    const listener = vi.fn();
    api.subscribe(listener);
    api.setSession({ userId: 'u-2', sessionId: 's-2', token: 'new' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(api.isSignedIn).toBe(true);
    await api.post('auth/logout');
    expect(sentInit(fetch).headers).toMatchObject({ 'x-auth-token': 'u-2:s-2', 'x-csrf-token': 'new' });
    api.clearSession();
    expect(api.isSignedIn).toBe(false);
    expect(api.getSession().token).toBe('new');
  });

  it('builds query strings and strips duplicate slashes', async () => {
    const { api, fetch } = setup();
    await api.get('/client/search', { query: { q: 'ann smith', limit: 10, skip: undefined } });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v4/client/search?q=ann+smith&limit=10');
  });

  it('calls a contract entry: URL from its path and params, typed query and body, parsed answer', async () => {
    const { api, fetch } = setup(undefined, jsonResponse(200, { items: [], next: null, extra: 1 }));
    const studio = '0190f000-0000-7000-8000-000000000001';
    const answer = await api.call(ScheduleApi.find, {
      params: { uuid: studio },
      body: { from: '2026-11-23', to: '2026-11-30' },
    });
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v4/${studio}/schedule/find`);
    expect(sentInit(fetch).method).toBe('POST');
    expect(sentInit(fetch).body).toBe(JSON.stringify({ from: '2026-11-23', to: '2026-11-30' }));
    // The response schema parsed it (unknown keys dropped).
    expect(answer).toEqual({ items: [], next: null });

    await api.call(ScheduleApi.meta, { params: { uuid: studio, scheduleMetaGuid: 'a/b' } }).catch(() => null);
    expect(fetch.mock.calls[1]?.[0]).toBe(`/api/v2/${studio}/schedule-metas/a%2Fb`);
    await api
      .call(ScheduleApi.classServices, { params: { uuid: studio }, query: { serviceType: 'course' } })
      .catch(() => null);
    expect(fetch.mock.calls[2]?.[0]).toBe(`/api/v4/${studio}/class-service/collection?serviceType=course`);
  });

  it('refuses an answer that does not match the response schema of the entry', async () => {
    const { api } = setup(undefined, jsonResponse(200, { items: 'nope' }));
    await expect(
      api.call(ScheduleApi.locations, { params: { uuid: '0190f000-0000-7000-8000-000000000001' } }),
    ).rejects.toBeInstanceOf(ContractError);
  });

  it('returns undefined for 204', async () => {
    const { api } = setup(undefined, new Response(null, { status: 204 }));
    await expect(api.post('auth/logout')).resolves.toBeUndefined();
  });

  it('validates the success body with a schema', async () => {
    const { api } = setup(undefined, jsonResponse(200, { id: 1 }));
    await expect(api.get('x', { schema: z.object({ id: z.string() }) })).rejects.toBeInstanceOf(
      ContractError,
    );
  });

  it('throws ApiError with status and envelope', async () => {
    const envelope = {
      error: {
        code: 1000,
        key: 'request.invalid',
        message: 'invalid input',
        fields: { emailAddress: ['required'] },
      },
    };
    const { api } = setup(undefined, jsonResponse(400, envelope));
    const error = await api.post('auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.envelope).toEqual(envelope);
    expect(apiError.key).toBe('request.invalid');
    expect(apiError.code).toBe(1000);
    expect(apiError.fields).toEqual({ emailAddress: ['required'] });
  });

  it('keeps the status when an error body is not an envelope (proxy error page)', async () => {
    const { api } = setup(undefined, new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = (await api.get('x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.envelope).toBeNull();
    expect(error.key).toBeNull();
  });

  it('wraps transport failures in NetworkError', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const api = new ApiClient({ session: { userId: null, sessionId: null, token: 't' }, fetch });
    await expect(api.get('x')).rejects.toBeInstanceOf(NetworkError);
  });

  it('takes its session from the page context', () => {
    const api = ApiClient.fromPageContext({
      app: 'backoffice',
      baseUrl: 'http://localhost',
      environment: 'test',
      sessionId: 's',
      token: 't',
      userId: 'u',
      studioUuid: null,
      locale: 'en',
      version: '1.2.3.4',
    });
    expect(api.headers()['x-auth-token']).toBe('u:s');
  });
});
