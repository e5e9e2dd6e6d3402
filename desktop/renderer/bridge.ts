import type { DesktopApi, IpcChannel, IpcOutput, IpcResult } from '../../shared/contracts/ipc';
import { ApiError } from '../../web/lib/api-client';
import { buildDesktopApi } from '../preload/api';

declare global {
  interface Window {
    /** Set by the preload in Electron; absent under desktop/host (then the HTTP bridge is used). */
    api?: DesktopApi;
  }
}

/**
 * The same `DesktopApi` over HTTP for desktop/host: `POST /ipc/{channel}` with the input as JSON,
 * answered with the same IpcResult the Electron handler returns.
 */
export function createHttpBridge(
  origin: string,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
) {
  return buildDesktopApi(async (channelName, input) => {
    const channel = channelName.replace(/^studio:/, '');
    let response: Response;
    try {
      response = await fetchImpl(`${origin}/ipc/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      return {
        ok: false,
        status: 503,
        error: { code: 2254, key: 'station.cloudUnreachable', message: 'the desktop host does not answer' },
      } satisfies IpcResult<never>;
    }
    return (await response.json()) as unknown;
  });
}

export function getDesktopApi(): DesktopApi {
  if (window.api) return window.api;
  if (location.protocol === 'http:' || location.protocol === 'https:')
    return createHttpBridge(location.origin);
  throw new Error('No desktop bridge: the preload did not run.');
}

/** Calls a channel and unwraps its result (throws IpcCallError for an error value). */
export async function call<C extends IpcChannel>(
  api: DesktopApi,
  channel: C,
  input: Parameters<DesktopApi[C]>[0],
): Promise<IpcOutput<C>> {
  const result =
    (await (api[channel] as (input: unknown) => Promise<IpcResult<IpcOutput<C>>>)(input)) ?? null;
  if (!result || typeof result !== 'object') throw new Error(`${channel}: no answer`);
  // The same error the web ApiClient throws, so the web form-error mapping applies unchanged.
  if (!result.ok) throw new ApiError(result.status, { error: result.error });
  return result.value;
}
