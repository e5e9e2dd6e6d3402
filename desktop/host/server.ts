/**
 * Runs desktop/host from the command line (and for Playwright):
 *
 *   STUDIO_CLOUD_URL=http://localhost:3000 DESKTOP_HOST_PORT=4327 npx tsx desktop/host/server.ts
 *
 * Builds the renderer first when its bundle is missing or older than the sources (skip with
 * DESKTOP_SKIP_BUILD=1). DESKTOP_DATA_DIR keeps station.json between runs (default: a temporary
 * folder removed on exit). DESKTOP_PROBE_MS sets how often the cloud is probed (default 1000).
 * The sync engine runs on DESKTOP_DATA_DIR/station.db as in the app; DESKTOP_SYNC=off runs without it.
 * DESKTOP_MODE=kiosk runs the kiosk screens; DESKTOP_TICKET_PRINTER (`tcp://host:9100`, `file:/path`)
 * is the kiosk's slip printer and the POS's drawer; DESKTOP_FISCAL_PRINTER (`emulator`, `tcp://host:port`)
 * is the POS's fiscal printer instead of the station's cloud settings (desktop/host/pos-printers.ts).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RENDERER_OUT_DIR } from '../renderer/vite.config';
import { newestSourceMtime, startDesktopHost } from './host';
import { hostPosPrinters } from './pos-printers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function buildRendererIfStale(): Promise<void> {
  if (process.env.DESKTOP_SKIP_BUILD === '1') return;
  let builtAt = 0;
  try {
    builtAt = statSync(path.join(RENDERER_OUT_DIR, 'index.html')).mtimeMs;
  } catch {
    builtAt = 0;
  }
  if (builtAt > newestSourceMtime(ROOT, ['desktop/renderer', 'web', 'shared', 'locales'])) return;
  console.log(`[desktop-host] building the renderer into ${RENDERER_OUT_DIR}…`);
  const { build } = await import('vite');
  const { rendererConfig } = await import('../renderer/vite.config');
  await build({ ...rendererConfig, configFile: false, logLevel: 'warn' });
}

async function main(): Promise<void> {
  await buildRendererIfStale();
  const printers = hostPosPrinters();
  const host = await startDesktopHost({
    port: Number(process.env.DESKTOP_HOST_PORT ?? 4327),
    cloudUrl: process.env.STUDIO_CLOUD_URL ?? 'http://localhost:3000',
    ...(process.env.DESKTOP_DATA_DIR ? { dataDir: path.resolve(process.env.DESKTOP_DATA_DIR) } : {}),
    ...(process.env.DESKTOP_PROBE_MS ? { probeIntervalMs: Number(process.env.DESKTOP_PROBE_MS) } : {}),
    sync: process.env.DESKTOP_SYNC === 'off' ? null : 'local',
    // The kiosk's slips go to the station's one ESC/POS printer (DESKTOP_TICKET_PRINTER).
    kiosk: {
      mode: process.env.DESKTOP_MODE === 'kiosk' ? 'kiosk' : 'desk',
      ticketPrinter: printers.ticketInterface,
    },
    // The POS's fiscal printer (DESKTOP_FISCAL_PRINTER) and drawer (DESKTOP_TICKET_PRINTER).
    pos: printers,
  });
  console.log(
    `[desktop-host] station on ${host.url} (cloud ${host.services.info.cloudUrl}, data ${host.dataDir})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[desktop-host] ${signal}: stopping`);
    void host.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('[desktop-host] failed to start', error);
  process.exit(1);
});
