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
 */
export async function up(knex: Knex): Promise<void> {
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

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists lock_then_run(text, jsonb, text, text, jsonb)');
}
