import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeskFleetSchema,
  FleetStationSchema,
  type StationReportInput,
} from '../../../../shared/contracts/api/desk-fleet';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { fileStorage } from '../../storage';
import { deviceCall, studioWithStation } from '../../sync/sync.test-support';
import { inStagingRollout } from './fleet.service';
import { publishRelease } from './releases.service';
import { makeReleaseDir } from './testing/release-dir';
import { DeskUpdater } from '../../../../desktop/main/fleet/desk-updater';
import { createNodeUpdater } from '../../../../desktop/main/fleet/node-updater';
import type { InstallState } from '../../../../desktop/main/fleet/update-policy';

/**
 * The desk fleet (issue 29): the update feed (404 desktop.noRelease, published files, staged
 * rollout), the station's report, logs on request, crash reports, the version floor on /sync, and
 * Back office → Stations (401/400/403/404/other studio/success). README of this module.
 */
let app: TestApp;
const clock = new ManualClock(new Date('2026-11-28T10:00:00Z'));
const dirs: string[] = [];
beforeAll(async () => {
  app = await startTestApp({ clock });
  // The feed is global (not per studio): this file is the only one that publishes.
  await app.knex('desk_releases').del();
});
afterAll(async () => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  await app?.close();
});

const api = (studioId: string, p: string) => `/api/v4/${studioId}/${p}`;
const publish = async (version: string, channel: 'stable' | 'beta', stagingPercentage: number | null) => {
  const dir = makeReleaseDir(version, { mac: true });
  dirs.push(dir);
  return publishRelease(app.knex, fileStorage(app.deps.config), {
    dir,
    channel,
    stagingPercentage,
    publishedBy: 'test',
    now: clock.now(),
  });
};
const report = (over: Partial<StationReportInput> = {}): StationReportInput => ({
  version: '0.2.0',
  platform: 'win32',
  mode: 'desk',
  outboxDepth: 3,
  lastSyncAt: new Date(clock.now().getTime() - 60_000).toISOString(),
  printers: {
    fiscal: { state: 'paperOut', message: 'Brak papieru', unsettled: 1 },
    ticket: { state: 'ok', message: null, unsettled: 0 },
  },
  recentErrors: [{ at: clock.now().toISOString(), source: 'fiscal', message: 'paper out' }],
  ...over,
});

describe('the update feed', () => {
  it('answers 404 desktop.noRelease until a release is published, then latest.yml, latest-mac.yml and the installers', async () => {
    const none = await fetch(`${app.url}/desktop/updates/beta/latest.yml`);
    expect(none.status).toBe(404);
    expect((await none.json()).error).toMatchObject({ key: 'desktop.noRelease', code: 3000 });
    expect((await fetch(`${app.url}/desktop/updates/nightly/latest.yml`)).status).toBe(404);

    const published = await publish('0.2.0', 'stable', null);
    expect(published.map((r) => r.platform)).toEqual(['win', 'mac']);
    const feed = await fetch(`${app.url}/desktop/updates/stable/latest.yml`);
    expect(feed.status).toBe(200);
    const info = yaml.load(await feed.text()) as {
      version: string;
      path: string;
      stagingPercentage?: number;
    };
    expect(info).toMatchObject({ version: '0.2.0', path: 'Studio-Desk-Setup-0.2.0.exe' });
    expect(info.stagingPercentage).toBeUndefined();
    const mac = yaml.load(await (await fetch(`${app.url}/desktop/updates/stable/latest-mac.yml`)).text());
    expect(mac).toMatchObject({ version: '0.2.0', path: 'Studio-Desk-0.2.0-arm64.zip' });

    const installer = await fetch(`${app.url}/desktop/updates/stable/Studio-Desk-Setup-0.2.0.exe`);
    expect(installer.status).toBe(200);
    const onDisk = fs.readFileSync(path.join(dirs.at(-1)!, 'Studio Desk-Setup-0.2.0.exe'));
    expect(Buffer.from(await installer.arrayBuffer()).equals(onDisk)).toBe(true);
    expect((await fetch(`${app.url}/desktop/updates/beta/Studio-Desk-Setup-0.2.0.exe`)).status).toBe(404);
    expect((await fetch(`${app.url}/desktop/updates/stable/..%2Fsecret`)).status).toBe(404);

    await publish('0.3.0', 'beta', 30);
    const beta = yaml.load(await (await fetch(`${app.url}/desktop/updates/beta/latest.yml`)).text());
    expect(beta).toMatchObject({ version: '0.3.0', stagingPercentage: 30 });
  });

  it('refuses to publish an installer whose sha512 differs from the feed file', async () => {
    const dir = makeReleaseDir('0.2.1');
    dirs.push(dir);
    fs.appendFileSync(path.join(dir, 'Studio Desk-Setup-0.2.1.exe'), 'tampered');
    await expect(
      publishRelease(app.knex, fileStorage(app.deps.config), {
        dir,
        channel: 'stable',
        stagingPercentage: null,
        publishedBy: 'test',
        now: clock.now(),
      }),
    ).rejects.toThrow(/sha512/);
  });
});

