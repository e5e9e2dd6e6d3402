/**
 * The window's security decisions as plain data and pure functions, so they are unit-tested without
 * Electron (desktop/main/security.test.ts); main/index.ts only hands them to Electron's hooks.
 */

/** `webPreferences` of the one window: Electron's security checklist, nothing left to defaults. */
export const WINDOW_WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
});

export interface TrustedPage {
  /** file:// URL of the packaged renderer's index.html. */
  rendererFileUrl: string;
  /** `electron-vite dev`'s server (ELECTRON_RENDERER_URL), when running in development. */
  devServerUrl?: string | undefined;
  platform: NodeJS.Platform | string;
}

/**
 * Whether a URL is the app's own page (the only page the window may show and the only sender IPC
 * answers). Packaged: exactly the renderer's index.html (any #route). Development: the dev server's
 * origin — compared as an origin, so `http://localhost:5173.evil.example` is not it.
 */
export function createTrustedUrlCheck(page: TrustedPage): (url: string) => boolean {
  if (page.devServerUrl) {
    const devOrigin = new URL(page.devServerUrl).origin;
    return (url) => {
      try {
        const parsed = new URL(url);
        return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === devOrigin;
      } catch {
        return false;
      }
    };
  }
  const own = page.rendererFileUrl;
  const windows = page.platform === 'win32';
  return (url) => {
    if (!url.startsWith('file:')) return false;
    const withoutHash = url.split('#')[0] ?? '';
    if (withoutHash.includes('?')) return false;
    // Windows paths are case-insensitive; Chromium may report the drive letter in another case.
    return windows ? withoutHash.toLowerCase() === own.toLowerCase() : withoutHash === own;
  };
}

/** `will-navigate`: only to the app's own page (a route change); everything else is refused. */
export function allowNavigation(url: string, isTrusted: (url: string) => boolean): boolean {
  return isTrusted(url);
}

/**
 * `setWindowOpenHandler`: the app never opens a window. An http(s) link (the front office, help
 * pages) goes to the system browser instead; anything else (file:, javascript:, data:, custom
 * schemes, links with credentials) is dropped.
 */
export function decideWindowOpen(url: string): { action: 'deny'; openExternally: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { action: 'deny', openExternally: null };
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const credentials = parsed.username !== '' || parsed.password !== '';
  return { action: 'deny', openExternally: web && !credentials ? parsed.href : null };
}

/** Response headers with our CSP, replacing whatever policy (in any letter case) the response had. */
export function withContentSecurityPolicy(
  headers: Record<string, string | string[]> | undefined,
  policy: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
