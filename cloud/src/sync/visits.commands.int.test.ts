import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import { bookingStudio, type ClassRules } from '../modules/bookings/bookings-fixtures';
import { studioWithStation, useSyncApp } from './sync.test-support';

/**
 * What the tests must prove, 6: the domain scenarios of bookClass, cancelBooking and checkIn when the
 * desk was offline, through real stations (SQLite + engine) and the real /sync endpoints.
 */
const { app, dbFile } = useSyncApp('sync-visits-');

const MINUTE = 60_000;

async function setup(startsInMinutes: number, rules: ClassRules = {}) {
  const st = await bookingStudio(app, new Date(Date.now() + startsInMinutes * MINUTE), rules);
  const owner = await app.signedIn(st.manager.email, st.manager.password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const desk = async (name = 'Recepcja') => {
    const db = openLocalDatabase(dbFile());
    const engine = new SyncEngine(db);
    await engine.registerDevice(app.url, cookie, name);
    await engine.syncOnce();
    return engine;
  };
  return { ...st, desk };
}

const visit = (id: string) => app.knex('client_visits').where({ id }).first();
const visitsOf = (eventId: string, clientId: string) =>
  app.knex('client_visits').where({ scheduleEventId: eventId, clientId });

describe('bookClass (intent: capacity in server receipt order)', () => {
  it('free place booked, full class waitlisted, waiting list full rejected, a client at the desk booked and flagged overbooked', async () => {
    const t = await setup(24 * 60, { capacity: 1, waitingListSize: 1 });
    const [a, b, c, d] = [await t.addClient(), await t.addClient(), await t.addClient(), await t.addClient()];
    const desk = await t.desk();
    const ids = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
    const book = (i: number, userId: string, extra: Record<string, unknown> = {}) =>
      desk.mutate('bookClass', 1, { visitId: ids[i], userId, scheduleEventId: t.eventId, ...extra });
    book(0, a.user.id);
    book(1, b.user.id);
    book(2, c.user.id);
    book(3, d.user.id, { clientPresent: true });
    // Offline the desk shows provisional results at once: one place, then the waiting list.
    expect(desk.store.get('client_visits', ids[0]!)).toMatchObject({ status: 0 });
    expect(desk.store.get('client_visits', ids[1]!)).toMatchObject({ status: 8 });

    await desk.syncOnce();
    const outcomes = desk.outbox().map((m) => m.outcome!);
    expect(outcomes.map((o) => o.status)).toEqual(['applied', 'waitlisted', 'rejected', 'flagged']);
    expect(outcomes[2]).toMatchObject({ key: 'visit.classFull' });
    expect(outcomes[3]!.flags).toEqual(['overbooked']);
    // The server kept the station's ids; the rejected booking left no row, here or at the desk.
    expect(await visit(ids[0]!)).toMatchObject({ status: 0, clientPricingOptionId: a.passId });
    expect(await visit(ids[1]!)).toMatchObject({ status: 8 });
    expect(await visit(ids[2]!)).toBeUndefined();
    expect(await visit(ids[3]!)).toMatchObject({ status: 0 });
    expect(desk.store.get('client_visits', ids[2]!)).toBeNull();
    expect(desk.store.get('client_visits', ids[3]!)).toMatchObject({ status: 0 });
    const flags = await app.knex('sync_flags').where({ studioId: t.studio.id, kind: 'overbooked' });
    expect(flags.map((f) => f.subjectId)).toEqual([ids[3]]);
  });

  it('two offline desks booking the last place: the one the server receives first gets it, the other is waitlisted', async () => {
    const t = await setup(24 * 60, { capacity: 1, waitingListSize: 5 });
    const [a, b] = [await t.addClient(), await t.addClient()];
    const one = await t.desk('Desk 1');
    const two = await t.desk('Desk 2');
    const [va, vb] = [uuidv7(), uuidv7()];
    // Desk 2 booked first by its clock, but desk 1 reaches the server first.
    two.mutate('bookClass', 1, { visitId: vb, userId: b.user.id, scheduleEventId: t.eventId });
    one.mutate('bookClass', 1, { visitId: va, userId: a.user.id, scheduleEventId: t.eventId });
    expect(two.store.get('client_visits', vb)).toMatchObject({ status: 0 });
    await one.syncOnce();
    await two.syncOnce();
    expect(one.outbox()[0]!.outcome!.status).toBe('applied');
    expect(two.outbox()[0]!.outcome!.status).toBe('waitlisted');
    // Desk 2's cache now holds the server's answer, not its provisional place.
    expect(two.store.get('client_visits', vb)).toMatchObject({ status: 8 });
    await one.syncOnce();
    expect(one.store.get('client_visits', vb)).toMatchObject({ status: 8 });
  });
});

describe('cancelBooking (intent: idempotent, late by the corrected device time)', () => {
  it('cancelled offline in time: early (no fee) even though the server receives it after the cut-off', async () => {
    // Starts in 100 minutes, cut-off 120 minutes: late at receipt, early 30 minutes ago.
    const t = await setup(100, { capacity: 5, cancellationCutoffMinutes: 120 });
    const s = await studioWithStation(app, t.studio);
    const [a, b] = [await t.addClient(), await t.addClient()];
    const [va, vb] = [uuidv7(), uuidv7()];
    const booked = await s.call('POST', '/sync/push', {
      mutations: [
        s.mutation(1, 'bookClass', { visitId: va, userId: a.user.id, scheduleEventId: t.eventId }),
        s.mutation(2, 'bookClass', { visitId: vb, userId: b.user.id, scheduleEventId: t.eventId }),
      ],
    });
    expect(booked.body.results.map((r: { outcome: { status: string } }) => r.outcome.status)).toEqual([
      'applied',
      'applied',
    ]);
    const res = await s.call('POST', '/sync/push', {
      mutations: [
        s.mutation(
          3,
          'cancelBooking',
          { visitId: va },
          { occurredAt: new Date(Date.now() - 30 * MINUTE).toISOString() },
        ),
        s.mutation(4, 'cancelBooking', { visitId: vb }),
        // The same cancellation queued twice (a double click at the desk): applied, nothing more.
        s.mutation(5, 'cancelBooking', { visitId: va }),
      ],
    });
    expect(res.status).toBe(200);
    const [early, late, again] = res.body.results as Array<{
      outcome: { status: string; data: Record<string, unknown> };
    }>;
    expect(early!.outcome).toMatchObject({
      status: 'applied',
      data: { cancel: 'earlyCancel', visitStatus: 3 },
    });
    expect(late!.outcome).toMatchObject({
      status: 'applied',
      data: { cancel: 'lateCancel', visitStatus: 5 },
    });
    expect(again!.outcome).toMatchObject({ status: 'applied', data: { alreadyCancelled: true } });
    expect((await visit(va))!.status).toBe(3);
    expect((await visit(vb))!.status).toBe(5);
  });

  it('through the station: the local effect shows the cancellation at once; an unknown visit is rejected and undone', async () => {
    const t = await setup(24 * 60, { capacity: 5 });
    const desk = await t.desk();
    const vid = uuidv7();
    desk.mutate('bookClass', 1, { visitId: vid, userId: t.client.id, scheduleEventId: t.eventId });
    desk.mutate('cancelBooking', 1, { visitId: vid });
    expect(desk.store.get('client_visits', vid)).toMatchObject({ status: 3 });
    const ghost = uuidv7();
    desk.mutate('cancelBooking', 1, { visitId: ghost });
    await desk.syncOnce();
    expect(desk.outbox().map((m) => m.outcome!.status)).toEqual(['applied', 'applied', 'rejected']);
    expect(desk.outbox()[2]!.outcome).toMatchObject({ key: 'resource.notFound' });
    expect(desk.store.get('client_visits', vid)).toMatchObject({ status: 3 });
    expect((await visit(vid))!.status).toBe(3);
  });
});

describe('checkIn (fact: never rejected)', () => {
  it('a booked client checked in offline: present, paid by the pass the booking holds', async () => {
    const t = await setup(30, { capacity: 5 });
    const desk = await t.desk();
    const vid = uuidv7();
    desk.mutate('bookClass', 1, { visitId: vid, userId: t.client.id, scheduleEventId: t.eventId });
    await desk.syncOnce();
    desk.mutate('checkIn', 1, { visitId: vid, userId: t.client.id, scheduleEventId: t.eventId });
    expect(desk.store.get('client_visits', vid)).toMatchObject({ status: 1 });
    await desk.syncOnce();
    expect(desk.outbox()[1]!.outcome).toMatchObject({ status: 'applied', data: { visitStatus: 1 } });
    expect(await visit(vid)).toMatchObject({ status: 1, clientPricingOptionId: t.mainPass });
    expect((await visit(vid))!.checkedInAt).not.toBeNull();
  });

  it('walk-in with a pass and no booking: a visit under the station id, allocated to the pass, present', async () => {
    const t = await setup(30, { capacity: 1 });
    const other = await t.addClient();
    // The class is full: the person in the room is checked in all the same.
    await app.knex('client_visits').insert({
      id: uuidv7(),
      studioId: t.studio.id,
      scheduleEventId: t.eventId,
      clientId: other.user.id,
      startsAt: (await app.knex('schedule_events').where({ id: t.eventId }).first())!.startsAt,
      status: 0,
      payment: 'pass',
      clientPricingOptionId: other.passId,
      bookedBy: 'staff',
      bookedAt: new Date(),
    });
    const desk = await t.desk();
    const vid = uuidv7();
    desk.mutate('checkIn', 1, { visitId: vid, userId: t.client.id, scheduleEventId: t.eventId });
    await desk.syncOnce();
    expect(desk.outbox()[0]!.outcome!.status).toBe('applied');
    expect(await visit(vid)).toMatchObject({ status: 1, payment: 'pass', clientPricingOptionId: t.mainPass });
  });

  it('no pass left: the visit stays, unpaid at the desk, flagged uncovered for the desk', async () => {
    const t = await setup(30, { capacity: 5 });
    const { user } = await t.addClient(false, 'NoPass');
    const desk = await t.desk();
    const vid = uuidv7();
    desk.mutate('checkIn', 1, { visitId: vid, userId: user.id, scheduleEventId: t.eventId });
    await desk.syncOnce();
    const outcome = desk.outbox()[0]!.outcome!;
    expect(outcome.status).toBe('flagged');
    expect(outcome.flags).toContain('uncovered');
    const row = await visit(vid);
    expect(row).toMatchObject({ status: 1, payment: 'desk', paidAt: null });
    const flags = await app.knex('sync_flags').where({ studioId: t.studio.id, kind: 'uncovered' });
    expect(flags.map((f) => f.subjectId)).toEqual([vid]);
    expect(desk.store.get('client_visits', vid)).toMatchObject({ status: 1, payment: 'desk' });
  });

  it('checkIn@2 beside @1: the pass the station counted is used while it covers the class, else the rule picks; @1 still applies', async () => {
    const t = await setup(30, { capacity: 5 });
    // The rule would pick the main pass (fewer entries left); the station counted the bigger one.
    const counted = await t.addPass(t.client.id, 30);
    const other = await t.addClient();
    const third = await t.addClient();
    const desk = await t.desk();
    const [v2, v2other, v1] = [uuidv7(), uuidv7(), uuidv7()];
    // The station counted the walk-in on its second pass (the slip said so).
    desk.mutate('checkIn', 2, {
      visitId: v2,
      userId: t.client.id,
      scheduleEventId: t.eventId,
      clientPricingOptionId: counted,
    });
    expect(desk.store.get('client_visits', v2)).toMatchObject({
      status: 1,
      client_pricing_option_id: counted,
    });
    // A pass that is not the client's (someone else's): the rule picks the client's own, as @1 does.
    desk.mutate('checkIn', 2, {
      visitId: v2other,
      userId: other.user.id,
      scheduleEventId: t.eventId,
      clientPricingOptionId: t.mainPass,
    });
    // A desk of the previous release still queues @1.
    desk.mutate('checkIn', 1, { visitId: v1, userId: third.user.id, scheduleEventId: t.eventId });
    await desk.syncOnce();
    expect(desk.outbox().map((m) => [`${m.name}@${m.version}`, m.outcome!.status])).toEqual([
      ['checkIn@2', 'applied'],
      ['checkIn@2', 'applied'],
      ['checkIn@1', 'applied'],
    ]);
    expect(await visit(v2)).toMatchObject({ status: 1, payment: 'pass', clientPricingOptionId: counted });
    expect(await visit(v2other)).toMatchObject({ status: 1, clientPricingOptionId: other.passId });
    expect(await visit(v1)).toMatchObject({ status: 1, clientPricingOptionId: third.passId });
  });

  it('two desks check the same walk-in in: one visit, both facts applied, no duplicate', async () => {
    const t = await setup(30, { capacity: 5 });
    const one = await t.desk('Desk 1');
    const two = await t.desk('Desk 2');
    const args = (visitId: string) => ({ visitId, userId: t.client.id, scheduleEventId: t.eventId });
    one.mutate('checkIn', 1, args(uuidv7()));
    two.mutate('checkIn', 1, args(uuidv7()));
    await one.syncOnce();
    await two.syncOnce();
    await one.syncOnce();
    expect(one.outbox()[0]!.outcome!.status).toBe('applied');
    expect(two.outbox()[0]!.outcome!.status).toBe('applied');
    const rows = await visitsOf(t.eventId, t.client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe(1);
    for (const desk of [one, two]) {
      const local = desk.store.list('client_visits').filter((v) => v.client_id === t.client.id);
      expect(local.map((v) => v.id)).toEqual([rows[0]!.id]);
    }
  });
});
