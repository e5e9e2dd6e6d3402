import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { preparedName, preparesStatements, type Db, type Knex } from './knex';

/**
 * Hot statements compiled once (issue 27, the booking rush): knex builds a query's SQL text again on
 * every call — identifiers wrapped and snake_cased one by one, bindings numbered — which cost a
 * booking about a millisecond of Node's CPU over its five statements (`bench:booking`, counting
 * `toSQL`: 150–220 µs for each builder query). A compiled statement is built once with the same
 * builder code, its parameters standing in as markers, and then only its values are put in order and
 * sent through the driver on the caller's connection (its transaction's, or a pooled one), prepared
 * on PostgreSQL as `prepared()` statements are (db/knex.ts). Results come back as knex would answer
 * them: a builder's rows with camelCase keys (`first` answers one row), a raw statement's driver
 * result. knex's `query` / `query-response` / `query-error` events are sent as knex sends them, so
 * `Server-Timing` and the round-trip tests count these statements too.
 *
 * Only for statements whose text never varies with their values (no `whereIn` of a list, no optional
 * clause): the markers must each land in one binding. Building one that does not throws at its first
 * use.
 */

/** A parameter's stand-in while the statement is built: each lands in one binding. */
class Marker {
  constructor(readonly key: string) {}
}

// Builds SQL only: never connects.
const compiler = knexFactory({ client: 'pg', ...knexSnakeCaseMappers() } as Knex.Config);
const mapKeys = knexSnakeCaseMappers().postProcessResponse as (row: unknown) => Record<string, unknown>;

interface Compiled {
  text: string;
  name: string;
  /** Each binding's parameter name, or its fixed value (a constant the builder bound). */
  order: Array<Marker | { value: unknown }>;
  method: 'first' | 'select' | 'raw';
}

interface Connection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<{
    rows: Array<Record<string, unknown>>;
  }>;
}

interface DriverClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
  emit(event: string, ...args: unknown[]): boolean;
}

export interface CompiledStatement<P> {
  /** A builder statement's rows (camelCase keys). */
  rows<Row>(db: Db, params: P): Promise<Row[]>;
  /** A builder statement's first row, or undefined. */
  first<Row>(db: Db, params: P): Promise<Row | undefined>;
  /** A raw statement's driver result. */
  raw<Row>(db: Db, params: P): Promise<{ rows: Row[] }>;
  /** The statement's SQL text, with `$n` bindings (for a driver loop running the same statement). */
  readonly text: string;
  /** Its bindings' values for `params`, in order (with `text`). */
  values(params: P): unknown[];
}

/**
 * A statement built once by `build` (on a build-only knex, with `p`'s fields as markers) and run with
 * `params` put in its bindings' places.
 */
export function compiled<P extends Record<string, unknown>>(
  build: (db: Knex, p: P) => Knex.QueryBuilder | Knex.Raw,
): CompiledStatement<P> {
  let memo: Compiled | undefined;
  const compile = (): Compiled => {
    if (memo) return memo;
    const markers = new Proxy({} as Record<string, Marker>, {
      get: (target, key: string) => (target[key] ??= new Marker(key)),
    });
    const query = build(compiler, markers as unknown as P);
    const sql = query.toSQL() as unknown as {
      method: string;
      toNative(): { sql: string; bindings: unknown[] };
    };
    const method =
      sql.method === 'first' || sql.method === 'select' || sql.method === 'raw' ? sql.method : null;
    if (!method) throw new Error(`compiled: ${sql.method} statements are not supported`);
    const native = sql.toNative();
    const order = native.bindings.map((b) => (b instanceof Marker ? b : { value: b }));
    const used = new Set(order.filter((b): b is Marker => b instanceof Marker).map((b) => b.key));
    const unused = Object.keys(markers).filter((k) => !used.has(k));
    if (unused.length > 0) throw new Error(`compiled: parameters not bound: ${unused.join(', ')}`);
    memo = { text: native.sql, name: preparedName(native.sql), order, method };
    return memo;
  };

  const valuesOf = (c: Compiled, params: P) =>
    c.order.map((b) => (b instanceof Marker ? params[b.key] : b.value));

  async function run(db: Db, params: P) {
    const c = compile();
    const values = valuesOf(c, params);
    const client = db.client as unknown as DriverClient;
    // knex's events, as its runner sends them (Server-Timing, tests counting statements).
    const event = { __knexQueryUid: randomUUID(), sql: c.text, bindings: values, method: c.method };
    client.emit('query', event);
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query(
        preparesStatements(db) ? { text: c.text, values, name: c.name } : { text: c.text, values },
      );
      client.emit('query-response', result, event);
      return { compiled: c, result };
    } catch (err) {
      client.emit('query-error', err, event);
      throw err;
    } finally {
      await client.releaseConnection(connection);
    }
  }

  return {
    get text() {
      return compile().text;
    },
    values: (params) => valuesOf(compile(), params),
    async rows<Row>(db: Db, params: P) {
      const { result } = await run(db, params);
      return result.rows.map((r) => mapKeys(r)) as Row[];
    },
    async first<Row>(db: Db, params: P) {
      const { result } = await run(db, params);
      const row = result.rows[0];
      return (row === undefined ? undefined : mapKeys(row)) as Row | undefined;
    },
    async raw<Row>(db: Db, params: P) {
      const { result } = await run(db, params);
      return result as unknown as { rows: Row[] };
    },
  };
}
