import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../db/database';
import { createMainServices, type MainServices } from '../station/services';
import { createDeskLogger } from './desk-logger';

/**
 * Issue 29: the desk keeps rotating log files in its data folder (electron-log's file transport, in
 * plain Node), and "Upload logs" sends their tail.
 */
const dirs: string[] = [];
const running: MainServices[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-log-'));
  dirs.push(d);
  return d;
};

describe('the desk log', () => {
  it('rotates at the size limit keeping the newest files, and its tail reads across them in order', () => {
    const dir = path.join(tmp(), 'logs');
    const log = createDeskLogger({ dir, maxBytes: 600, keep: 3 });
    for (let i = 0; i < 60; i += 1) log.info('sync', `line ${i} ${'x'.repeat(40)}`);
    log.error('ticket', 'connect ECONNREFUSED 192.168.1.50:9100\nsecond line');
    expect(fs.readdirSync(dir).sort()).toEqual(['desk.1.log', 'desk.2.log', 'desk.log']);
    for (const f of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, f)).size).toBeLessThan(800);
    const all = log.tail(1_000_000).trimEnd().split('\n');
    // The oldest lines were dropped with the oldest file; what is kept is in order, newest last.
    expect(all[0]).not.toContain('line 0 ');
    const numbers = all.filter((l) => l.includes('[sync]')).map((l) => Number(/line (\d+)/.exec(l)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(59);
    expect(all.at(-1)).toMatch(
      /^\d{4}-\d\d-\d\dT.*\[error\]\s+\[ticket\] connect ECONNREFUSED 192\.168\.1\.50:9100 ⏎ second line$/,
    );
    // A short tail starts at a whole line.
    const short = log.tail(200);
    expect(short.length).toBeLessThanOrEqual(200);
    expect(short).toMatch(/^\d{4}-/);
  });

  it('"Upload logs": the station sends its log file (the start, errors, the state at upload), not a made-up text', async () => {
    const dataDir = path.join(tmp(), 'station');
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = openLocalDatabase(path.join(dataDir, 'station.db'));
    const meta = db.prepare('insert into meta (key, value) values (?, ?)');
    for (const [k, v] of Object.entries({
      studioId: uuidv7(),
      deviceId: uuidv7(),
      deviceToken: 'sdt.desk.secret',
      cloudUrl: 'http://cloud.test',
      cursor: '1:1:',
      epoch: 'e1',
    }))
      meta.run(k, v);
    db.close();
    const uploads: string[] = [];
    const fetch = (async (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname === '/desktop/station/report')
        return Response.json({
          channel: 'stable',
          feedPath: '/desktop/updates/stable',
          oldestAccepted: '0.1.0',
          accepted: true,
          uploadLogs: true,
          serverTime: new Date().toISOString(),
        });
      if (url.pathname === '/desktop/station/logs') {
        uploads.push((JSON.parse(String(init?.body)) as { text: string }).text);
        return new Response(null, { status: 204 });
      }
      return Response.json(
        { error: { code: 1, key: 'server.unavailable', message: 'down' } },
        { status: 503 },
      );
    }) as typeof globalThis.fetch;
    const services = createMainServices({
      dataDir,
      cloudUrl: 'http://cloud.test',
      runtime: 'host',
      version: '0.3.0',
      sync: 'local',
      fetch,
      probeIntervalMs: 60_000,
      reportIntervalMs: 3_600_000,
    });
    running.push(services);
    services.reporter!.noteError('ticket', 'connect ECONNREFUSED 192.168.1.50:9100');
    await services.reporter!.report();

    const file = path.join(dataDir, 'logs', 'desk.log');
    expect(fs.existsSync(file)).toBe(true);
    expect(uploads).toHaveLength(1);
    const sent = uploads[0]!;
    expect(sent).toContain('[start] studio desk 0.3.0 (host');
    expect(sent).toMatch(/\[error\]\s+\[ticket\] connect ECONNREFUSED 192\.168\.1\.50:9100/);
    expect(sent).toContain('[upload] studio desk 0.3.0');
    // What was sent is what the file holds, line for line.
    expect(fs.readFileSync(file, 'utf8').includes(sent)).toBe(true);
  });
});
