import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../renderer/csp';
import {
  WINDOW_WEB_PREFERENCES,
  allowNavigation,
  createTrustedUrlCheck,
  decideWindowOpen,
  withContentSecurityPolicy,
} from './security';

const RENDERER = 'file:///opt/Studio%20Desk/resources/app.asar/out/renderer/index.html';

describe('the trusted page', () => {
  it('is exactly the packaged index.html (any route), nothing next to it or elsewhere', () => {
    const trusted = createTrustedUrlCheck({ rendererFileUrl: RENDERER, platform: 'linux' });
    expect(trusted(RENDERER)).toBe(true);
    expect(trusted(`${RENDERER}#/clients`)).toBe(true);
    expect(trusted(`${RENDERER}?x=1`)).toBe(false);
    expect(trusted(RENDERER.replace('index.html', 'other.html'))).toBe(false);
    expect(trusted('file:///etc/passwd')).toBe(false);
    expect(trusted('https://example.com/')).toBe(false);
    expect(trusted('javascript:alert(1)')).toBe(false);
    expect(trusted(RENDERER.toUpperCase().replace('FILE:', 'file:'))).toBe(false);
  });

  it('ignores the letter case of the path on Windows only', () => {
    const own = 'file:///C:/Program%20Files/Studio%20Desk/resources/app.asar/out/renderer/index.html';
    const trusted = createTrustedUrlCheck({ rendererFileUrl: own, platform: 'win32' });
    expect(trusted(own.replace('file:///C:', 'file:///c:'))).toBe(true);
    expect(trusted(own.replace('index.html', 'evil.html'))).toBe(false);
  });

  it('is the dev server’s origin in development, compared as an origin and not as a prefix', () => {
    const trusted = createTrustedUrlCheck({
      rendererFileUrl: RENDERER,
      devServerUrl: 'http://localhost:5173',
      platform: 'linux',
    });
    expect(trusted('http://localhost:5173/#/clients')).toBe(true);
    expect(trusted('http://localhost:5173.evil.example/')).toBe(false);
    expect(trusted('http://localhost:5174/')).toBe(false);
    expect(trusted(RENDERER)).toBe(false);
    expect(trusted('not a url')).toBe(false);
  });
});

describe('navigation and new windows', () => {
  const trusted = createTrustedUrlCheck({ rendererFileUrl: RENDERER, platform: 'darwin' });

  it('allows a route change of our page and refuses navigating anywhere else', () => {
    expect(allowNavigation(`${RENDERER}#/schedule`, trusted)).toBe(true);
    expect(allowNavigation('https://studio.example/login', trusted)).toBe(false);
    expect(allowNavigation('file:///Users/desk/Downloads/page.html', trusted)).toBe(false);
  });

  it('never opens a window; http(s) links go to the system browser, other schemes nowhere', () => {
    expect(decideWindowOpen('https://harmonia.example/front')).toEqual({
      action: 'deny',
      openExternally: 'https://harmonia.example/front',
    });
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'smb://server/share',
      'https://user:secret@harmonia.example/',
      'not a url',
    ])
      expect(decideWindowOpen(url)).toEqual({ action: 'deny', openExternally: null });
  });
});

describe('content security policy header', () => {
  it('replaces any policy of the response (in any letter case) with ours and keeps other headers', () => {
    const headers = withContentSecurityPolicy(
      { 'content-security-policy': ["default-src *; script-src 'unsafe-eval'"], 'Content-Type': 'text/html' },
      CONTENT_SECURITY_POLICY,
    );
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  it('allows scripts from the bundle only: no inline, no eval, no remote origin, no frames or objects', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
  });
});

// main/index.ts itself, against a stand-in for the `electron` module (its binary cannot run here):
// what it passes to BrowserWindow and how its hooks answer.
const electron = vi.hoisted(() => {
  const handlers: Record<string, (...args: unknown[]) => unknown> = {};
  const appHandlers: Record<string, (...args: unknown[]) => unknown> = {};
  const created: Array<{ options: Record<string, unknown>; loaded: string[] }> = [];
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  let headersHook: ((details: unknown, cb: (r: unknown) => void) => void) | null = null;
  let permissionHandler: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null;
  const state = {
    userData: '',
    sandboxEnabled: false,
    opened: [] as string[],
    errors: [] as string[],
    crashReporter: [] as unknown[],
  };
  class BrowserWindow {
    static getAllWindows = () => created;
    webContents = {
      on: (name: string, fn: (...args: unknown[]) => unknown) => (handlers[name] = fn),
      setWindowOpenHandler: (fn: typeof openHandler) => (openHandler = fn),
    };
    constructor(options: Record<string, unknown>) {
      created.push({ options, loaded: [] });
    }
    once() {}
    loadFile(file: string) {
      created.at(-1)!.loaded.push(file);
      return Promise.resolve();
    }
    loadURL(url: string) {
      created.at(-1)!.loaded.push(url);
      return Promise.resolve();
    }
  }
  const module = {
    BrowserWindow,
    app: {
      enableSandbox: () => (state.sandboxEnabled = true),
      on: (name: string, fn: (...args: unknown[]) => unknown) => (appHandlers[name] = fn),
      whenReady: () => Promise.resolve(),
      getPath: () => state.userData,
      getVersion: () => '0.1.0',
      quit: () => undefined,
    },
    ipcMain: { handle: () => undefined, removeHandler: () => undefined },
    crashReporter: {
      start: (options: unknown) => state.crashReporter.push(options),
      addExtraParameter: () => undefined,
    },
    safeStorage: { isEncryptionAvailable: () => false },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: typeof permissionHandler) => (permissionHandler = fn),
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: (fn: typeof headersHook) => (headersHook = fn) },
      },
    },
    dialog: { showErrorBox: (title: string, text: string) => state.errors.push(`${title}: ${text}`) },
    shell: { openExternal: (url: string) => (state.opened.push(url), Promise.resolve()) },
  };
  return {
    module,
    state,
    handlers,
    appHandlers,
    created,
    openHandler: () => openHandler,
    headersHook: () => headersHook,
    permissionHandler: () => permissionHandler,
  };
});
vi.mock('electron', () => ({ ...electron.module, default: electron.module }));

