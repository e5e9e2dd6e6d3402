import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { preparesStatements } from '../../db/knex';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * The booking rush (issue 27): each statement a booking sends is a round trip that the client's lock,
 * and for one of them the class's, is held across. These tests hold the number of statements and
 * their preparation, so a change that adds a round trip or plans on every call again fails here.
 */
const { app, clock } = useBookingsApp();

async function setup() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, {});
  const me = await sessionClient(app, st.client.id);
  return { ...st, me };
}

/** The SQL texts `app.knex` sends while `run` runs. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (q: { sql: string }) => seen.push(q.sql);
  app.knex.on('query', listen);
  try {
    await run();
  } finally {
    app.knex.off('query', listen);
  }
  return seen;
}

describe('a booking’s round trips', () => {
  it('reads the studio with the session and sends at most 8 statements (7 through knex), commit included', async () => {
    const t = await setup();
    const statements = await statementsOf(async () => {
      const res = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
      expect(res.status, res.text).toBe(200);
      expect(res.body.outcome).toBe('booked');
    });
    // The session, its user, the studio and the membership: one statement before the transaction.
    expect(statements[0]).toMatch(/from "sessions" as "s"/);
    expect(statements[0]).toMatch(/"studios" as "scope_s"/);
    expect(statements.filter((s) => /from "studios"/.test(s))).toEqual([]);
    // Through knex's events: session+studio, BEGIN, the class (with what the answer shows) and the
    // client's lock, the facts, the passes, the class's lock with the visit, COMMIT. The answer is put
    // together from them: no read after the commit. (The mail job is pg-boss's insert on the same
    // connection, sent by the driver: an eighth round trip these events do not see.)
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(7);
  });

  it('another studio’s id read with the session finds nothing there: 404, nothing booked', async () => {
    const t = await setup();
    const other = await bookingStudio(app, START, {});
    const res = await t.me.post(v4(other.studio, 'booking/classroom/book'), {
      scheduleEventId: other.eventId,
    });
    expect(res.status).toBe(404);
    const visits = await app.knex('client_visits').where({ scheduleEventId: other.eventId });
    expect(visits).toEqual([]);
  });

  it.skipIf(inject('embeddedDatabase'))(
    'runs its statements prepared, and prepares them again on a connection that lost them',
    async () => {
      expect(preparesStatements(app.knex)).toBe(true);
      const t = await setup();
      const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
      expect(book.status, book.text).toBe(200);
      // The pool's connections hold the hot statements (p_…) and lock_then_run's two (ltr_…).
      const names = (
        await Promise.all(
          Array.from({ length: 3 }, () =>
            app.knex.raw<{ rows: Array<{ name: string }> }>('select name from pg_prepared_statements'),
          ),
        )
      ).flatMap((r) => r.rows.map((row) => row.name));
      expect(names.some((n) => n.startsWith('p_'))).toBe(true);
      expect(names.some((n) => n.startsWith('ltr_'))).toBe(true);

      // A transaction-mode pooler may hand the next transaction a server connection that never saw
      // them: here, every connection of the pool forgets its statements (pg's client still believes
      // its named ones are parsed, so it must be told too, as a new server connection would).
      const pool = (app.knex.client as { pool: { free: Array<{ resource: unknown }> } }).pool;
      for (const { resource } of pool.free) {
        const c = resource as {
          query(sql: string): Promise<unknown>;
          connection: { parsedStatements: Record<string, string> };
        };
        await c.query('deallocate all');
        c.connection.parsedStatements = {};
      }
      const second = await bookingStudio(app, START, {});
      const client = await sessionClient(app, second.client.id);
      const again = await client.post(v4(second.studio, 'booking/classroom/book'), {
        scheduleEventId: second.eventId,
      });
      expect(again.status, again.text).toBe(200);
      expect(again.body.outcome).toBe('booked');
    },
  );
});