describe('the station: report, logs, crash reports, the version floor', () => {
  it('reports, uploads its logs when asked, sends crash reports; an old desk is refused on /sync', async () => {
    const s = await studioWithStation(app);
    const call = (method: string, p: string, body?: unknown, token: string | null = s.token) =>
      deviceCall(app.url, token, method, p, body);

    expect((await call('POST', '/desktop/station/report', report(), null)).status).toBe(401);
    const bad = await call('POST', '/desktop/station/report', {
      ...report(),
      version: 'new',
      outboxDepth: -1,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['outboxDepth', 'version']);

    const first = await call('POST', '/desktop/station/report', report());
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      channel: 'stable',
      feedPath: '/desktop/updates/stable',
      oldestAccepted: '0.1.0',
      accepted: true,
      uploadLogs: false,
    });

    // Logs: refused unless asked; asked by staff → the next report says so → uploaded → readable.
    expect((await call('POST', '/desktop/station/logs', { text: 'x' })).body.error.key).toBe(
      'desktop.logsNotRequested',
    );
    const ask = await s.owner.post(api(s.studio.id, `desk-fleet/station/${s.deviceId}/upload-logs`), {});
    expect(ask.status, ask.text).toBe(200);
    expect(FleetStationSchema.parse(ask.body).logs.requestedAt).toBe(clock.now().toISOString());
    expect((await call('POST', '/desktop/station/report', report())).body.uploadLogs).toBe(true);
    expect((await call('POST', '/desktop/station/logs', { text: 'line one\nline two' })).status).toBe(204);
    expect((await call('POST', '/desktop/station/report', report())).body.uploadLogs).toBe(false);
    const logs = await s.owner.get(api(s.studio.id, `desk-fleet/station/${s.deviceId}/logs`));
    expect(logs.status).toBe(200);
    expect(logs.text).toBe('line one\nline two');

    // Electron's crashReporter: multipart, the token in a form field.
    const form = new FormData();
    for (const [k, v] of Object.entries({ _version: '0.2.0', platform: 'win32', process_type: 'renderer' }))
      form.append(k, v);
    form.append('deviceToken', s.token);
    form.append('upload_file_minidump', new Blob([Buffer.from('MDMP fake dump')]), 'dump.dmp');
    const crash = await fetch(`${app.url}/desktop/crash-reports`, { method: 'POST', body: form });
    expect(crash.status, await crash.clone().text()).toBe(201);
    const noToken = new FormData();
    noToken.append('_version', '0.2.0');
    expect((await fetch(`${app.url}/desktop/crash-reports`, { method: 'POST', body: noToken })).status).toBe(
      401,
    );
    const stored = await app.knex('desk_crash_reports').where({ deviceId: s.deviceId }).first();
    expect(stored).toMatchObject({ appVersion: '0.2.0', processType: 'renderer', size: 14 });
    expect((stored?.fields as Record<string, string>).deviceToken).toBeUndefined();

    // The version floor: raised to 0.2.0, a 0.1.9 desk (or one that sends no version) is refused on
    // /sync with desktop.tooOld; its report is answered (accepted: false) so it learns to update.
    process.env.DESK_OLDEST_VERSION = '0.2.0';
    try {
      const pull = await fetch(`${app.url}/sync/devices/me`, {
        headers: { authorization: `Bearer ${s.token}`, 'x-desk-version': '0.1.9' },
      });
      expect(pull.status).toBe(426);
      expect((await pull.json()).error).toMatchObject({ key: 'desktop.tooOld', code: 3001 });
      expect((await call('GET', '/sync/devices/me')).body.error.key).toBe('desktop.tooOld');
      const ok = await fetch(`${app.url}/sync/devices/me`, {
        headers: { authorization: `Bearer ${s.token}`, 'x-desk-version': '0.2.0' },
      });
      expect(ok.status).toBe(200);
      const old = await call('POST', '/desktop/station/report', report({ version: '0.1.9' }));
      expect(old.body).toMatchObject({ accepted: false, oldestAccepted: '0.2.0' });
      const fleet = DeskFleetSchema.parse((await s.owner.get(api(s.studio.id, 'desk-fleet'))).body);
      expect(fleet.stations[0]).toMatchObject({ version: '0.1.9', tooOld: true });
    } finally {
      delete process.env.DESK_OLDEST_VERSION;
    }
  });
});

