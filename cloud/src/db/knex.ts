import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import pg from 'pg';

// bigint counts (count(*)) come back as strings by default; ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type { Knex };

export function createKnex(
  connectionString: string,
  options: { singleConnection?: boolean; poolMax?: number } = {},
): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString },
    // PGlite is one connection: a larger pool would interleave transactions on it.
    pool: options.singleConnection ? { min: 1, max: 1 } : { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 30_000,
    // camelCase in code, snake_case in the database, for identifiers in every query and result.
    ...knexSnakeCaseMappers(),
  });
}

/** A plain connection or a transaction: services take either and pass it to every query. */
export type Db = Knex | Knex.Transaction;
