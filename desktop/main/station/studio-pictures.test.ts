import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequestInput } from '../../../shared/contracts/ipc';
import { AppError } from '../../../shared/errors';
import { STUDIO_PICTURES_DIR, StudioPictures } from './studio-pictures';

const STUDIO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OTHER = '0190a1b2-c3d4-7e5f-8a9b-aaaaaaaaaaaa';
const LOGO_FILE = 'a1b2c3.webp';
// Not UTF-8: the bytes must cross as base64, unchanged.
const LOGO = Buffer.from([0x52, 0x49, 0x46, 0x46, 0xff, 0x00, 0xfe, 0x57, 0x45, 0x42, 0x50]);
const appearance = {
  uuid: STUDIO,
  name: 'Harmonia',
  logoUrl: `/api/v4/${STUDIO}/studio-appearance/logo/${LOGO_FILE}`,
  coverUrl: null,
  primaryColor: '#0b7285',
  accentColor: null,
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A cloud on a real port that serves the studio's appearance and logo and counts what it was asked. */
async function fakeCloud() {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === `/api/v4/${STUDIO}/studio-appearance`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(appearance));
    }
    if (req.url === `/api/v4/${STUDIO}/studio-appearance/logo/${LOGO_FILE}`) {
      res.writeHead(200, { 'content-type': 'image/webp' });
      return res.end(LOGO);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 100, key: 'resource.notFound' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let open = true;
  const stop = () =>
    open ? ((open = false), new Promise<void>((resolve) => server.close(() => resolve()))) : undefined;
  server.on('connection', (socket) => cleanups.push(() => socket.destroy()));
  cleanups.push(stop);
  return { url, asked, stop };
}

function pictures(cloudUrl: string, dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'studio-look-'));
  if (!dataDir) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const reports: boolean[] = [];
  const service = new StudioPictures({
    dataDir: dir,
    cloudUrl,
    timeoutMs: 2_000,
    report: (reachable) => reports.push(reachable),
  });
  return { service, dir, reports };
}

const get = (p: string): ApiRequestInput => ({ method: 'GET', path: p });
const logoPath = `v4/${STUDIO}/studio-appearance/logo/${LOGO_FILE}`;

describe('StudioPictures: the studio look served through the desk', () => {
  it('fetches the logo from the cloud, hands its bytes to the renderer and keeps them for offline', async () => {
    const cloud = await fakeCloud();
    const { service, dir, reports } = pictures(cloud.url);

    expect(service.handles(get(logoPath), STUDIO)).toBe(true);
    const first = await service.answer(get(logoPath), STUDIO);
    expect(first).toMatchObject({ status: 200, contentType: 'image/webp', encoding: 'base64' });
    expect(Buffer.from(first.body, 'base64').equals(LOGO)).toBe(true);
    expect(reports).toEqual([true]);

    const look = await service.answer(get(`v4/${STUDIO}/studio-appearance`), STUDIO);
    expect(look).toMatchObject({ status: 200, encoding: 'utf8' });
    expect(JSON.parse(look.body)).toMatchObject({ logoUrl: appearance.logoUrl, primaryColor: '#0b7285' });
    expect(readdirSync(path.join(dir, STUDIO_PICTURES_DIR)).sort()).toEqual([
      'appearance.json',
      `logo-${LOGO_FILE}.json`,
    ]);

    // The cloud goes away: a new station service on the same folder (a restart) still has both.
    await cloud.stop();
    const again = pictures(cloud.url, dir);
    const kept = await again.service.answer(get(logoPath), STUDIO);
    expect(Buffer.from(kept.body, 'base64').equals(LOGO)).toBe(true);
    const keptLook = await again.service.answer(get(`v4/${STUDIO}/studio-appearance`), STUDIO);
    expect(JSON.parse(keptLook.body)).toMatchObject({ logoUrl: appearance.logoUrl });
    expect(again.reports).toEqual([false]);
    // The picture's name is its content: it was not asked of the cloud a second time.
    expect(cloud.asked.filter((u) => u.endsWith(LOGO_FILE))).toHaveLength(1);
  });

  it('offline with nothing kept: says the cloud is away; a missing picture is the cloud’s 404 and is not kept', async () => {
    const cloud = await fakeCloud();
    const { service, dir } = pictures(cloud.url);
    const missing = await service.answer(get(`v4/${STUDIO}/studio-appearance/logo/gone.webp`), STUDIO);
    expect(missing.status).toBe(404);
    await cloud.stop();
    await expect(service.answer(get(logoPath), STUDIO)).rejects.toMatchObject({
      key: 'station.cloudUnreachable',
    });
    await expect(service.answer(get(`v4/${STUDIO}/studio-appearance`), STUDIO)).rejects.toBeInstanceOf(
      AppError,
    );
    expect(() => readdirSync(path.join(dir, STUDIO_PICTURES_DIR))).toThrow();
  });

  it('takes only GETs of this studio’s appearance and pictures, with plain file names', () => {
    const { service } = pictures('http://127.0.0.1:9');
    expect(service.handles(get(`v4/${STUDIO}/studio-appearance`), STUDIO)).toBe(true);
    expect(service.handles(get(`v4/${STUDIO}/studio-appearance/cover/c.webp`), STUDIO)).toBe(true);
    expect(service.handles(get(`v4/${OTHER}/studio-appearance/logo/${LOGO_FILE}`), STUDIO)).toBe(false);
    expect(service.handles({ method: 'POST', path: `v4/${STUDIO}/studio-appearance/logo` }, STUDIO)).toBe(
      false,
    );
    expect(service.handles(get(`v4/${STUDIO}/studio-appearance/other/x.webp`), STUDIO)).toBe(false);
    expect(service.handles(get(`v4/${STUDIO}/studio-appearance/logo/..%2Fstation.json`), STUDIO)).toBe(false);
    expect(service.handles(get(`v4/${STUDIO}/studio-appearance/logo/.hidden`), STUDIO)).toBe(false);
    expect(service.handles(get(`v4/${STUDIO}/clients`), STUDIO)).toBe(false);
  });
});