describe('Back office → Stations (GET desk-fleet, PUT channel, POST upload-logs, GET logs)', () => {
  it('shows every station with what it reported, flags the stale one, and sets the channel', async () => {
    const s = await studioWithStation(app);
    const second = uuidv7();
    const reg = await s.owner.post('/sync/devices', { deviceId: second, name: 'Kiosk entrance' });
    expect(reg.status).toBe(201);
    await deviceCall(app.url, s.token, 'POST', '/desktop/station/report', report());
    await deviceCall(app.url, reg.body.deviceToken, 'POST', '/desktop/station/report', {
      ...report({
        mode: 'kiosk',
        outboxDepth: 0,
        // Its slip printer failed (desktop/main/fleet/ticket-health.ts reports it so).
        printers: {
          fiscal: null,
          ticket: { state: 'offline', message: 'connect ECONNREFUSED 192.168.1.50:9100', unsettled: 0 },
        },
        recentErrors: [
          {
            at: clock.now().toISOString(),
            source: 'ticket',
            message: 'connect ECONNREFUSED 192.168.1.50:9100',
          },
        ],
      }),
      lastSyncAt: new Date(clock.now().getTime() - 6 * 3_600_000).toISOString(),
    });

    const res = await s.owner.get(api(s.studio.id, 'desk-fleet'));
    expect(res.status, res.text).toBe(200);
    const fleet = DeskFleetSchema.parse(res.body);
    expect(fleet).toMatchObject({ channel: 'stable', oldestAccepted: '0.1.0', staleAfterHours: 4 });
    expect(fleet.releases.map((r) => `${r.channel}/${r.platform}/${r.version}`)).toEqual([
      'stable/win/0.2.0',
      'stable/mac/0.2.0',
      'beta/win/0.3.0',
      'beta/mac/0.3.0',
    ]);
    const [desk, kiosk] = [
      fleet.stations.find((x) => x.deviceId === s.deviceId)!,
      fleet.stations.find((x) => x.deviceId === second)!,
    ];
    expect(desk).toMatchObject({
      name: 'Front desk 1',
      mode: 'desk',
      version: '0.2.0',
      outboxDepth: 3,
      stale: false,
      tooOld: false,
      inRollout: true,
      printers: { fiscal: { state: 'paperOut', unsettled: 1 } },
    });
    expect(desk.recentErrors).toHaveLength(1);
    expect(kiosk).toMatchObject({
      mode: 'kiosk',
      stale: true,
      printers: {
        fiscal: null,
        ticket: { state: 'offline', message: 'connect ECONNREFUSED 192.168.1.50:9100', unsettled: 0 },
      },
      recentErrors: [{ source: 'ticket', message: 'connect ECONNREFUSED 192.168.1.50:9100' }],
    });

    // Beta: 30 % rollout, each station in or out as electron-updater decides with its id.
    const put = await s.owner.request('PUT', api(s.studio.id, 'desk-fleet/channel'), { channel: 'beta' });
    expect(put.status, put.text).toBe(200);
    const beta = DeskFleetSchema.parse(put.body);
    expect(beta.channel).toBe('beta');
    expect(beta.stations.find((x) => x.deviceId === s.deviceId)!.inRollout).toBe(
      inStagingRollout(s.deviceId, 30),
    );
    const after = await deviceCall(app.url, s.token, 'POST', '/desktop/station/report', report());
    expect(after.body).toMatchObject({ channel: 'beta', feedPath: '/desktop/updates/beta' });
  });

  it('answers 401 signed out, 400 with the field, 403 without the right, 404 to another studio and for an unknown station', async () => {
    const s = await studioWithStation(app);
    const paths = {
      fleet: api(s.studio.id, 'desk-fleet'),
      channel: api(s.studio.id, 'desk-fleet/channel'),
      ask: api(s.studio.id, `desk-fleet/station/${s.deviceId}/upload-logs`),
      logs: api(s.studio.id, `desk-fleet/station/${s.deviceId}/logs`),
    };
    const anon = await app.anonymous();
    expect((await anon.get(paths.fleet)).status).toBe(401);
    expect((await anon.request('PUT', paths.channel, { channel: 'beta' })).status).toBe(401);
    expect((await anon.post(paths.ask, {})).status).toBe(401);

    const bad = await s.owner.request('PUT', paths.channel, { channel: 'nightly' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['channel']);

    const user = await createUser(app.knex, { firstName: 'Front', lastName: 'Desk' });
    await addMembership(app.knex, s.studio, user, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(user.email, user.password);
    expect((await desk.get(paths.fleet)).status).toBe(403);
    expect((await desk.request('PUT', paths.channel, { channel: 'beta' })).status).toBe(403);
    expect((await desk.post(paths.ask, {})).status).toBe(403);

    await expectHiddenFromOtherStudio(app, { method: 'GET', path: paths.fleet }, ['Front desk 1']);
    await expectHiddenFromOtherStudio(app, { method: 'PUT', path: paths.channel, body: { channel: 'beta' } });
    await expectHiddenFromOtherStudio(app, { method: 'POST', path: paths.ask, body: {} });
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: paths.logs });
    // Another studio's station through this studio's path, an unknown one, logs never uploaded: 404.
    const other = await studioWithStation(app);
    expect(
      (await s.owner.post(api(s.studio.id, `desk-fleet/station/${other.deviceId}/upload-logs`), {})).status,
    ).toBe(404);
    expect(
      (await s.owner.post(api(s.studio.id, `desk-fleet/station/${uuidv7()}/upload-logs`), {})).status,
    ).toBe(404);
    expect((await s.owner.get(paths.logs)).status).toBe(404);
  });
});

