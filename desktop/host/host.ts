import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDispatcher, createIpcHandlers, type Dispatch } from '../main/ipc/handlers';
import { createMainServices, type MainServices, type MainServicesOptions } from '../main/station/services';
import type { SyncEnginePort } from '../main/station/sync-port';
import { CONTENT_SECURITY_POLICY } from '../renderer/csp';
import { RENDERER_OUT_DIR } from '../renderer/vite.config';

export interface DesktopHostOptions {
  port: number;
  cloudUrl: string;
  /** station.json lives here; a fresh temporary folder (removed on close) when omitted. */
  dataDir?: string;
  rendererDir?: string;
  probeIntervalMs?: number;
  /** `'local'`: the real sync engine on dataDir/station.db (server.ts's default); none when omitted. */
  sync?: SyncEnginePort | 'local' | null;
  version?: string;
  /** Kiosk mode and the kiosk's slip printer (`tcp://…`, `file:/path`, or an interface). */
  kiosk?: MainServicesOptions['kiosk'];
  /** The POS's printers (desktop/host/pos-printers.ts); else the station's cloud settings. */
  pos?: MainServicesOptions['pos'];
}

export interface RunningDesktopHost {
  url: string;
  dataDir: string;
  services: MainServices;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const MAX_IPC_BODY = 6 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_IPC_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The IPC contract over HTTP: `POST /ipc/{channel}` runs the same dispatcher Electron's ipcMain
 * handlers run. Only same-origin JSON posts are answered (a page on another origin cannot drive the
 * station through the visitor's browser: a cross-origin JSON post needs a preflight we never grant).
 */
async function handleIpc(req: IncomingMessage, res: ServerResponse, dispatch: Dispatch) {
  const channel = decodeURIComponent(req.url!.slice('/ipc/'.length).split('?')[0] ?? '');
  if (req.method !== 'POST') return send(res, 405, '{"error":"POST only"}');
  const from = req.headers.origin;
  if (from !== undefined && !sameHost(from, req.headers.host))
    return send(res, 403, '{"error":"foreign origin"}');
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
    return send(res, 415, '{"error":"send application/json"}');
  const text = await readBody(req);
  if (text === null) return send(res, 413, '{"error":"too large"}');
  let input: unknown;
  try {
    input = text ? JSON.parse(text) : {};
  } catch {
    input = Symbol('malformed'); // fails the contract's schema → 400 with field errors
  }
  const result = await dispatch(channel, typeof input === 'symbol' ? '(malformed json)' : input);
  send(res, 200, JSON.stringify(result));
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

function serveStatic(req: IncomingMessage, res: ServerResponse, rendererDir: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'GET only', 'text/plain');
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
  const relative = pathname === '/' ? 'index.html' : pathname.slice(1);
  const file = path.resolve(rendererDir, relative);
  if (!file.startsWith(path.resolve(rendererDir) + path.sep))
    return send(res, 404, 'not found', 'text/plain');
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    return send(res, 404, 'not found', 'text/plain');
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': file.endsWith('.html') ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

/**
 * desktop/host: main's services in plain Node, the built renderer served to any Chromium, and the
 * IPC contract carried over HTTP to the same handlers. Playwright drives the desktop flows through it
 * where Electron's binary is not available. Listens on 127.0.0.1 only.
 */
export async function startDesktopHost(options: DesktopHostOptions): Promise<RunningDesktopHost> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'studio-desk-'));
  const rendererDir = options.rendererDir ?? RENDERER_OUT_DIR;
  const services = createMainServices({
    dataDir,
    cloudUrl: options.cloudUrl,
    runtime: 'host',
    version: options.version ?? '0.1.0',
    sync: options.sync ?? null,
    ...(options.kiosk ? { kiosk: options.kiosk } : {}),
    ...(options.pos ? { pos: options.pos } : {}),
    ...(options.probeIntervalMs ? { probeIntervalMs: options.probeIntervalMs } : {}),
  });
  const dispatch = createDispatcher(createIpcHandlers(services), {
    onBug: (channel, error) => console.error(`[desktop-host] ${channel} failed`, error),
  });
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const work = url.startsWith('/ipc/')
      ? handleIpc(req, res, dispatch)
      : Promise.resolve(serveStatic(req, res, rendererDir));
    work.catch((error: unknown) => {
      console.error('[desktop-host] request failed', error);
      if (!res.headersSent) send(res, 500, '{"error":"host error"}');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    services,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.stop();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Newest modification time of the renderer's sources (to rebuild a stale bundle). */
export function newestSourceMtime(root: string, dirs: string[]): number {
  const walk = (dir: string): number => {
    let newest = 0;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return 0;
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || /\.test\.tsx?$/.test(entry.name)) continue;
      const full = path.join(dir, entry.name);
      newest = Math.max(newest, entry.isDirectory() ? walk(full) : statSync(full).mtimeMs);
    }
    return newest;
  };
  return Math.max(...dirs.map((d) => walk(path.join(root, d))));
}
