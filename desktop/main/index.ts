import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BrowserWindow, app, crashReporter, dialog, ipcMain, safeStorage, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { CONTENT_SECURITY_POLICY } from '../renderer/csp';
import { createDispatcher, createIpcHandlers } from './ipc/handlers';
import { registerIpc } from './ipc/electron';
import {
  WINDOW_WEB_PREFERENCES,
  allowNavigation,
  createTrustedUrlCheck,
  decideWindowOpen,
  withContentSecurityPolicy,
} from './security';
import { createMainServices, type MainServices } from './station/services';
import type { SecretBox } from './station/station-store';

/**
 * The Electron shell stays thin: windows and security here, everything else in services that also
 * run under desktop/host. Security (Electron's checklist): context isolation, a sandboxed renderer
 * without Node, one typed bridge (preload), a CSP, no navigation, no new windows, no webviews, no
 * permissions, IPC answered only for our own page.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const CLOUD_URL = process.env.STUDIO_CLOUD_URL ?? 'http://localhost:3000';
const RENDERER_DEV_URL = process.env.ELECTRON_RENDERER_URL; // set by `electron-vite dev`
const RENDERER_FILE = join(HERE, '../renderer/index.html');
const RENDERER_FILE_URL = pathToFileURL(RENDERER_FILE).href;

const isTrustedUrl = createTrustedUrlCheck({
  rendererFileUrl: RENDERER_FILE_URL,
  devServerUrl: RENDERER_DEV_URL,
  platform: process.platform,
});

/** The station runs the client kiosk instead of the front desk (desktop/README.md "Kiosk mode"). */
const KIOSK_MODE = process.env.DESKTOP_MODE === 'kiosk';

function secretBox(): SecretBox | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  return {
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    // Kiosk mode (DESKTOP_MODE=kiosk): full screen, no way out to the desktop without a keyboard.
    ...(KIOSK_MODE ? { kiosk: true, fullscreen: true } : {}),
    show: false,
    autoHideMenuBar: true,
    webPreferences: { ...WINDOW_WEB_PREFERENCES, preload: join(HERE, '../preload/index.cjs') },
  });
  win.once('ready-to-show', () => win.show());
  // No navigation away from the app and no new windows; http(s) links open in the system browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url, isTrustedUrl)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
  if (RENDERER_DEV_URL) void win.loadURL(RENDERER_DEV_URL);
  else void win.loadFile(RENDERER_FILE);
  return win;
}

app.enableSandbox();

// Electron's crash reporter (main, renderer and GPU processes) posts minidumps to the cloud's
// /desktop/crash-reports (Back office → Stations). Uncompressed: the route reads plain multipart.
crashReporter.start({
  submitURL: `${CLOUD_URL.replace(/\/$/, '')}/desktop/crash-reports`,
  uploadToServer: true,
  compress: false,
});

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

void app.whenReady().then(() => {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // The CSP header applies to the dev server's pages; file:// pages carry the same policy in a meta tag.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: withContentSecurityPolicy(details.responseHeaders, CONTENT_SECURITY_POLICY),
    });
  });

  const dataDir = join(app.getPath('userData'), 'station');
  let services: MainServices;
  try {
    services = createMainServices({
      dataDir,
      cloudUrl: CLOUD_URL,
      runtime: 'electron',
      version: app.getVersion(),
      secretBox: secretBox(),
      sync: 'local',
      // Over the back office's setting for this station's POS and kiosk (printing/README.md).
      ticketPrinter: process.env.DESKTOP_TICKET_PRINTER || null,
      kiosk: { mode: KIOSK_MODE ? 'kiosk' : 'desk' },
      // Self-update from the cloud's feed (desktop/main/fleet): downloads in the background, installs
      // only when the shift is closed or at night and nothing waits to sync.
      updates: app.isPackaged
        ? {
            updater: electronUpdater.autoUpdater,
            install: () => electronUpdater.autoUpdater.quitAndInstall(true, true),
            stagingIdFile: join(app.getPath('userData'), '.updaterId'),
          }
        : undefined,
    });
    // Crash reports carry the station's device token (the reporter cannot send headers), once it has one.
    let crashToken: string | null = null;
    const tagCrashes = () => {
      const token = services?.reporter?.deviceToken() ?? null;
      if (token && token !== crashToken) crashReporter.addExtraParameter('deviceToken', (crashToken = token));
    };
    tagCrashes();
    setInterval(tagCrashes, 60_000).unref();
  } catch (error) {
    // A database written by a newer version is refused rather than risk its outbox; anything else
    // (better-sqlite3 not rebuilt for this Electron) is a broken install. Both: tell, and quit.
    dialog.showErrorBox('Studio Desk', error instanceof Error ? error.message : String(error));
    app.quit();
    return;
  }
  const dispatch = createDispatcher(createIpcHandlers(services), {
    onBug: (channel, error) => console.error(`[ipc] ${channel} failed`, error),
  });
  registerIpc(ipcMain, dispatch, isTrustedUrl);
  createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  const running = services;
  app.on('before-quit', () => void running.stop());
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
