import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopHost, type RunningDesktopHost } from './host';

let host: RunningDesktopHost;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = mkdtempSync(path.join(tmpdir(), 'host-renderer-'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>desk</title>');
  // Nothing listens on port 9: the station is offline, which these checks do not need.
  host = await startDesktopHost({
    port: 0,
    cloudUrl: 'http://127.0.0.1:9',
    rendererDir,
    probeIntervalMs: 60_000,
  });
});
afterAll(async () => {
  await host.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

const ipc = (channel: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${host.url}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('desktop/host', () => {
  it('answers the IPC contract over HTTP with the same results as Electron', async () => {
    const response = await ipc('stationState', '{}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      value: { registered: false, device: null, staff: null, switchable: [], locale: 'en' },
    });
    expect(await (await ipc('stationSetPin', '{"pin":"1"}')).json()).toMatchObject({
      ok: false,
      status: 400,
      error: { key: 'request.invalid', fields: { pin: ['pin must be 4 to 8 digits'] } },
    });
    expect(await (await ipc('stationSetPin', '{not json')).json()).toMatchObject({ ok: false, status: 400 });
    expect(await (await ipc('stationLock', '{}')).json()).toMatchObject({ ok: true });
  });

  it('answers kioskState with no ticket printer set anywhere (the printer lookup asks for the kiosk)', async () => {
    const response = await ipc('kioskState', '{}');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      value: { mode: 'desk', kioskId: null, signedIn: false, ticketPrinter: false },
    });
  });

  it('refuses calls from another origin, other methods and other content types', async () => {
    expect((await ipc('stationState', '{}', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await ipc('stationState', '{}', { origin: host.url })).status).toBe(200);
    expect((await fetch(`${host.url}/ipc/stationState`)).status).toBe(405);
    expect((await ipc('stationState', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('serves the renderer with the CSP and nothing outside its folder', async () => {
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${host.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${host.url}/missing.js`)).status).toBe(404);
  });
});
