import type { Knex } from 'knex';
import type Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import {
  BootstrapPageQuerySchema,
  PullInputSchema,
  PushInputSchema,
  RegisterDeviceInputSchema,
  isSyncedTable,
  type BootstrapStartResult,
  type DeviceView,
} from '../../../shared/contracts/sync';
import { REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '../../../shared/contracts/page-context';
import { AppError } from '../../../shared/errors';
import type { AppContext, AppCustom, AppState } from '../http/context';
import { findStudio } from '../modules/identity/index';
import { bootstrapPageLines } from './bootstrap.service';
import {
  cursorProblem,
  deviceLastSeq,
  patchJson,
  readDeltaPage,
  readMeta,
  readRows,
  resetError,
} from './changefeed';
import { authenticateDevice, registerDevice, revokeDevice, type SyncDevice } from './devices.service';
import { pokeHubFor } from './poke';
import { pushMutations } from './push.service';
import { presentTables } from './tables';

type Auth = 'device' | 'session' | 'deviceOrSession';
type Input<B, Q, P> = {
  ctx: AppContext;
  knex: Knex;
  now: Date;
  body: B;
  query: Q;
  params: P;
  device: SyncDevice | null;
  userId: string | null;
};

const DeviceIdParams = z.object({ deviceId: z.uuid() });

/**
 * The /sync routes. Not under /api: stations authenticate with `Authorization: Bearer <device
 * token>`, scoped to the token's studio (no studio in the path, so nothing to guess). Only
 * registration (and revocation by staff) use a staff session, with the XMLHttpRequest marker so a
 * cross-site form cannot post it. Every input is validated (400 with every field), errors use the one
 * envelope.
 */
export function registerSyncRoutes(app: Koa<AppState, AppCustom>): void {
  const router = new Router<AppState, AppCustom>({ prefix: '/sync' });
  const route = <B = unknown, Q = unknown, P = unknown>(
    method: 'get' | 'post' | 'delete',
    path: string,
    spec: {
      auth: Auth;
      body?: z.ZodType<B>;
      query?: z.ZodType<Q>;
      params?: z.ZodType<P>;
      status?: number;
      handle(input: Input<B, Q, P>): Promise<unknown>;
    },
  ) => {
    router[method](path, async (ctx) => {
      if (method !== 'get' && ctx.request.length && !ctx.is('json'))
        throw new AppError('request.unsupportedMediaType', { message: 'send application/json' });
      const rawBody = (ctx.request as { body?: unknown }).body;
      const parsed = await Promise.all([
        (spec.body ?? z.strictObject({})).safeParseAsync(
          rawBody === undefined || rawBody === '' ? {} : rawBody,
        ),
        (spec.query ?? z.any()).safeParseAsync(ctx.query),
        (spec.params ?? z.any()).safeParseAsync(ctx.params),
      ]);
      // An id in the path that is not an id names nothing.
      if (!parsed[2].success) throw AppError.notFound();
      const issues = parsed.flatMap((p, i) =>
        p.success
          ? []
          : p.error.issues.map((issue) => (i === 1 ? { ...issue, path: ['query', ...issue.path] } : issue)),
      );
      if (issues.length > 0) throw new z.ZodError(issues);

      const { knex, clock } = ctx.deps;
      const now = clock.now();
      let device: SyncDevice | null = null;
      let userId: string | null = null;
      const bearer = ctx.get('authorization');
      if (spec.auth === 'device' || (spec.auth === 'deviceOrSession' && bearer)) {
        device = await authenticateDevice(knex, bearer, now);
      } else {
        if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
        if (method !== 'get' && ctx.get(REQUESTED_WITH_HEADER) !== REQUESTED_WITH_VALUE)
          throw new AppError('auth.csrf', { message: 'missing X-Requested-With' });
        userId = ctx.state.auth.user.id;
      }
      const result = await spec.handle({
        ctx,
        knex,
        now,
        body: parsed[0].data as B,
        query: parsed[1].data as Q,
        params: parsed[2].data as P,
        device,
        userId,
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.status = spec.status ?? 200;
      if (ctx.status === 204) return;
      if (typeof result === 'string') {
        if (!ctx.type) ctx.type = 'application/json';
        ctx.body = result;
      } else ctx.body = result;
    });
  };

  route('post', '/devices', {
    auth: 'session',
    body: RegisterDeviceInputSchema,
    status: 201,
    handle: ({ knex, body, userId, now }) =>
      knex.transaction((trx) => registerDevice(trx, userId!, body, now)),
  });

  route('get', '/devices/me', {
    auth: 'device',
    handle: async ({ knex, device, now }): Promise<DeviceView> => {
      const d = device!;
      return {
        deviceId: d.id,
        studioId: d.studioId,
        name: d.name,
        scope: d.scope,
        lastMutationSeq: await deviceLastSeq(knex, d.id),
        registeredAt: d.createdAt.toISOString(),
        lastSeenAt: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
        serverTime: now.toISOString(),
      };
    },
  });

  route('delete', '/devices/:deviceId', {
    auth: 'deviceOrSession',
    params: DeviceIdParams,
    status: 204,
    handle: ({ knex, params, device, userId, now }) =>
      knex.transaction((trx) =>
        revokeDevice(trx, params.deviceId, device ? { device } : { userId: userId! }, now),
      ),
  });

  route('post', '/bootstrap', {
    auth: 'device',
    handle: ({ knex, device, now }) =>
      knex.transaction(
        async (trx): Promise<BootstrapStartResult> => {
          const d = device!;
          const snap: { rows: Array<{ snap: string }> } = await trx.raw(
            'select pg_current_snapshot()::text as snap',
          );
          const meta = await readMeta(trx);
          const present = await presentTables(trx);
          const studio = await findStudio(trx, d.studioId);
          if (!studio) throw AppError.notFound('studio');
          return {
            cursor: snap.rows[0]!.snap,
            epoch: meta.epoch,
            tables: d.scope.tables.filter((t) => isSyncedTable(t) && present.has(t)),
            lastMutationSeq: await deviceLastSeq(trx, d.id),
            serverTime: now.toISOString(),
            studio: {
              id: studio.id,
              name: studio.name,
              timeZone: studio.timeZone,
              currency: studio.currency,
            },
          };
        },
        { isolationLevel: 'repeatable read', readOnly: true },
      ),
  });

  route('get', '/bootstrap/page', {
    auth: 'device',
    query: BootstrapPageQuerySchema.extend({
      // `lines`: the station's fast path (see bootstrapPageLines); `json`: the contract's object.
      format: z.enum(['json', 'lines']).default('json'),
    }),
    handle: async ({ ctx, knex, device, query }) => {
      const d = device!;
      const present = await presentTables(knex);
      const table = query.table;
      if (!isSyncedTable(table) || !present.has(table) || !d.scope.tables.includes(table))
        throw AppError.invalid({ 'query.table': ['not a table this station receives'] });
      if (query.after !== undefined && !z.uuid().safeParse(query.after).success)
        throw AppError.invalid({ 'query.after': ['invalid id'] });
      if (query.format === 'lines') {
        const page = await bootstrapPageLines(knex, table, d.studioId, d.scope, {
          after: query.after ?? null,
          limit: query.limit,
        });
        ctx.set('sync-next', page.next ?? '');
        ctx.set('sync-count', String(page.count));
        ctx.type = 'text/plain';
        return page.body;
      }
      const rows = await readRows(knex, table, d.studioId, d.scope, {
        after: query.after ?? null,
        limit: query.limit,
      });
      const last = rows.length === query.limit ? rows[rows.length - 1]!.id : null;
      return `{"table":${JSON.stringify(table)},"rows":[${rows
        .map((r) => `{"id":"${r.id}","row":${r.json}}`)
        .join(',')}],"next":${last ? `"${last}"` : 'null'}}`;
    },
  });

  route('post', '/pull', {
    auth: 'device',
    body: PullInputSchema,
    handle: async ({ knex, device, body, now }) => {
      const d = device!;
      return knex.transaction(
        async (trx) => {
          const meta = await readMeta(trx);
          const problem = await cursorProblem(trx, body.cursor, body.epoch, meta);
          if (problem) throw resetError(problem);
          if (body.resume) {
            const pinProblem = await cursorProblem(trx, body.resume.pin, body.epoch, meta);
            if (pinProblem) throw resetError(pinProblem);
          }
          const page = await readDeltaPage(trx, {
            studioId: d.studioId,
            deviceId: d.id,
            scope: d.scope,
            cursor: body.cursor,
            resume: body.resume ?? null,
            limit: body.limit,
          });
          const outcomes: Array<{ id: string; seq: number; outcome: unknown }> = await trx('sync_mutations')
            .where({ deviceId: d.id })
            .where('seq', '>', body.ackedThrough)
            .where('seq', '<=', page.lastMutationSeq)
            .orderBy('seq')
            .limit(1000)
            .select('id', 'seq', 'outcome');
          return `{"patch":${patchJson(page.patch)},"lastMutationSeq":${page.lastMutationSeq},"outcomes":${JSON.stringify(
            outcomes.map((o) => ({ id: o.id, seq: Number(o.seq), outcome: o.outcome })),
          )},"cursor":${JSON.stringify(page.hasMore ? body.cursor : page.pin)},"epoch":${JSON.stringify(
            meta.epoch,
          )},"serverTime":"${now.toISOString()}","hasMore":${page.hasMore},"resume":${JSON.stringify(page.resume)}}`;
        },
        { isolationLevel: 'repeatable read', readOnly: true },
      );
    },
  });

  route('post', '/push', {
    auth: 'device',
    body: PushInputSchema,
    handle: ({ ctx, knex, device, body, now }) => {
      const d = device!;
      if (body.deviceTime) {
        const skew = Date.parse(body.deviceTime) - now.getTime();
        if (Math.abs(skew) > 60_000)
          ctx.state.log.info({ deviceId: d.id, skewMs: skew }, 'station clock skew');
      }
      return pushMutations(knex, d, body, now);
    },
  });

  // Server-sent events: `event: poke` when the studio's data changed; a comment every 25 s keeps
  // proxies from closing the stream. Stations pull on a poke and also every minute without one.
  router.get('/events', async (ctx) => {
    const { knex, clock, log, config } = ctx.deps;
    const device = await authenticateDevice(knex, ctx.get('authorization'), clock.now());
    const hub = pokeHubFor(knex, log, config.DATABASE_DIRECT_URL);
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setKeepAlive(true);
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const unsubscribe = hub.subscribe(device.studioId, () => {
      res.write(`event: poke\ndata: {"serverTime":"${clock.now().toISOString()}"}\n\n`);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
    const closed = new Promise<void>((resolve) => {
      const done = () => {
        clearInterval(keepAlive);
        unsubscribe();
        resolve();
      };
      ctx.req.once('close', done);
      res.once('close', done);
    });
    // `hello` only once the subscription is live: the station pulls on it, so a change committed
    // between its last pull and the subscription is not missed (poke.ts).
    await hub.ready();
    if (!res.writableEnded && !res.destroyed)
      res.write(`retry: 5000\nevent: hello\ndata: {"serverTime":"${clock.now().toISOString()}"}\n\n`);
    await closed;
  });

  // Only /sync paths come here; anything else under /sync is the JSON 404 (not the web apps' page).
  const routes = router.routes();
  const allowed = router.allowedMethods({ throw: true });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/sync' && !ctx.path.startsWith('/sync/')) return next();
    await routes(ctx as never, async () => {});
    await allowed(ctx as never, async () => {});
    if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false)
      throw AppError.notFound('route');
  });
}
