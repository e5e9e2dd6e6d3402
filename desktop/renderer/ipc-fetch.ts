import type { DesktopApi } from '../../shared/contracts/ipc';
import { HTTP_METHODS, type ApiRequestInput } from '../../shared/contracts/ipc';

const API_PREFIX = '/api/';

/** The part after /api/ of a same-origin API URL (dot segments resolved, as fetch would), or null. */
export function apiPathOf(
  input: string,
  origin: string | undefined = globalThis.location?.origin,
): string | null {
  const base = 'http://station.invalid';
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  const sameOrigin = url.origin === base || (origin !== undefined && url.origin === origin);
  if (!sameOrigin || !url.pathname.startsWith(API_PREFIX)) return null;
  return `${url.pathname.slice(API_PREFIX.length)}${url.search}`;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A `fetch` for `/api/...` that goes through main (IPC `apiRequest`) instead of the network: the web
 * ApiClient and the few screens that call fetch directly (CSV/XLSX exports) work unchanged, and the
 * credentials never enter the renderer. Other URLs go to the real fetch. A call main cannot deliver
 * (cloud unreachable) rejects with a TypeError, exactly like fetch without a network.
 */
export function createIpcFetch(
  api: DesktopApi,
  fallback: typeof fetch,
  /** `kioskRequest` in kiosk mode: the web kiosk's calls, answered by main's kiosk (desktop/main/kiosk). */
  channel: 'apiRequest' | 'kioskRequest' = 'apiRequest',
): typeof fetch {
  return async (input, init) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = apiPathOf(raw);
    if (path === null) return fallback(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (!(HTTP_METHODS as readonly string[]).includes(method))
      throw new TypeError(`method ${method} not supported`);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string') {
      // Only JSON text crosses the bridge (uploads of files are not forwarded yet).
      throw new TypeError('only JSON request bodies are supported by the station');
    }
    const headers = new Headers(init?.headers);
    const request: ApiRequestInput = {
      method: method as ApiRequestInput['method'],
      path,
      ...(typeof body === 'string' ? { body } : {}),
      ...(headers.get('accept') ? { accept: headers.get('accept') as string } : {}),
    };
    if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const result = await api[channel](request);
    if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    if (!result.ok) {
      if (result.error.key === 'station.cloudUnreachable')
        throw new TypeError('Failed to fetch (cloud unreachable)');
      return new Response(JSON.stringify({ error: result.error }), {
        status: result.status,
        headers: { 'content-type': 'application/json' },
      });
    }
    const answer = result.value;
    const responseHeaders = new Headers();
    if (answer.contentType) responseHeaders.set('content-type', answer.contentType);
    if (answer.contentDisposition) responseHeaders.set('content-disposition', answer.contentDisposition);
    const nullBody = answer.status === 204 || answer.status === 304;
    const payload = nullBody ? null : answer.encoding === 'base64' ? base64ToBytes(answer.body) : answer.body;
    return new Response(payload, { status: answer.status, headers: responseHeaders });
  };
}
