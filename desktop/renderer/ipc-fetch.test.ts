import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { DesktopApi } from '../../shared/contracts/ipc';
import { ApiClient, ApiError, NetworkError } from '../../web/lib/api-client';
import { CONTENT_SECURITY_POLICY } from './csp';
import { apiPathOf, createIpcFetch } from './ipc-fetch';

function bridgeAnswering(answer: unknown) {
  const apiRequest = vi.fn(async () => answer);
  return { api: { apiRequest } as unknown as DesktopApi, apiRequest };
}

describe('apiPathOf', () => {
  it('takes same-origin /api/ URLs (dot segments resolved) and leaves everything else', () => {
    expect(apiPathOf('/api/v4/abc/client/list?limit=5', 'null')).toBe('v4/abc/client/list?limit=5');
    expect(apiPathOf('/api/v4/../v2/abc/schedule', 'null')).toBe('v2/abc/schedule');
    expect(apiPathOf('http://127.0.0.1:4327/api/v4/auth/me', 'http://127.0.0.1:4327')).toBe('v4/auth/me');
    expect(apiPathOf('https://evil.example/api/v4/auth/me', 'http://127.0.0.1:4327')).toBeNull();
    expect(apiPathOf('/assets/index.js', 'null')).toBeNull();
  });
});

describe('createIpcFetch', () => {
  it('lets the web ApiClient run over IPC unchanged', async () => {
    const { api, apiRequest } = bridgeAnswering({
      ok: true,
      value: {
        status: 200,
        contentType: 'application/json',
        contentDisposition: null,
        encoding: 'utf8',
        body: '{"items":[],"next":null}',
      },
    });
    const fallback = vi.fn();
    const client = new ApiClient({
      session: { userId: 'u', sessionId: 'station', token: 'station' },
      fetch: createIpcFetch(api, fallback),
    });
    expect(await client.post('abc/client/list', { search: 'Ann' })).toEqual({ items: [], next: null });
    expect(apiRequest).toHaveBeenCalledWith({
      method: 'POST',
      path: 'v4/abc/client/list',
      body: '{"search":"Ann"}',
      accept: 'application/json',
    });
    expect(fallback).not.toHaveBeenCalled();
  });

  it('turns cloud errors into the same ApiError, and an unreachable cloud into a NetworkError', async () => {
    const envelope = { code: 1200, key: 'resource.notFound', message: 'client not found' };
    const notFound = bridgeAnswering({ ok: false, status: 404, error: envelope });
    const client = (api: DesktopApi) =>
      new ApiClient({
        session: { userId: 'u', sessionId: 's', token: 't' },
        fetch: createIpcFetch(api, vi.fn()),
      });
    const error = await client(notFound.api)
      .get('abc/client/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).key).toBe('resource.notFound');

    const offline = bridgeAnswering({
      ok: false,
      status: 503,
      error: { code: 2254, key: 'station.cloudUnreachable', message: 'the cloud cannot be reached' },
    });
    await expect(client(offline.api).get('abc/client/x')).rejects.toBeInstanceOf(NetworkError);
  });

  it('rebuilds binary answers (exports) byte for byte', async () => {
    const { api } = bridgeAnswering({
      ok: true,
      value: {
        status: 200,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        contentDisposition: 'attachment; filename="clients.xlsx"',
        encoding: 'base64',
        body: Buffer.from([0x50, 0x4b, 0x00, 0xff]).toString('base64'),
      },
    });
    const response = await createIpcFetch(api, vi.fn())('/api/v4/abc/client/export', {
      method: 'POST',
      body: '{}',
    });
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="clients.xlsx"');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0x50, 0x4b, 0x00, 0xff]);
  });

  it('sends other URLs to the real fetch and refuses bodies that are not JSON text', async () => {
    const { api } = bridgeAnswering(null);
    const fallback = vi.fn(async () => new Response('ok'));
    const ipcFetch = createIpcFetch(api, fallback);
    await ipcFetch('/assets/logo.svg');
    expect(fallback).toHaveBeenCalledOnce();
    await expect(
      ipcFetch('/api/v4/abc/upload', { method: 'POST', body: new Blob(['x']) }),
    ).rejects.toBeInstanceOf(TypeError);
  });
});

describe('content security policy', () => {
  it('index.html carries the same policy Electron and the host send', () => {
    const html = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
  });
});
