import type { Knex } from 'knex';

/**
 * The booking rush (issue 27): `lock_then_run(lock_sql, lock_args, expected, run_sql, run_args)` runs
 * two statements in one round trip. The first (`lock_sql`, given `lock_args` as `$1`) takes a row lock
 * and answers a text; when it equals `expected`, the second (`run_sql`, given `run_args` as `$1`)
 * runs and its jsonb is the answer, else `{"changed": true}`. Without `lock_sql`, only the second
 * runs.
 *
 * Why a function: in READ COMMITTED one statement sees one snapshot, taken before it waited for the
 * lock, so a statement that locked a class and counted its places would miss the bookings committed
 * by the transaction it waited for. A VOLATILE function's next statement takes a new snapshot, so it
 * counts them; the class's lock is then held for one round trip and the commit
 * (`bookings/book.service.ts`, `placeVisit`). Both statements come from the service's code, not
 * from users.
 *
 * Each statement runs as a prepared statement of the connection, named after its text's md5
 * (`ltr_<md5>`, prepared by `ltr_prepared` on the connection's first call, then executed with its
 * cached plan): `EXECUTE` of a text never keeps a plan, and planning the two cost about 1.1 ms of
 * PostgreSQL's CPU per booking while the class's lock was held (pg_stat_statements with track = all
 * on `bench:booking`). The check asks the connection itself (`pg_prepared_statements`) every call,
 * so a transaction-mode pooler that hands the next transaction another server connection finds it
 * prepared there or prepares it again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function ltr_prepared(statement_sql text) returns text
    language plpgsql volatile as $fn$
    declare
      statement_name text := 'ltr_' || md5(statement_sql);
    begin
      if not exists (select 1 from pg_prepared_statements p where p.name = statement_name) then
        execute format('prepare %I(jsonb) as %s', statement_name, statement_sql);
      end if;
      return statement_name;
    end
    $fn$`);
  await knex.raw(`
    create or replace function lock_then_run(lock_sql text, lock_args jsonb, expected text, run_sql text, run_args jsonb)
    returns jsonb language plpgsql volatile as $fn$
    declare
      seen text;
      result jsonb;
    begin
      if lock_sql is not null then
        execute format('execute %I(%L)', ltr_prepared(lock_sql), lock_args) into seen;
        if seen is distinct from expected then
          return jsonb_build_object('changed', true);
        end if;
      end if;
      execute format('execute %I(%L)', ltr_prepared(run_sql), run_args) into result;
      return result;
    end
    $fn$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists lock_then_run(text, jsonb, text, text, jsonb)');
  await knex.raw('drop function if exists ltr_prepared(text)');
}
