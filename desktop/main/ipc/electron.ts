import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, ipcChannelName } from '../../../shared/contracts/ipc/channels';
import { AppError } from '../../../shared/errors/app-error';
import type { Dispatch } from './handlers';

/**
 * Registers one `ipcMain.handle` per contract entry. Calls are answered only for the app's own
 * renderer (the top frame loaded from `isTrustedUrl`), so an iframe or a page the window was somehow
 * navigated to cannot reach main.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  isTrustedUrl: (url: string) => boolean,
): () => void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(ipcChannelName(channel), (event: IpcMainInvokeEvent, input: unknown) => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedUrl(frame.url)) {
        const error = new AppError('auth.forbidden', { message: 'untrusted sender' });
        return { ok: false, status: error.status, error: error.toBody() };
      }
      return dispatch(channel, input);
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(ipcChannelName(channel));
  };
}
