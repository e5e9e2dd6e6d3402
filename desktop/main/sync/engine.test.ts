import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { PullResult, PushResult } from '../../../shared/contracts/sync';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { SyncEngine } from './engine';
import { OfflineApi } from '../station/offline-api';

/**
 * The engine's status against a scripted cloud (fetch stand-in): what the status bar shows while a
 * pull is under way, and how soon the loop tries again once the cloud answers after an outage.
 */
let db: LocalDatabase | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A registered station with a cursor (no bootstrap) and `cloud` answering its /sync calls. */
function station(cloud: (path: string, body: unknown) => Response | Promise<Response>, hook?: () => void) {
  db = openLocalDatabase(':memory:');
  const meta = db.prepare('insert into meta (key, value) values (?, ?)');
  for (const [key, value] of Object.entries({
    studioId: uuidv7(),
    deviceId: uuidv7(),
    deviceToken: 'token',
    cloudUrl: 'http://cloud.test',
    cursor: '100:100:',
    epoch: 'e1',
    lastSyncAt: '2026-11-26T08:00:00.000Z',
  }))
    meta.run(key, value);
  const fetch = (async (url: string | URL, init?: RequestInit) =>
    cloud(
      new URL(String(url)).pathname,
      init?.body ? JSON.parse(String(init.body)) : null,
    )) as typeof globalThis.fetch;
  return new SyncEngine(db, {
    fetch,
    // Before each pull page is applied.
    hook: (point) => (point === 'duringPull' ? hook?.() : undefined),
    pollMs: 30_000,
  });
}

function page(
  seq: number,
  hasMore: boolean,
  rows: Array<{ id: string; row: Record<string, unknown> }>,
): PullResult {
  return {
    patch: rows.map((r) => ({ op: 'put', table: 'clients', id: r.id, row: r.row })),
    lastMutationSeq: seq,
    outcomes: [],
    cursor: hasMore ? '100:100:' : '200:200:',
    epoch: 'e1',
    serverTime: new Date().toISOString(),
    hasMore,
    resume: hasMore
      ? { pin: '150:150:', lastMutationSeq: seq, afterTable: 'clients', afterId: rows.at(-1)!.id }
      : null,
  } as PullResult;
}

describe('sync engine status', () => {
  it('"all synced" and the last-sync time change together, with the last page of a paged pull', async () => {
    const userId = uuidv7();
    const clientId = uuidv7();
    const seen: Array<{ pending: number; lastSyncAt: string | null }> = [];
    let engine: SyncEngine | null = null;
    let pulls = 0;
    engine = station(
      (path, body) => {
        if (path === '/sync/push') {
          const { mutations } = body as { mutations: Array<{ id: string; seq: number }> };
          return json(200, {
            results: mutations.map((m) => ({ id: m.id, seq: m.seq, outcome: { status: 'applied' } })),
            lastMutationSeq: mutations.at(-1)!.seq,
            serverTime: new Date().toISOString(),
          } satisfies PushResult);
        }
        pulls += 1;
        // The client the desk created comes in the SECOND page of the delta.
        const other = uuidv7();
        return json(
          200,
          pulls === 1
            ? page(1, true, [
                { id: other, row: { id: other, user_id: uuidv7(), first_name: 'Jan', last_name: 'A' } },
              ])
            : page(1, false, [
                { id: clientId, row: { id: clientId, user_id: userId, first_name: 'Ewa', last_name: 'Z' } },
              ]),
        );
      },
      () => seen.push({ pending: engine!.status().pending, lastSyncAt: engine!.status().lastSyncAt }),
    );
    engine.mutate('createClient', 1, { firstName: 'Ewa', lastName: 'Z', userId, clientId });
    expect(engine.status().pending).toBe(1);

    await engine.syncOnce();

    // Between the pages (the hook runs before each is applied): still waiting, the old time.
    expect(seen).toEqual([
      { pending: 1, lastSyncAt: '2026-11-26T08:00:00.000Z' },
      { pending: 1, lastSyncAt: '2026-11-26T08:00:00.000Z' },
    ]);
    const after = engine.status();
    expect(after.pending).toBe(0);
    expect(after.lastSyncAt).not.toBe('2026-11-26T08:00:00.000Z');
    // The desk's client, as the server has it.
    expect(engine.store.clientByUser(userId)).toMatchObject({ first_name: 'Ewa' });
    await engine.stop();
  });

  it("the cloud's return clears the backoff earned while it was away", async () => {
    let up = false;
    const engine = station(() => {
      if (!up) throw new TypeError('fetch failed');
      return json(200, page(0, false, []));
    });
    for (let i = 0; i < 8; i++) await engine.syncOnce().catch(() => undefined);
    expect(engine.backoffMs()).toBeGreaterThanOrEqual(30_000);
    expect(engine.backoffMs()).toBeLessThanOrEqual(60_000);
    // A local change keeps the backoff (the cloud is still away)…
    engine.kick();
    expect(engine.backoffMs()).toBeGreaterThanOrEqual(30_000);
    // …the probe hearing the cloud again clears it: one more failure waits about a second.
    up = true;
    engine.kick('reachable');
    up = false;
    await engine.syncOnce().catch(() => undefined);
    expect(engine.backoffMs()).toBeLessThanOrEqual(1_000);
    up = true;
    await engine.syncOnce();
    expect(engine.backoffMs()).toBe(30_000);
    await engine.stop();
  });
});

describe('a changefeed newer than the desk (version skew)', () => {
  it('ignores columns and tables it does not know: the rows apply, the offline screens answer in their own shape', async () => {
    const userId = uuidv7();
    const clientId = uuidv7();
    const engine = station((path) => {
      if (path !== '/sync/pull') return json(404, {});
      const p = page(1, false, [
        {
          id: clientId,
          row: {
            id: clientId,
            user_id: userId,
            first_name: 'Ewa',
            last_name: 'Zielińska',
            last_key: 'zielinska',
            first_key: 'ewa',
            search_text: 'ewa zielinska',
            // Columns a later cloud added: this desk has never heard of them.
            loyalty_tier: 'gold',
            preferences: { newsletter: true, nested: [1, 2, 3] },
          },
        },
      ]);
      // …and a table it does not mirror.
      p.patch.push({ op: 'put', table: 'future_things', id: uuidv7(), row: { anything: 1 } } as never);
      return json(200, p);
    });
    await engine.syncOnce();
    expect(engine.status().lastError).toBeNull();
    expect(engine.status().lastSyncAt).not.toBe('2026-11-26T08:00:00.000Z');

    const api = new OfflineApi(engine, () => new Date('2026-11-26T10:00:00Z'));
    const studioUuid = uuidv7();
    const found = api.answer(
      { method: 'GET', path: `v4/${studioUuid}/client/search?q=zielinska&limit=10` },
      studioUuid,
      uuidv7(),
    );
    expect(found?.status).toBe(200);
    const items = (JSON.parse(found!.body) as { items: Array<Record<string, unknown>> }).items;
    expect(items.map((c) => `${String(c.firstName)} ${String(c.lastName)}`)).toEqual(['Ewa Zielińska']);
    expect(Object.keys(items[0]!)).not.toEqual(expect.arrayContaining(['loyalty_tier']));
    expect(JSON.stringify(items[0])).not.toContain('gold');

    // A local change on that row keeps working (and keeps what it does not know for the next pull).
    engine.mutate('updateClient', 1, { userId, fields: { phone: '601202303' } });
    expect(engine.store.clientByUser(userId)).toMatchObject({ phone: '601202303', loyalty_tier: 'gold' });
    await engine.stop();
  });
});