describe('main/index.ts', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const rendererUrl = pathToFileURL(path.join(here, '../renderer/index.html')).href;

  beforeAll(async () => {
    electron.state.userData = mkdtempSync(path.join(tmpdir(), 'desk-main-'));
    vi.stubEnv('STUDIO_CLOUD_URL', 'http://127.0.0.1:9');
    vi.stubEnv('ELECTRON_RENDERER_URL', '');
    await import('./index');
    await vi.waitFor(() => expect(electron.created).toHaveLength(1));
  });
  afterAll(async () => {
    await electron.appHandlers['before-quit']?.();
    vi.unstubAllEnvs();
    rmSync(electron.state.userData, { recursive: true, force: true });
  });

  it('opens one sandboxed, context-isolated window without Node, on the packaged page', () => {
    expect(electron.state.errors).toEqual([]);
    expect(electron.state.sandboxEnabled).toBe(true);
    // Crash reports go to the cloud's route, uncompressed (desktop/main/fleet).
    expect(electron.state.crashReporter).toEqual([
      {
        submitURL: `${process.env.STUDIO_CLOUD_URL}/desktop/crash-reports`,
        uploadToServer: true,
        compress: false,
      },
    ]);
    const [window] = electron.created;
    expect(window!.options.webPreferences).toMatchObject({
      ...WINDOW_WEB_PREFERENCES,
      preload: path.join(here, '../preload/index.cjs'),
    });
    expect(window!.loaded).toEqual([fileURLToPath(rendererUrl)]);
  });

  it('refuses navigation away, redirects, new windows, webviews and permissions', async () => {
    const stop = () => {
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      return event;
    };
    const away = stop();
    electron.handlers['will-navigate']!(away, 'https://evil.example/');
    expect(away.prevented).toBe(true);
    const route = stop();
    electron.handlers['will-navigate']!(route, `${rendererUrl}#/clients`);
    expect(route.prevented).toBe(false);
    const redirect = stop();
    electron.handlers['will-redirect']!(redirect, rendererUrl);
    expect(redirect.prevented).toBe(true);

    expect(electron.openHandler()!({ url: 'https://harmonia.example/' })).toEqual({ action: 'deny' });
    expect(electron.openHandler()!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.state.opened).toEqual(['https://harmonia.example/']);

    const webview = stop();
    const contents = {
      on: (name: string, fn: (e: unknown) => void) => name === 'will-attach-webview' && fn(webview),
    };
    electron.appHandlers['web-contents-created']!({}, contents);
    expect(webview.prevented).toBe(true);

    const answers: boolean[] = [];
    electron.permissionHandler()!({}, 'media', (ok) => answers.push(ok));
    expect(answers).toEqual([false]);
  });

  it('sends the CSP on served pages, and index.html carries the same one for file://', () => {
    let answer: { responseHeaders: Record<string, string[]> } | null = null;
    electron.headersHook()!({ responseHeaders: { 'Content-Security-Policy': ['default-src *'] } }, (r) => {
      answer = r as typeof answer;
    });
    expect(answer!.responseHeaders['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    const html = readFileSync(path.join(here, '../renderer/index.html'), 'utf8');
    expect(html).toContain(`content="${CONTENT_SECURITY_POLICY}"`);
  });
});
