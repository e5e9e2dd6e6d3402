import type { DesktopApi } from '../../shared/contracts/ipc';
import { IPC_CHANNELS, ipcChannelName } from '../../shared/contracts/ipc/channels';

/**
 * `window.api`: one method per contract entry, each invoking its own fixed channel. The channel
 * name is never taken from the renderer, so it cannot reach any other handler of main.
 */
export function buildDesktopApi(invoke: (channel: string, input: unknown) => Promise<unknown>): DesktopApi {
  const api: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const channel of IPC_CHANNELS) {
    const name = ipcChannelName(channel);
    api[channel] = (input: unknown) => invoke(name, input ?? {});
  }
  return Object.freeze(api) as unknown as DesktopApi;
}
