import { describe, expect, it } from 'vitest';
import { passCandidatesFor } from '../catalog';
import { BOOKING_FACTS } from './book.service';
import { countsOf } from './booking-facts.service';
import { NOW, START, useBookingsApp } from './bookings-app.test-support';
import { bookingStudio } from './bookings-fixtures';

/**
 * Costs that follow the client, not the studio (issue 27): the statements a booking runs read the
 * same number of pages for a client whatever else the studio holds. Each used to read something of
 * the whole studio: every pass (an OR with a share's EXISTS ruled out the index), every visit of the
 * studio intersected with each pass's (the pass's visits by studio and pass), every share of every
 * studio (the shared passes' lock), and the whole (studio_id, schedule_event_id, status) index
 * (places counted by class without the studio).
 *
 * Read with `EXPLAIN (ANALYZE, BUFFERS)` in a studio of 300 more clients (a pass each, 10 visits each,
 * shares), then one of 3,300: the pages a statement touches may not grow by more than a few (the
 * client's own rows found a level deeper). Before the fix, on the integration run's PostgreSQL
 * database: passes 349 → 443 pages, facts 707 → 880, places 188 → 226 (on PGlite: facts 33 → 3,302);
 * after: 16 → 17, 26 → 25, 2 → 2.
 */
const { app, clock } = useBookingsApp();

/** Shared buffers (hit + read) the statement touched, from its plan's root. */
async function pagesOf(text: string, values: unknown[]): Promise<number> {
  const client = app.knex.client as unknown as {
    acquireConnection(): Promise<{ query(text: string, values: unknown[]): Promise<{ rows: any[] }> }>;
    releaseConnection(c: unknown): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    // In a transaction rolled back: the facts lock the client's shared passes (FOR UPDATE).
    await connection.query('begin', []);
    const { rows } = await connection.query(`explain (analyze, buffers, format json) ${text}`, values);
    await connection.query('rollback', []);
    const plan = (rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, number> }>)[0]!.Plan;
    return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The statement `run` sends (its native text and values), captured from knex's query event. */
async function statementOf(run: () => Promise<unknown>): Promise<{ text: string; values: unknown[] }> {
  let seen: { text: string; values: unknown[] } | undefined;
  const listen = (q: { sql: string; bindings: unknown[] }) => (seen = { text: q.sql, values: q.bindings });
  app.knex.on('query', listen);
  try {
    await run();
  } finally {
    app.knex.off('query', listen);
  }
  return seen!;
}

/**
 * Grows the studio by batch `batch` (1, 2, …): `clients` more clients with a pass each (its entries,
 * 100 + batch, mark the batch), 100 past classes, each attended by a tenth of them, and each pass
 * shared with the batch's next client.
 */
async function grow(
  st: { studio: { id: string }; serviceId: string; locationId: string; optionId: string },
  batch: number,
  clients: number,
) {
  const args = {
    clients,
    studioId: st.studio.id,
    optionId: st.optionId,
    serviceId: st.serviceId,
    locationId: st.locationId,
    entries: 100 + batch,
    from: new Date(Date.UTC(2026, 3, 1 + 10 * batch, 8)),
  };
  await app.knex.raw(
    `with u as (
       insert into users (id, email, first_name, last_name)
       select gen_random_uuid(), 'bulk-' || gen_random_uuid() || '@example.com', 'Bulk', 'Client'
         from generate_series(1, :clients)
       returning id),
     m as (insert into memberships (id, studio_id, user_id, is_client)
           select gen_random_uuid(), :studioId, id, true from u)
     insert into client_pricing_options (id, studio_id, client_id, pricing_option_id, sold_at, entries, expiration_type)
     select gen_random_uuid(), :studioId, id, :optionId, '2026-01-01T10:00:00Z', :entries, 2 from u`,
    args,
  );
  await app.knex.raw(
    `insert into schedule_events (id, studio_id, class_service_id, location_id, starts_at, ends_at, capacity)
     select gen_random_uuid(), :studioId, :serviceId, :locationId,
            :from::timestamptz + make_interval(hours => g), :from::timestamptz + make_interval(hours => g + 1), 1000
       from generate_series(0, 99) g`,
    args,
  );
  await app.knex.raw(
    `insert into client_visits (id, studio_id, schedule_event_id, client_id, starts_at, status, payment,
                                client_pricing_option_id, booked_by, booked_at)
     select gen_random_uuid(), :studioId, e.id, p.client_id, e.starts_at, 1, 'pass', p.id, 'self', e.starts_at
       from (select id, starts_at, row_number() over (order by id) as n from schedule_events
              where studio_id = :studioId and starts_at >= :from::timestamptz
                and starts_at < :from::timestamptz + interval '100 hours') e
       join (select id, client_id, row_number() over (order by id) as n from client_pricing_options
              where studio_id = :studioId and entries = :entries) p on p.n % 10 = e.n % 10`,
    args,
  );
  await app.knex.raw(
    `insert into client_pricing_option_shares (id, studio_id, client_pricing_option_id, user_id)
     select gen_random_uuid(), :studioId, x.id, x.next_client
       from (select p.id, lead(p.client_id) over (order by p.id) as next_client
               from client_pricing_options p where p.studio_id = :studioId and p.entries = :entries) x
      where x.next_client is not null`,
    args,
  );
  await app.knex.raw(
    'analyze users, memberships, client_pricing_options, client_pricing_option_shares, client_visits, schedule_events',
  );
}

describe('a booking’s reads follow the client, not the studio', () => {
  it('reads as many pages for a client’s passes, facts and places in a studio 3,000 clients bigger', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START, {});
    const event = (await app.knex('schedule_events').where({ id: st.eventId }).first()) as {
      startsAt: Date;
      endsAt: Date;
    };
    const studio = st.studio as Parameters<typeof passCandidatesFor>[1];
    const passes = await statementOf(() => passCandidatesFor(app.knex, studio, st.client.id));
    const counts = await statementOf(() => countsOf(app.knex, st.studio.id, st.eventId));
    const facts = {
      text: BOOKING_FACTS.text,
      values: BOOKING_FACTS.values({
        eventId: st.eventId,
        clientId: st.client.id,
        studioId: st.studio.id,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        dayBefore: new Date(event.startsAt.getTime() - 86_400_000),
      }),
    };
    const measure = async () => ({
      passes: await pagesOf(passes.text, passes.values),
      facts: await pagesOf(facts.text, facts.values),
      counts: await pagesOf(counts.text, counts.values),
    });
    // Measured once the studio has some size (indexes as deep as they get here), then 10 times bigger.
    await grow(st, 1, 300);
    const before = await measure();
    await grow(st, 2, 3000);
    const after = await measure();
    // Still right: the client's one pass, the class empty.
    expect((await passCandidatesFor(app.knex, studio, st.client.id)).length).toBe(1);
    expect(await countsOf(app.knex, st.studio.id, st.eventId)).toEqual({ taken: 0, waiting: 0 });
    expect(after.passes, JSON.stringify({ before, after })).toBeLessThanOrEqual(before.passes + 6);
    expect(after.facts, JSON.stringify({ before, after })).toBeLessThanOrEqual(before.facts + 12);
    expect(after.counts, JSON.stringify({ before, after })).toBeLessThanOrEqual(before.counts + 3);
  }, 60_000);
});