describe('deleting a past release (DELETE desk-fleet/release/{id})', () => {
  it('401/400/403 (no right, not a release manager)/404, the feed’s own release refused, a past one deleted with its files', async () => {
    const s = await studioWithStation(app);
    const { email } = (await app.knex('users').where({ id: s.owner.session!.userId }).first('email'))!;
    // Old versions on stable: below what the feed serves (0.0.3, or newer from the tests above).
    await publish('0.0.1', 'stable', null);
    await publish('0.0.2', 'stable', null);
    await publish('0.0.3', 'stable', null);
    const storage = fileStorage(app.deps.config);
    const before = DeskFleetSchema.parse((await s.owner.get(api(s.studio.id, 'desk-fleet'))).body);
    expect(before.canDeleteReleases).toBe(false);
    const old = before.pastReleases.find((r) => r.version === '0.0.1' && r.platform === 'win')!;
    const current = before.releases.find((r) => r.channel === 'stable' && r.platform === 'win')!;
    expect(old).toBeDefined();
    const del = (id: string) => api(s.studio.id, `desk-fleet/release/${id}`);
    const installer = 'Studio-Desk-Setup-0.0.1.exe';
    const key = `desktop-updates/stable/win/0.0.1/${installer}`;
    expect(await storage.read(key)).not.toBeNull();

    expect((await (await app.anonymous()).request('DELETE', del(old.id))).status).toBe(401);
    const user = await createUser(app.knex, { firstName: 'Front', lastName: 'Desk' });
    await addMembership(app.knex, s.studio, user, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(user.email, user.password);
    process.env.DESK_RELEASE_MANAGERS = `someone@else.test, ${email.toUpperCase()}, ${user.email}`;
    try {
      // No settings.edit: 403 even when listed.
      expect((await desk.request('DELETE', del(old.id))).status).toBe(403);
      // A body it does not take: 400; a path id that is not an id names nothing: 404 (route.ts).
      expect((await s.owner.request('DELETE', del(old.id), { force: true })).status).toBe(400);
      expect((await s.owner.request('DELETE', api(s.studio.id, 'desk-fleet/release/nope'))).status).toBe(404);
      expect((await s.owner.request('DELETE', del(uuidv7()))).status).toBe(404);
      await expectHiddenFromOtherStudio(app, { method: 'DELETE', path: del(old.id) });
      const refused = await s.owner.request('DELETE', del(current.id));
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ key: 'desktop.releaseCurrent', code: 3050 });

      const done = await s.owner.request('DELETE', del(old.id));
      expect(done.status, done.text).toBe(200);
      const after = DeskFleetSchema.parse(done.body);
      expect(after.canDeleteReleases).toBe(true);
      expect(after.pastReleases.map((r) => r.id)).not.toContain(old.id);
      expect(after.pastReleases.some((r) => r.version === '0.0.2')).toBe(true);
      expect(after.releases.map((r) => r.id)).toContain(current.id);
      expect(await storage.read(key)).toBeNull();
      expect((await fetch(`${app.url}/desktop/updates/stable/${installer}`)).status).toBe(404);
      expect(
        await storage.read('desktop-updates/stable/win/0.0.2/Studio-Desk-Setup-0.0.2.exe'),
      ).not.toBeNull();
      expect((await s.owner.request('DELETE', del(old.id))).status).toBe(404);

      // A manager of the studio not listed: 403.
      process.env.DESK_RELEASE_MANAGERS = 'someone@else.test';
      const other = after.pastReleases.find((r) => r.version === '0.0.2')!;
      expect((await s.owner.request('DELETE', del(other.id))).status).toBe(403);
    } finally {
      delete process.env.DESK_RELEASE_MANAGERS;
    }
  });
});

