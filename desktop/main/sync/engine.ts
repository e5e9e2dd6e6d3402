import { EventEmitter } from 'node:events';
import { v7 as uuidv7 } from 'uuid';
import type {
  BootstrapStartResult,
  Mutation,
  MutationResult,
  PullResult,
  PullResume,
  PushResult,
  RegisterDeviceResult,
} from '../../../shared/contracts/sync';
import { EXPECTED_SEQ_HEADER, PUSH_BATCH_MAX } from '../../../shared/contracts/sync';
import type { LocalDatabase } from '../db/database';
import { runBootstrap } from './bootstrap';
import { localEffects } from './local-commands';
import { LocalStore, type EffectOp } from './local-store';
import * as outboxTable from './outbox';
import { readPokeStream } from './poke-stream';
import {
  HttpError,
  isDroppedConnection,
  META as M,
  type OutboxRow,
  type SyncEngineOptions,
  type SyncErrorCode,
  type SyncStatus,
} from './sync-types';

export type { CrashPoint, OutboxRow, SyncEngineOptions, SyncErrorCode, SyncStatus } from './sync-types';

/**
 * The station's sync engine (docs/offline-sync.md). Plain Node: no Electron import, so it runs in
 * tests and in desktop/host. Local writes are synchronous SQLite transactions (effect + outbox row +
 * seq); the network side pushes the outbox in seq order with backoff, pulls the changefeed, and
 * re-applies the effects the server has not confirmed yet.
 *
 * Events: `status` (SyncStatus), `outcome` ({ seq, mutationId, name, outcome }), `changed` (tables),
 * `reset` (the cursor was refused; a bootstrap follows).
 */
