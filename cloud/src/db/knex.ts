import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import pg from 'pg';

// bigint counts (count(*)) come back as strings by default; ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type { Knex };

interface CompiledQuery {
  sql: string;
  options?: Record<string, unknown>;
}
type PgClientClass = new (config: Knex.Config) => {
  _query(connection: unknown, obj: CompiledQuery): unknown;
};
const require = createRequire(import.meta.url);
const PgClient = require('knex/lib/dialects/postgres/index.js') as PgClientClass;

const names = new Map<string, string>();
/**
 * The name of a prepared statement: its text's md5, so one name never stands for two texts. Only
 * fixed texts are prepared, so the memo stays as small as the set of hot statements (bounded anyway).
 */
export function preparedName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `p_${createHash('md5').update(sql).digest('hex')}`;
    if (names.size >= 1000) names.clear();
    names.set(sql, name);
  }
  return name;
}

/** Takes the `prepared` mark off a compiled query; names the statement when `name` is true. */
function applyPrepareMark(obj: CompiledQuery, name: boolean): void {
  if (!obj.options?.prepare) return;
  const { prepare: _prepare, ...rest } = obj.options;
  obj.options = name ? { ...rest, name: preparedName(obj.sql) } : rest;
}

/**
 * knex's PostgreSQL client, where a query marked `prepared` (below) is sent as a named statement:
 * pg parses it once per connection and PostgreSQL keeps its plan, instead of planning it on every
 * call. The booking's statements spent more of PostgreSQL's CPU planning than running (1.3 ms to
 * plan its facts, 0.4 ms to run them: pg_stat_statements on `bench:booking`).
 */
class PreparingPgClient extends PgClient {
  override _query(connection: unknown, obj: CompiledQuery) {
    applyPrepareMark(obj, true);
    return super._query(connection, obj);
  }
}

/** knex's PostgreSQL client ignoring `prepared` marks: the embedded PGlite (see `createKnex`). */
class UnpreparedPgClient extends PgClient {
  override _query(connection: unknown, obj: CompiledQuery) {
    applyPrepareMark(obj, false);
    return super._query(connection, obj);
  }
}

/**
 * Marks a hot statement whose text never varies (no `whereIn` of a varying list) to run as a prepared
 * statement on PostgreSQL. Named statements live in a server session: behind a transaction-mode
 * pooler they need PgBouncer 1.21+ with `max_prepared_statements` set, or `DATABASE_PREPARED_STATEMENTS=false`
 * (cloud README, "Connections").
 */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  return query.options({ prepare: true }) as Q;
}

/** Whether this connection's statements marked `prepared` are prepared (for raw driver calls). */
export function preparesStatements(db: Knex | Knex.Transaction): boolean {
  // A transaction's client is made from the client's prototype (knex's makeTxClient), so the class
  // tells, not a property of the instance.
  return db.client instanceof PreparingPgClient;
}

export function createKnex(
  connectionString: string,
  options: { singleConnection?: boolean; poolMax?: number; preparedStatements?: boolean } = {},
): Knex {
  // PGlite (one connection, a session that outlives pg's clients of it) never prepares: a new pg
  // client would try to prepare a name its session already holds.
  const prepares = !options.singleConnection && options.preparedStatements !== false;
  return knexFactory({
    client: prepares ? PreparingPgClient : UnpreparedPgClient,
    connection: { connectionString },
    // PGlite is one connection: a larger pool would interleave transactions on it.
    pool: options.singleConnection ? { min: 1, max: 1 } : { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 30_000,
    // camelCase in code, snake_case in the database, for identifiers in every query and result.
    ...knexSnakeCaseMappers(),
  } as unknown as Knex.Config);
}

/** A plain connection or a transaction: services take either and pass it to every query. */
export type Db = Knex | Knex.Transaction;