describe('the desk’s update decision: electron-updater against the cloud’s feed', () => {
  // Staging ids (the station's device id): bytes 12–15 of the UUID over 0xffffffff — ~0 % and ~100 %.
  const IN = '018f0000-0000-7000-8000-000000000001';
  const OUT = '018f0000-0000-7000-8000-0000fffffffe';

  function station(stagingId: string, channel: 'stable' | 'beta', state: InstallState) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-updater-'));
    dirs.push(dir);
    const installs: string[] = [];
    const updater = createNodeUpdater({ version: '0.1.0', dir, stagingId });
    const desk = new DeskUpdater({
      updater,
      state: () => state,
      timeZone: () => 'Europe/Warsaw',
      install: () => installs.push(desk.state().phase === 'installing' ? 'installed' : '?'),
      now: () => new Date('2026-11-28T12:00:00Z'),
    });
    desk.feed(`${app.url}/desktop/updates/${channel}`);
    return { desk, installs, dir };
  }

  it('downloads in the background inside the rollout, installs only once the shift is closed and the outbox empty', async () => {
    expect(inStagingRollout(IN, 30)).toBe(true);
    expect(inStagingRollout(OUT, 30)).toBe(false);
    const state: InstallState = { shiftOpen: true, pending: 2, tooOld: false };
    const { desk, installs, dir } = station(IN, 'beta', state);
    await desk.check();
    expect(desk.state()).toEqual({ phase: 'ready', version: '0.3.0', waiting: 'pendingChanges' });
    // The installer electron-updater downloaded and checked against latest.yml's sha512.
    const cached = fs.readdirSync(path.join(dir, 'cache'), { recursive: true }).map(String);
    expect(cached.some((f) => f.endsWith('Studio-Desk-Setup-0.3.0.exe'))).toBe(true);
    expect(installs).toEqual([]);

    state.pending = 0;
    expect(desk.tick()).toEqual({ install: false, why: 'shiftOpen' });
    expect(desk.state()).toMatchObject({ phase: 'ready', waiting: 'shiftOpen' });
    state.shiftOpen = false;
    expect(desk.tick()).toEqual({ install: true, why: 'shiftClosed' });
    expect(installs).toEqual(['installed']);
    expect(desk.state()).toEqual({ phase: 'installing', version: '0.3.0' });
  });

  it('a station outside the staged rollout stays where it is; stable offers its own release; nothing published is no update', async () => {
    const out = station(OUT, 'beta', { shiftOpen: false, pending: 0, tooOld: false });
    await out.desk.check();
    expect(out.desk.state()).toEqual({ phase: 'idle' });
    expect(out.installs).toEqual([]);

    const stable = station(OUT, 'stable', { shiftOpen: false, pending: 0, tooOld: false });
    await stable.desk.check();
    expect(stable.desk.state()).toEqual({ phase: 'installing', version: '0.2.0' });
    expect(stable.installs).toEqual(['installed']);

    await app.knex('desk_releases').where({ channel: 'beta' }).del();
    const none = station(IN, 'beta', { shiftOpen: false, pending: 0, tooOld: false });
    await none.desk.check();
    expect(none.desk.state()).toMatchObject({ phase: 'failed' });
    expect((none.desk.state() as { message: string }).message).toMatch(/404/);
  });
});
