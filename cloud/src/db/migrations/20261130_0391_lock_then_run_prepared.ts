import type { Knex } from 'knex';

/**
 * `lock_then_run` (migration 0390) planned its two statements on every call: `EXECUTE` of a text
 * never keeps a plan, so each booking spent about 1.1 ms of PostgreSQL's CPU planning them while it
 * held the class's lock (pg_stat_statements with track = all on `bench:booking`: 0.32 ms for the
 * lock statement, 0.78 ms for the placing one, against 0.7 and 2.2 ms of execution).
 *
 * Now each statement is a prepared statement of the connection, named after its text's md5
 * (`ltr_<md5>`): prepared on the connection's first call, then executed with its cached plan. The
 * check asks the connection itself (`pg_prepared_statements`) every call, so a transaction-mode
 * pooler that hands the next transaction another server connection finds it prepared there or
 * prepares it again; nothing is assumed about which connection a call lands on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function lock_then_run(lock_sql text, lock_args jsonb, expected text, run_sql text, run_args jsonb)
    returns jsonb language plpgsql volatile as $fn$
    declare
      seen text;
      result jsonb;
      statement_name text;
    begin
      if lock_sql is not null then
        statement_name := 'ltr_' || md5(lock_sql);
        if not exists (select 1 from pg_prepared_statements p where p.name = statement_name) then
          execute format('prepare %I(jsonb) as %s', statement_name, lock_sql);
        end if;
        execute format('execute %I(%L)', statement_name, lock_args) into seen;
        if seen is distinct from expected then
          return jsonb_build_object('changed', true);
        end if;
      end if;
      statement_name := 'ltr_' || md5(run_sql);
      if not exists (select 1 from pg_prepared_statements p where p.name = statement_name) then
        execute format('prepare %I(jsonb) as %s', statement_name, run_sql);
      end if;
      execute format('execute %I(%L)', statement_name, run_args) into result;
      return result;
    end
    $fn$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function lock_then_run(lock_sql text, lock_args jsonb, expected text, run_sql text, run_args jsonb)
    returns jsonb language plpgsql volatile as $fn$
    declare
      seen text;
      result jsonb;
    begin
      if lock_sql is not null then
        execute lock_sql using lock_args into seen;
        if seen is distinct from expected then
          return jsonb_build_object('changed', true);
        end if;
      end if;
      execute run_sql using run_args into result;
      return result;
    end
    $fn$`);
}
