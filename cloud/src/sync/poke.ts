import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../logger';

/**
 * Pokes stations when their studio's data changed, for the SSE stream (`GET /sync/events`). The
 * changefeed triggers `pg_notify('sync_poke', studio_id)`; on PostgreSQL one dedicated connection
 * LISTENs. The embedded PGlite is a single connection (the app's pool holds it), so there — or when
 * LISTEN fails — the hub polls the changefeed with the same snapshot test the pull uses: exact, and
 * one indexed query a second. Stations also poll on their own, so a lost poke costs only latency.
 * The hub runs only while someone listens.
 *
 * `ready()` resolves once a subscription is live (LISTEN acknowledged, or the polling baseline
 * snapshot taken): a change committed after it is poked. The SSE route says `hello` only then, and
 * the station pulls on `hello`, so nothing falls between its last pull and the first poke. (Taking
 * the baseline at the first tick instead, a second later, lost a change committed in between: the
 * station then waited for its 30 s poll — the desktop-offline e2e's "last sync" that never moved.)
 */
export class PokeHub {
  private readonly events = new EventEmitter();
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private snapshot: string | null = null;
  private subscribers = 0;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly log: Logger,
    private readonly options: {
      listen: boolean;
      pollMs?: number;
      /** Where to LISTEN: a direct connection when the pool sits behind a transaction-mode pooler. */
      listenUrl?: string;
    },
  ) {
    this.events.setMaxListeners(0);
  }

  subscribe(studioId: string, onPoke: () => void): () => void {
    this.events.on(studioId, onPoke);
    this.subscribers += 1;
    if (this.subscribers === 1) this.starting = this.start();
    let active = true;
    // Idempotent: the SSE route calls it on both the request's and the response's close; counting
    // twice took the hub below zero and stopped it under a station still listening.
    return () => {
      if (!active) return;
      active = false;
      this.events.off(studioId, onPoke);
      this.subscribers -= 1;
      if (this.subscribers === 0) void this.stop();
    };
  }

  /** Resolves when the subscriptions made so far are live (see the class comment). */
  ready(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  /** Pokes the devices of a studio from this process (after a push commits, say). */
  poke(studioId: string): void {
    this.events.emit(studioId);
  }

  private async start(): Promise<void> {
    if (this.options.listen) {
      try {
        const conn =
          this.options.listenUrl ??
          (this.knex.client as { config: { connection: { connectionString: string } } }).config.connection
            .connectionString;
        const client = new pg.Client({ connectionString: conn });
        await client.connect();
        client.on('notification', (n) => n.payload && this.poke(n.payload));
        client.on('error', (err) => {
          this.log.warn({ err }, 'sync poke listener lost; polling');
          this.listener = null;
          void this.startPolling();
        });
        await client.query('listen sync_poke');
        if (this.subscribers === 0) await client.end();
        else this.listener = client;
        return;
      } catch (err) {
        this.log.warn({ err }, 'sync poke: LISTEN unavailable; polling');
      }
    }
    await this.startPolling();
  }

  /** Takes the baseline snapshot now (not at the first tick), then compares every pollMs. */
  private async startPolling(): Promise<void> {
    if (this.timer || this.subscribers === 0) return;
    this.timer = setInterval(() => void this.pollOnce(), this.options.pollMs ?? 1000);
    this.timer.unref();
    await this.pollOnce();
  }

  private async pollOnce(): Promise<void> {
    try {
      const now: { rows: Array<{ snap: string }> } = await this.knex.raw(
        'select pg_current_snapshot()::text as snap',
      );
      const next = now.rows[0]!.snap;
      if (this.snapshot) {
        const changed: { rows: Array<{ studio: string }> } = await this.knex.raw(
          `select distinct studio_id::text as studio from sync_change
            where xid >= pg_snapshot_xmin(?::pg_snapshot) and not pg_visible_in_snapshot(xid, ?::pg_snapshot)
              and pg_visible_in_snapshot(xid, ?::pg_snapshot)`,
          [this.snapshot, this.snapshot, next],
        );
        for (const row of changed.rows) this.poke(row.studio);
      }
      this.snapshot = next;
    } catch (err) {
      this.log.warn({ err }, 'sync poke poll failed');
    }
  }

  async stop(): Promise<void> {
    await this.starting;
    if (this.subscribers > 0) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.snapshot = null;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
  }
}

const hubs = new WeakMap<Knex, PokeHub>();

/** `listenUrl`: DATABASE_DIRECT_URL (LISTEN does not survive a transaction-mode pooler). */
export function pokeHubFor(knex: Knex, log: Logger, listenUrl?: string): PokeHub {
  let hub = hubs.get(knex);
  if (!hub) {
    const pool = (knex.client as { config: { pool?: { max?: number } } }).config.pool;
    hub = new PokeHub(knex, log, { listen: (pool?.max ?? 10) > 1, listenUrl });
    hubs.set(knex, hub);
  }
  return hub;
}
