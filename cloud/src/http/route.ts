import type Router from '@koa/router';
import type { Db } from '../db/knex';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { Ability } from '../../../shared/policies/abilities';
import { assertAbility } from './abilities';
import type { Membership, Session, Studio, User } from '../modules/identity/index';
import type { AppContext, AppState, AppCustom, Deps, RouteContext } from './context';
import { loadStudioScope } from './studio-scope';
import { transactionWithRetry } from '../db/transaction';
import type { Access } from '../../../shared/contracts/http/define';

export type { Access } from '../../../shared/contracts/http/define';

type Auth<A extends Access> = A extends 'public'
  ? { user: User; session: Session } | null
  : { user: User; session: Session };
type Scope<A extends Access> = A extends 'studio' | 'staff' | 'client'
  ? { studio: Studio; membership: Membership }
  : object;

export type HandlerInput<A extends Access, B, Q, P> = {
  body: B;
  query: Q;
  params: P;
  ctx: AppContext;
  deps: Deps;
  /** The request's transaction for mutations, the plain connection for reads. Pass it to every query. */
  db: Db;
  auth: Auth<A>;
} & Scope<A>;

/**
 * A route: its contract (method, path, access, schemas — written once in `shared/contracts/http` and
 * spread in: `defineRoute(router, { ...ScheduleApi.init, handle })`) and its implementation.
 */
/**
 * An answer that is already JSON text (PostgreSQL presented it: the week's timetable): sent as it
 * is, not parsed and serialised again (for 500 classes, ~410 KB: about 4 ms of Node's CPU per call
 * went to `JSON.parse` and koa's `JSON.stringify`). `T` names the shape the text holds.
 */
export class JsonText<T = unknown> {
  declare readonly shape?: T;
  constructor(readonly text: string) {}
}

export interface RouteSpec<A extends Access, B, Q, P, R> {
  /** The contract entry's name (`schedule.init`); set by spreading an entry of `shared/contracts/http`. */
  name?: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  access: A;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** For staff routes: the ability the caller's role must hold (403 otherwise). */
  ability?: Ability;
  /** The success body's schema (the integration tests parse every 2xx answer with it). */
  response?: z.ZodType;
  /** What a success sends when it is not JSON described by `response`. */
  responseKind?: 'empty' | 'file' | 'redirect';
  /** For a `file` answer: its media type (the pipeline sets it after the handler). */
  contentType?: string;
  /** HTTP status of success; 204 sends no body. */
  status?: number;
  /** A POST that only reads: run on the plain connection, like a GET (see the contract's `readOnly`). */
  readOnly?: boolean;
  handle(input: HandlerInput<A, B, Q, P>): Promise<R>;
  /**
   * Shapes the answer after the transaction committed, reading through the plain connection (`db`
   * is `deps.knex` here): reads that only present the result then hold no row lock. The booking
   * path uses it so the class's lock is not held while the answer is read back; routes whose answer
   * depends on an outside call (the kiosk's door) or that tidy local files make it there. Side effects
   * that must not be lost (mail, receipts, webhooks) are not done here but enqueued in `handle`
   * (`jobs/README.md`). Default: `handle`'s result as it is.
   */
  present?(result: R, input: HandlerInput<A, B, Q, P>): Promise<unknown>;
}

const EmptyBody = z.strictObject({});

/**
 * Every route registered on a router, with its schemas, in registration order: the bad-input suite
 * walks this catalog, the integration tests' HTTP client validates answers with it.
 */
export const routeCatalog = new WeakMap<object, RouteSpec<Access, unknown, unknown, unknown, unknown>[]>();
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path parameters a params schema declares as uuids (`z.uuid()`, possibly optional), by name. A
 * value such a schema refuses is not an id at all, so it names nothing: the route answers 404 for it,
 * not 400. Other parameters keep their schema's 400.
 */
function uuidParamSchemas(schema: z.ZodType | undefined): Map<string, z.ZodType> {
  const found = new Map<string, z.ZodType>();
  if (!(schema instanceof z.ZodObject)) return found;
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType = field;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
      inner = inner.unwrap() as z.ZodType;
    if (inner instanceof z.ZodUUID) found.set(name, inner);
  }
  return found;
}