export class SyncEngine extends EventEmitter {
  readonly store: LocalStore;
  private readonly fetchFn: typeof fetch;
  private readonly clock: () => number;
  private online = false;
  private lastError: SyncErrorCode | null = null;
  private blocked: SyncErrorCode | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** A kick that came while no wait was armed (mid-sync): the loop goes round again at once. */
  private kicked = false;
  private failures = 0;
  private events: AbortController | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    readonly db: LocalDatabase,
    private readonly options: SyncEngineOptions = {},
  ) {
    super();
    this.store = new LocalStore(db);
    this.fetchFn = options.fetch ?? fetch;
    this.clock = options.clock ?? Date.now;
  }

  // ------------------------------------------------------------------ state

  status(): SyncStatus {
    return {
      online: this.online,
      pending: this.pendingCount(),
      lastSyncAt: this.store.getMeta(M.lastSyncAt),
      lastError: this.lastError,
    };
  }

  isRegistered(): boolean {
    return Boolean(this.store.getMeta(M.token));
  }

  get deviceId(): string | null {
    return this.store.getMeta(M.deviceId);
  }

  get studioId(): string | null {
    return this.store.getMeta(M.studioId);
  }

  /**
   * The studio as of the last bootstrap: its IANA time zone is the one the desk shows times in (the
   * cache holds UTC instants), whatever the station computer's own zone.
   */
  studio(): BootstrapStartResult['studio'] | null {
    const text = this.store.getMeta(M.studio);
    return text ? (JSON.parse(text) as BootstrapStartResult['studio']) : null;
  }

  /** Server time as the station best knows it (device clock + measured offset). */
  serverNow(): number {
    return this.clock() + Number(this.store.getMeta(M.offset) ?? 0);
  }

  pendingCount(): number {
    return this.confirmedPending().length;
  }

  /** Mutations whose effects the server has not confirmed in a pull yet. */
  private confirmedPending(): Array<{ seq: number; effects: string }> {
    return outboxTable.unconfirmedMutations(this.db, this.store);
  }

  outbox(): OutboxRow[] {
    return outboxTable.readOutbox(this.db);
  }

  /** Closing a shift requires no pending facts in the outbox. */
  hasPendingFacts(): boolean {
    return outboxTable.hasPendingFacts(this.db);
  }

  private setStatus(patch: { online?: boolean; lastError?: SyncErrorCode | null }): void {
    if (patch.online !== undefined) this.online = patch.online;
    if (patch.lastError !== undefined) this.lastError = patch.lastError;
    this.emit('status', this.status());
  }

  // ------------------------------------------------------------------ registration

  /**
   * Registers this station with the cloud using a staff member's session cookie (`sp_session` value or
   * a whole Cookie header). Keeps the device id across sign-ins; the outbox is kept whatever happens.
   */
  async registerDevice(
    cloudUrl: string,
    staffSessionCookie: string,
    name: string,
    options: { studioUuid?: string; newDeviceId?: boolean } = {},
  ): Promise<RegisterDeviceResult> {
    let deviceId = this.store.getMeta(M.deviceId);
    const renumber = Boolean(deviceId && options.newDeviceId);
    if (!deviceId || options.newDeviceId) deviceId = uuidv7();
    const cookie = staffSessionCookie.includes('=') ? staffSessionCookie : `sp_session=${staffSessionCookie}`;
    const res = await this.fetchFn(`${cloudUrl.replace(/\/$/, '')}/sync/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie },
      body: JSON.stringify({
        deviceId,
        name,
        ...(options.studioUuid ? { studioUuid: options.studioUuid } : {}),
      }),
    });
    const body = (await res.json()) as RegisterDeviceResult;
    if (res.status !== 201) throw new HttpError(res.status, body, res.headers);
    const previousStudio = this.store.getMeta(M.studioId);
    this.db.transaction(() => {
      this.store.setMeta(M.deviceId, body.deviceId);
      this.store.setMeta(M.token, body.deviceToken);
      this.store.setMeta(M.cloudUrl, cloudUrl.replace(/\/$/, ''));
      this.store.setMeta(M.studioId, body.studioId);
      if (renumber) outboxTable.renumberOutbox(this.db, this.store);
      if (previousStudio && previousStudio !== body.studioId) outboxTable.forgetCursor(this.store);
    })();
    this.noteServerTime(body.serverTime, Date.now(), Date.now());
    this.blocked = null;
    this.setStatus({ lastError: null });
    return body;
  }

  // ------------------------------------------------------------------ local writes

  /**
   * Runs a command locally: validates, then in ONE synchronous transaction applies its effect, writes
   * the outbox row and takes the next seq. Durable before it returns (synchronous=FULL), so the caller
   * may print the receipt or open the door afterwards. Never awaits inside.
   */
  mutate(
    name: string,
    version: number,
    args: unknown,
    options: {
      actorId?: string;
      mutationId?: string;
      /**
       * More local writes of the same action (e.g. the sale's `local_sales` row), run inside the same
       * transaction after the outbox row: all of it commits, or none. Synchronous only.
       */
      alsoWrite?: (done: {
        mutationId: string;
        seq: number;
        occurredAt: string;
        args: Record<string, unknown>;
      }) => void;
    } = {},
  ): { mutationId: string; seq: number } {
    const studioId = this.store.getMeta(M.studioId);
    if (!studioId) throw new Error('the station is not registered');
    const now = new Date(this.serverNow()).toISOString();
    const mutationId = options.mutationId ?? uuidv7();
    const seq = this.db.transaction(() => {
      const computed = localEffects(name, version, args, { store: this.store, studioId, now });
      const next = Number(this.store.getMeta(M.nextSeq) ?? 1);
      this.store.applyEffects(computed.effects);
      this.db
        .prepare(
          `insert into outbox (seq, mutation_id, name, version, args, effects, occurred_at, actor_id, is_fact, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          next,
          mutationId,
          name,
          version,
          JSON.stringify(computed.args),
          JSON.stringify(computed.effects),
          now,
          options.actorId ?? null,
          computed.isFact ? 1 : 0,
          new Date(this.clock()).toISOString(),
        );
      this.store.setMeta(M.nextSeq, next + 1);
      options.alsoWrite?.({ mutationId, seq: next, occurredAt: now, args: computed.args });
      return next;
    })();
    this.options.hook?.('afterLocalCommit');
    this.emit('status', this.status());
    this.kick();
    return { mutationId, seq };
  }

  // ------------------------------------------------------------------ network

  private async call<T>(method: string, path: string, body?: unknown, raw = false): Promise<T> {
    const base = this.store.getMeta(M.cloudUrl);
    const token = this.store.getMeta(M.token);
    if (!base || !token) {
      this.blocked = 'notRegistered';
      throw new HttpError(401, null, new Headers());
    }
    let sent = Date.now();
    let res: Response | null = null;
    // Every /sync call is idempotent (pulls read, pushes are keyed by mutation id), so a connection
    // that died under the request (a keep-alive socket the server closed at that moment) is retried
    // once at once; anything longer is the loop's backoff.
    for (let attempt = 0; res === null; attempt++) {
      try {
        sent = Date.now();
        res = await this.fetchFn(base + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
      } catch (err) {
        if (attempt === 0 && isDroppedConnection(err)) continue;
        this.setStatus({ online: false, lastError: 'offline' });
        throw err;
      }
    }
    const text = await res.text();
    if (raw && res.status < 400) {
      if (!this.online) this.setStatus({ online: true });
      return { text, headers: res.headers } as T;
    }
    const parsed = text ? (JSON.parse(text) as unknown) : null;
    if (!this.online) this.setStatus({ online: true });
    if (parsed && typeof parsed === 'object' && 'serverTime' in parsed)
      this.noteServerTime(String((parsed as { serverTime: unknown }).serverTime), sent, Date.now());
    if (res.status >= 400) throw new HttpError(res.status, parsed, res.headers);
    return parsed as T;
  }

  /** Offset = server time − device time at the request's midpoint; ordering never uses it. */
  private noteServerTime(serverTime: string, sentReal: number, receivedReal: number): void {
    const server = Date.parse(serverTime);
    if (!Number.isFinite(server)) return;
    const device = this.clock() - (receivedReal - sentReal) / 2;
    this.store.setMeta(M.offset, Math.round(server - device));
  }

  /** Pushes the outbox in seq order, in batches. Returns how many mutations the server answered. */
  async push(): Promise<number> {
    let answered = 0;
    for (;;) {
      const ackedThrough = Number(this.store.getMeta(M.ackedThrough) ?? 0);
      const batch = this.db
        .prepare('select * from outbox where seq > ? order by seq limit ?')
        .all(ackedThrough, PUSH_BATCH_MAX) as outboxTable.OutboxRecord[];
      if (batch.length === 0) return answered;
      const mutations: Mutation[] = batch.map((r) => ({
        id: r.mutation_id,
        seq: r.seq,
        name: r.name,
        version: r.version,
        args: JSON.parse(r.args) as Record<string, unknown>,
        occurredAt: r.occurred_at,
        clockOffsetMs: Number(this.store.getMeta(M.offset) ?? 0),
        ...(r.actor_id ? { actorId: r.actor_id } : {}),
      }));
      let result: PushResult;
      try {
        result = await this.call<PushResult>('POST', '/sync/push', {
          mutations,
          deviceTime: new Date(this.clock()).toISOString(),
        });
      } catch (err) {
        if (err instanceof HttpError && err.status === 409 && err.headers.get(EXPECTED_SEQ_HEADER)) {
          // The server lost what we sent (restored): resend from the seq it expects, acked rows included.
          const expected = Number(err.headers.get(EXPECTED_SEQ_HEADER));
          const have = this.db.prepare('select 1 from outbox where seq = ?').get(expected);
          if (!have || expected > ackedThrough + 1) {
            this.blocked = 'seqGap';
            throw err;
          }
          this.store.setMeta(M.ackedThrough, expected - 1);
          continue;
        }
        throw err;
      }
      this.options.hook?.('afterPushResponse');
      this.recordResults(result.results);
      answered += result.results.length;
      if (result.clientReset) {
        this.blocked = 'clientReset';
        this.setStatus({ lastError: 'clientReset' });
        return answered;
      }
      if (result.results.length < batch.length) return answered;
    }
  }

  private recordResults(results: readonly MutationResult[]): void {
    const mark = this.db.prepare(
      `update outbox set status = 'acked', outcome = ?, acked_at = ? where seq = ? and mutation_id = ? and status = 'pending'`,
    );
    const changed: MutationResult[] = [];
    this.db.transaction(() => {
      let through = Number(this.store.getMeta(M.ackedThrough) ?? 0);
      for (const r of results) {
        if (
          mark.run(JSON.stringify(r.outcome), new Date(this.clock()).toISOString(), r.seq, r.id).changes > 0
        )
          changed.push(r);
        if (r.seq === through + 1) through = r.seq;
      }
      this.store.setMeta(M.ackedThrough, through);
    })();
    for (const r of changed) {
      const row = this.db.prepare('select name from outbox where seq = ?').get(r.seq) as
        { name: string } | undefined;
      this.emit('outcome', { seq: r.seq, mutationId: r.id, name: row?.name ?? '', outcome: r.outcome });
    }
  }

  /** Pulls every page of the delta since the cursor; bootstraps first when there is no cursor. */
  async pull(): Promise<void> {
    if (!this.store.getMeta(M.cursor)) {
      await this.bootstrap();
    }
    for (;;) {
      const cursor = this.store.getMeta(M.cursor)!;
      const epoch = this.store.getMeta(M.epoch)!;
      const resumeText = this.store.getMeta(M.pullResume);
      let page: PullResult;
      try {
        page = await this.call<PullResult>('POST', '/sync/pull', {
          cursor,
          epoch,
          ackedThrough: outboxTable.outcomeKnownThrough(this.db, this.store),
          limit: this.options.pullPageSize ?? 1000,
          ...(resumeText ? { resume: JSON.parse(resumeText) as PullResume } : {}),
        });
      } catch (err) {
        if (
          err instanceof HttpError &&
          err.status === 409 &&
          (err.body as { error?: { code?: number } })?.error?.code === 2201
        ) {
          // The cursor cannot go on (epoch, pruned history, restored server): bootstrap again, keep the outbox.
          this.emit('reset', err.headers.get('sync-reset-reason'));
          outboxTable.forgetCursor(this.store);
          await this.bootstrap();
          continue;
        }
        throw err;
      }
      this.options.hook?.('duringPull');
      this.applyPullPage(page);
      if (!page.hasMore) break;
    }
  }

  /**
   * One page in one transaction: put back the server's version of locally touched keys, apply the
   * patch, record outcomes, confirm mutations the server applied as of the page's snapshot, re-apply
   * the rest, store where the pull stands.
   */
  private applyPullPage(page: PullResult): void {
    const tables = new Set(page.patch.map((p) => p.table));
    this.db.transaction(() => {
      this.store.restoreShadow();
      this.store.applyPatch(page.patch);
      const mark = this.db.prepare(
        `update outbox set status = 'acked', outcome = ?, acked_at = ? where seq = ? and mutation_id = ?`,
      );
      for (const o of page.outcomes)
        mark.run(JSON.stringify(o.outcome), new Date(this.clock()).toISOString(), o.seq, o.id);
      this.store.setMeta(
        M.ackedThrough,
        Math.max(Number(this.store.getMeta(M.ackedThrough) ?? 0), page.lastMutationSeq),
      );
      // Mutations count as confirmed only with the last page: their effects may sit in any page of
      // the delta, and "all changes synced" must not show while the cache lacks them. The cursor, the
      // confirmation and the last-sync time move together, in this one transaction, so the status
      // bar never says "synced" with the previous sync's time (the desktop-offline e2e's flake).
      if (!page.hasMore) {
        const confirmed = Math.max(Number(this.store.getMeta(M.confirmedSeq) ?? 0), page.lastMutationSeq);
        this.store.setMeta(M.confirmedSeq, confirmed);
      }
      this.reapplyPending();
      if (page.hasMore) this.store.setMeta(M.pullResume, JSON.stringify(page.resume));
      else {
        this.store.setMeta(M.pullResume, null);
        this.store.setMeta(M.cursor, page.cursor);
        this.store.setMeta(M.epoch, page.epoch);
        this.store.setMeta(M.lastSyncAt, new Date(this.serverNow()).toISOString());
      }
    })();
    for (const o of page.outcomes)
      this.emit('outcome', { seq: o.seq, mutationId: o.id, name: '', outcome: o.outcome });
    if (tables.size > 0) this.emit('changed', [...tables]);
  }

  private reapplyPending(): void {
    for (const row of this.confirmedPending()) this.store.applyEffects(JSON.parse(row.effects) as EffectOp[]);
  }

  /** Bootstrap (see ./bootstrap.ts): page every table into staging, swap it in, re-apply pending effects. */
  bootstrap(): Promise<void> {
    return runBootstrap({
      db: this.db,
      store: this.store,
      options: this.options,
      call: (method, path, body, raw) => this.call(method, path, body, raw),
      reapplyPending: () => this.reapplyPending(),
      changed: (tables) => this.emit('changed', tables),
    });
  }

  /** One round: push what is queued, then pull. Errors end up in status().lastError. */
  syncOnce(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        if (this.blocked) {
          this.setStatus({ lastError: this.blocked });
          return;
        }
        await this.push();
        if (this.blocked) return;
        await this.pull();
        this.failures = 0;
        this.setStatus({ online: true, lastError: null });
      } catch (err) {
        this.failures += 1;
        this.setStatus({ lastError: this.classify(err) });
        throw err;
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  private classify(err: unknown): SyncErrorCode {
    if (!(err instanceof HttpError)) return 'offline';
    if (err.status === 401) {
      this.blocked = this.blocked ?? 'deviceRevoked';
      return this.blocked;
    }
    if (err.status === 426) {
      this.blocked = 'upgradeRequired';
      return 'upgradeRequired';
    }
    if (err.status === 409 && this.blocked === 'seqGap') return 'seqGap';
    return 'serverError';
  }

  /** Backoff after failures: 1 s doubling to 60 s, with jitter. */
  backoffMs(): number {
    if (this.failures === 0) return this.options.pollMs ?? 30_000;
    const base = Math.min(60_000, 1000 * 2 ** (this.failures - 1));
    return Math.round(base / 2 + (Math.random() * base) / 2);
  }

  /** Starts the background loop: sync, then wait for a poke (SSE), a local mutation or the poll timer. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          await this.syncOnce();
        } catch {
          // status() carries the error; the loop backs off.
        }
        if (!this.running) break;
        if (!this.events && this.online) this.listen();
        if (this.kicked) {
          this.kicked = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.backoffMs());
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.events?.abort();
    this.events = null;
    this.wake?.();
    await this.loop;
    await this.syncing?.catch(() => {});
  }

  /**
   * Wakes the loop (after a local mutation or a poke). A kick during a sync is kept, not lost: that
   * sync's pull may have read its snapshot before the change the poke announces.
   */
  kick(reason: 'change' | 'reachable' = 'change'): void {
    // The cloud answers again (the station's probe heard it): the backoff earned while it was away
    // (up to a minute) no longer applies. Without this, one failed first attempt on its return left
    // the desk waiting 30–60 s with "Last sync" stuck, although the cloud was back.
    if (reason === 'reachable') this.failures = 0;
    if (this.wake) this.wake();
    else this.kicked = true;
  }

  /** Opens the cloud's SSE stream (./poke-stream.ts): each poke or hello kicks the loop. */
  private listen(): void {
    const base = this.store.getMeta(M.cloudUrl);
    const token = this.store.getMeta(M.token);
    if (!base || !token) return;
    const controller = new AbortController();
    this.events = controller;
    readPokeStream(this.fetchFn, `${base}/sync/events`, token, controller, {
      poke: () => this.kick(),
      ended: (live) => {
        if (this.events === controller) this.events = null;
        // A live stream that ended (the cloud restarted, a proxy cut it): go round now, which pulls
        // what the gap may have missed and opens the stream again, instead of staying deaf until
        // the poll timer. Not after a stream that never said hello (no loop against a refusing cloud).
        if (live && this.running && !controller.signal.aborted) this.kick();
      },
    });
  }
}
