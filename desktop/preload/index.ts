import { contextBridge, ipcRenderer } from 'electron';
import { buildDesktopApi } from './api';

// Sandboxed preload: only `electron` may be required, so everything else is bundled in (api.ts and
// the zod-free channel list). The renderer gets `window.api` and nothing more: no ipcRenderer, no
// generic invoke, one frozen method per contract entry.
contextBridge.exposeInMainWorld(
  'api',
  buildDesktopApi((channel, input) => ipcRenderer.invoke(channel, input)),
);