/**
 * Registers a route with the pipeline every handler shares: validate (zod) → load + authorize
 * (session, studio scope) → service (in one transaction when it changes state) → present.
 */
export function defineRoute<
  A extends Access,
  B = unknown,
  Q = unknown,
  P = Record<string, string>,
  R = unknown,
>(router: Router<AppState, AppCustom>, spec: RouteSpec<A, B, Q, P, R>): void {
  const catalog = routeCatalog.get(router) ?? [];
  catalog.push(spec as unknown as RouteSpec<Access, unknown, unknown, unknown, unknown>);
  routeCatalog.set(router, catalog);
  const idParams = uuidParamSchemas(spec.params);
  router[spec.method](spec.path, async (ctx: RouteContext) => {
    // Validate everything first, and report every invalid field at once.
    const rawBody = (ctx.request as { body?: unknown }).body;
    const bodySchema = (spec.body ?? EmptyBody) as z.ZodType<B>;
    const bodyInput = rawBody === undefined || rawBody === null || rawBody === '' ? {} : rawBody;
    const params = ctx.params as Record<string, string>;
    for (const [name, value] of Object.entries(params)) {
      // Ids in the path that are not ids name nothing: 404, like an unknown id. That holds for the
      // conventional names and for any parameter the route's schema declares a uuid (`user`, `studioIamRole`).
      if ((name === 'uuid' || name.endsWith('Guid') || name === 'id') && !UUID_RE.test(value))
        throw AppError.notFound();
      const idSchema = idParams.get(name);
      if (idSchema && !idSchema.safeParse(value).success) throw AppError.notFound();
    }
    const parsed = await Promise.all([
      bodySchema.safeParseAsync(bodyInput),
      (spec.query ?? z.any()).safeParseAsync(ctx.query),
      (spec.params ?? z.any()).safeParseAsync(params),
    ]);
    const issues = parsed.flatMap((p, i) =>
      p.success
        ? []
        : p.error.issues.map((issue) =>
            i === 0 ? issue : { ...issue, path: [i === 1 ? 'query' : 'params', ...issue.path] },
          ),
    );
    if (issues.length > 0) throw new z.ZodError(issues);
    const [body, query, typedParams] = parsed.map((p) => p.data) as [B, Q, P];

    if (spec.access !== 'public' && !ctx.state.auth)
      throw new AppError('auth.required', { message: 'sign in required' });

    const deps = ctx.deps;
    let input: HandlerInput<A, B, Q, P> | undefined;
    const run = async (db: Db): Promise<R> => {
      const scope =
        spec.access === 'studio' || spec.access === 'staff' || spec.access === 'client'
          ? await loadStudioScope(ctx, db, params.uuid, spec.access)
          : {};
      if (spec.ability)
        await assertAbility(db, (scope as { membership?: Membership }).membership, spec.ability);
      input = {
        body,
        query,
        params: typedParams,
        ctx,
        deps,
        db,
        auth: ctx.state.auth as Auth<A>,
        ...scope,
      } as HandlerInput<A, B, Q, P>;
      return spec.handle(input);
    };

    // A mutation that loses a race to a deadlock or a serialization failure runs again from the start
    // (jobs it enqueued rolled back with it): never a 500 for a lost race.
    const handled =
      spec.method === 'get' || spec.readOnly
        ? await run(deps.knex)
        : await transactionWithRetry(deps.knex, (trx) => run(trx), {
            onRetry: (err, attempt) => ctx.state.log.warn({ err, attempt }, 'transaction retried'),
          });
    const result = spec.present ? await spec.present(handled, { ...input!, db: deps.knex }) : handled;

    ctx.status = spec.status ?? 200;
    if (spec.contentType) ctx.type = spec.contentType;
    if (result instanceof JsonText) {
      ctx.type = 'application/json';
      ctx.body = result.text;
    } else if (ctx.status !== 204) ctx.body = result ?? {};
  });
}
