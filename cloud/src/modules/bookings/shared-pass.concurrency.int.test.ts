import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Knex } from '../../db/knex';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { bookingStudio, entriesUsed, sessionClient } from './bookings-fixtures';

/**
 * Two clients sharing one pass (`client-pricing-option/{id}/share`) book two different classes at the
 * same moment. The classes' locks and the two clients' locks do not meet, so only a lock on the
 * shared pass serializes them (bookings README, "Concurrency"). Needs real PostgreSQL: the embedded
 * PGlite has one connection, so nothing runs in parallel there.
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');

let app: TestApp;
const NOW = new Date('2026-06-01T10:00:00Z');
const START = new Date('2026-06-03T16:00:00Z');

beforeAll(async () => {
  if (realPg) app = await startTestApp({ clock: new ManualClock(NOW) });
});
afterAll(async () => app?.close());

const book = (studioId: string) => `/api/v4/${studioId}/booking/classroom/book`;

/** Sessions waiting, directly or behind another waiter, for a lock the blocker's backend holds. */
async function waitersBehind(knex: Knex, blockerPid: number): Promise<number> {
  const { rows } = (await knex.raw(
    `select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  )) as { rows: Array<{ pid: number; blockers: number[] }> };
  const behind = new Set([blockerPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (!behind.has(r.pid) && r.blockers.some((b) => behind.has(b))) {
        behind.add(r.pid);
        grew = true;
      }
  }
  return behind.size - 1;
}

describe.skipIf(!realPg)('two clients booking at once on one shared pass', () => {
  it('a shared pass with one entry left: exactly one of two simultaneous bookings gets it', async () => {
    const t = await bookingStudio(app, START, { capacity: 5, waitingListSize: 0 });
    const { user: owner } = await t.addClient(false, 'Owner');
    const { user: kid } = await t.addClient(false, 'Kid');
    const pass = await t.addPass(owner.id, 1);
    await app.knex('client_pricing_option_shares').insert({
      id: uuidv7(),
      studioId: t.studio.id,
      clientPricingOptionId: pass,
      userId: kid.id,
      sharedBy: owner.id,
    });
    const otherClass = await t.addEvent(new Date(START.getTime() + 3 * 3_600_000));
    const [asOwner, asKid] = await Promise.all([sessionClient(app, owner.id), sessionClient(app, kid.id)]);

    // Line both bookings up: a third transaction holds the pass row, so each booking stops at the
    // first statement that needs it — with the lock, the booking's own lock on the shared pass (before
    // reading the passes); without it, only the pass projection's update (after both read one entry
    // left). Then let go and see how many got through.
    const blocker = await app.knex.transaction();
    let answers;
    try {
      await blocker('client_pricing_options').where({ id: pass }).forUpdate().first('id');
      const { rows } = (await blocker.raw('select pg_backend_pid() as pid')) as {
        rows: Array<{ pid: number }>;
      };
      const pending = Promise.all([
        asOwner.post(book(t.studio.id), { scheduleEventId: t.eventId }),
        asKid.post(book(t.studio.id), { scheduleEventId: otherClass }),
      ]);
      const until = Date.now() + 15_000;
      while ((await waitersBehind(app.knex, rows[0]!.pid)) < 2) {
        if (Date.now() > until) throw new Error('the two bookings never both waited on the pass');
        await new Promise((r) => setTimeout(r, 25));
      }
      await blocker.commit();
      answers = await pending;
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.key).toBe('visit.noPass');
    const paid = (await app
      .knex('client_visits')
      .where({ studioId: t.studio.id, clientPricingOptionId: pass })
      .whereIn('status', [0, 1, 2, 9])
      .count({ n: '*' })
      .first()) as { n: string | number };
    expect(Number(paid.n)).toBe(1);
    const manager = await sessionClient(app, t.manager.id);
    expect(await entriesUsed(manager, t.studio.id, owner.id, pass)).toBe(1);
  }, 60_000);

  it('a waiting-list promotion and a booking at once on a shared pass with one entry: one gets it', async () => {
    const t = await bookingStudio(app, START, { capacity: 1, waitingListSize: 2 });
    const { user: owner } = await t.addClient(false, 'Owner');
    const { user: kid } = await t.addClient(false, 'Kid');
    const pass = await t.addPass(owner.id, 1);
    await app.knex('client_pricing_option_shares').insert({
      id: uuidv7(),
      studioId: t.studio.id,
      clientPricingOptionId: pass,
      userId: kid.id,
      sharedBy: owner.id,
    });
    const otherClass = await t.addEvent(new Date(START.getTime() + 3 * 3_600_000));
    const [filler, asOwner, asKid] = await Promise.all([
      sessionClient(app, t.client.id),
      sessionClient(app, owner.id),
      sessionClient(app, kid.id),
    ]);
    const taken = await filler.post(book(t.studio.id), { scheduleEventId: t.eventId });
    expect(taken.body.outcome, taken.text).toBe('booked');
    const waiting = await asKid.post(book(t.studio.id), { scheduleEventId: t.eventId });
    expect(waiting.body.outcome, waiting.text).toBe('waitingList');

    // The owner's booking queues on the pass first, then the cancellation that promotes the kid. The
    // lock queue is first come first served: the owner books first. Without the promotion's own lock
    // on the shared pass it would already have read "one entry left" and spend it as well.
    const blocker = await app.knex.transaction();
    let answers;
    try {
      await blocker('client_pricing_options').where({ id: pass }).forUpdate().first('id');
      const { rows } = (await blocker.raw('select pg_backend_pid() as pid')) as {
        rows: Array<{ pid: number }>;
      };
      const waitFor = async (n: number) => {
        const until = Date.now() + 15_000;
        while ((await waitersBehind(app.knex, rows[0]!.pid)) < n) {
          if (Date.now() > until) throw new Error(`fewer than ${n} waited on the pass`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      const ownerBooks = asOwner.post(book(t.studio.id), { scheduleEventId: otherClass });
      await waitFor(1);
      const fillerCancels = filler.post(`/api/v4/${t.studio.id}/booking/classroom/cancel`, {
        clientVisitId: taken.body.visit.id,
      });
      await waitFor(2);
      await blocker.commit();
      answers = await Promise.all([ownerBooks, fillerCancels]);
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }

    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.outcome).toBe('booked');
    const onPass = (await app
      .knex('client_visits')
      .where({ studioId: t.studio.id, clientPricingOptionId: pass })
      .whereIn('status', [0, 1, 2, 9])
      .count({ n: '*' })
      .first()) as { n: string | number };
    expect(Number(onPass.n)).toBe(1);
    const kidVisit = await app.knex('client_visits').where({ id: waiting.body.visit.id }).first('status');
    expect(kidVisit!.status).toBe(8); // still waiting: the entry went to the owner
    const manager = await sessionClient(app, t.manager.id);
    expect(await entriesUsed(manager, t.studio.id, owner.id, pass)).toBe(1);
  }, 60_000);
});

/**
 * A booking locks the class and counts its places in one round trip (`lock_then_run`), deciding on
 * the class's rules as read before the lock. Here a third transaction holds the class's row while the
 * booking waits for it, changes the class, and lets go.
 */
describe.skipIf(!realPg)('a class changed while a booking waits for its lock', () => {
  async function whileWaiting<T>(
    eventId: string,
    start: () => Promise<T>,
    change: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<T> {
    const blocker = await app.knex.transaction();
    try {
      await blocker('schedule_events').where({ id: eventId }).forUpdate().first('id');
      const { rows } = (await blocker.raw('select pg_backend_pid() as pid')) as {
        rows: Array<{ pid: number }>;
      };
      const pending = start();
      const until = Date.now() + 15_000;
      while ((await waitersBehind(app.knex, rows[0]!.pid)) < 1) {
        if (Date.now() > until) throw new Error('the booking never waited on the class');
        await new Promise((r) => setTimeout(r, 25));
      }
      await change(blocker);
      await blocker.commit();
      return await pending;
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
  }

  it('a class cancelled meanwhile refuses the booking: no visit, no confirmation mail', async () => {
    const t = await bookingStudio(app, START, { capacity: 5, waitingListSize: 0 });
    const me = await sessionClient(app, t.client.id);
    const answer = await whileWaiting(
      t.eventId,
      () => me.post(book(t.studio.id), { scheduleEventId: t.eventId }),
      async (trx) => {
        await trx('schedule_events').where({ id: t.eventId }).update({ status: 'cancelled' });
      },
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error.key).toBe('visit.classCancelled');
    expect(await app.knex('client_visits').where({ scheduleEventId: t.eventId })).toHaveLength(0);
    await app.knex('users').where({ id: t.client.id }).update({ locale: 'en' });
    await app.drainJobs();
    expect(app.mail.filter((m) => m.to === t.client.email)).toHaveLength(0);
  }, 60_000);

  it('the last place taken by the transaction it waited for is counted: no overbooking', async () => {
    const t = await bookingStudio(app, START, { capacity: 1, waitingListSize: 0 });
    const { user: first } = await t.addClient(true, 'First');
    const me = await sessionClient(app, t.client.id);
    const answer = await whileWaiting(
      t.eventId,
      () => me.post(book(t.studio.id), { scheduleEventId: t.eventId }),
      async (trx) => {
        await trx('client_visits').insert({
          id: uuidv7(),
          studioId: t.studio.id,
          scheduleEventId: t.eventId,
          clientId: first.id,
          startsAt: START,
          status: 0,
          payment: 'free',
          bookedBy: 'staff',
          bookedAt: NOW,
        });
      },
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error.key).toBe('visit.classFull');
    const taken = await app.knex('client_visits').where({ scheduleEventId: t.eventId, status: 0 });
    expect(taken).toHaveLength(1);
  }, 60_000);
});
