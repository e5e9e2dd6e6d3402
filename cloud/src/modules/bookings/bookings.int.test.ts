import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { HttpClient } from '../../../../tests/support/http-client';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, entriesUsed, sessionClient, type ClassRules } from './bookings-fixtures';
import { markVisitsPaid } from './attendance.service';

const { app, clock } = useBookingsApp();
const HOUR = 3_600_000;

const v2 = (s: { id: string }, path: string) => `/api/v2/${s.id}/${path}`;

async function setup(rules: ClassRules = {}) {
  clock.set(NOW);
  const st = await bookingStudio(app, START, rules);
  const owner = await sessionClient(app, st.manager.id);
  const me = await sessionClient(app, st.client.id);
  return { ...st, owner, me };
}

describe('client booking and cancelling', () => {
  it('books with a pass, shows it in my visits, and an early cancel gives the entry back', async () => {
    const t = await setup();
    const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(book.status).toBe(200);
    expect(book.body.outcome).toBe('booked');
    expect(book.body.visit).toMatchObject({ status: 0, canCancel: true, cancelIsLate: false });
    expect(book.body.visit.pass.id).toBe(t.mainPass);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);

    const mine = await t.me.post(v4(t.studio, 'client-visits/init'), {});
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((v: { id: string }) => v.id)).toEqual([book.body.visit.id]);
    expect(mine.body.items[0].event.classService.name.en.value).toBe('Vinyasa');

    const again = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('visit.alreadyBooked');

    const cancel = await t.me.post(v4(t.studio, 'booking/classroom/cancel'), {
      clientVisitId: book.body.visit.id,
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body.outcome).toBe('earlyCancel');
    expect(cancel.body.visit.status).toBe(4);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(0);

    // Booking again after an early cancel is a new visit.
    const rebook = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(rebook.body.outcome).toBe('booked');
    expect(rebook.body.visit.id).not.toBe(book.body.visit.id);
  });

  it('a late cancel keeps the entry and records the fee, forgiving the first offence', async () => {
    const t = await setup({ cancellationCutoffMinutes: 120 });
    expect(
      (
        await t.owner.patch(v4(t.studio, 'settings/booking'), {
          lateCancelFee: 2500,
          forgiveFirstOffence: true,
        })
      ).status,
    ).toBe(200);
    const second = await t.addEvent(new Date(START.getTime() + 24 * HOUR));
    const a = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const b = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: second });
    clock.set(new Date(START.getTime() - 60 * 60_000));
    const lateA = await t.me.post(v4(t.studio, 'booking/classroom/cancel'), {
      clientVisitId: a.body.visit.id,
    });
    expect(lateA.body).toMatchObject({ outcome: 'lateCancel', visit: { status: 6 } });
    expect(lateA.body.visit.fees).toEqual([
      expect.objectContaining({ kind: 'lateCancel', amount: 2500, forgiven: true }),
    ]);
    clock.set(new Date(START.getTime() + 23 * HOUR));
    const lateB = await t.me.post(v4(t.studio, 'booking/classroom/cancel'), {
      clientVisitId: b.body.visit.id,
    });
    expect(lateB.body.visit.fees).toEqual([
      expect.objectContaining({ amount: 2500, forgiven: false, currency: 'PLN' }),
    ]);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(2);
  });

  it('refuses without a pass, or books unconfirmed when the studio lets clients pay at the desk', async () => {
    const t = await setup();
    const { user } = await t.addClient(false);
    const other = await sessionClient(app, user.id);
    const refused = await other.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ key: 'visit.noPass', code: 1816 });
    expect(refused.body.error.fields.scheduleEventId[0]).toContain('noPasses');
    await t.owner.patch(v4(t.studio, 'settings/booking'), { payAtDeskAllowed: true });
    const desk = await other.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(desk.body).toMatchObject({ outcome: 'unconfirmed', visit: { status: 9, pass: null } });
    // The sales module's `client-visits/pay` fulfils the order through markVisitsPaid.
    await app.knex.transaction((trx) => markVisitsPaid(trx, t.studio, [desk.body.visit.id], clock.now()));
    const list = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    expect(list.body.attendees[0]).toMatchObject({ id: desk.body.visit.id, status: 0 });
    await expect(
      app.knex.transaction((trx) => markVisitsPaid(trx, t.studio, [desk.body.visit.id], clock.now())),
    ).rejects.toMatchObject({ key: 'visit.statusNotAllowed' });
  });

  it('a free class needs no pass', async () => {
    const t = await setup({ freeOfCharge: true });
    const { user } = await t.addClient(false);
    const res = await (
      await sessionClient(app, user.id)
    ).post(v4(t.studio, 'booking/classroom/book'), {
      scheduleEventId: t.eventId,
    });
    expect(res.body).toMatchObject({ outcome: 'booked', visit: { status: 0, pass: null } });
  });

  it('enforces the booking window, online booking and tags for clients', async () => {
    const tagId = uuidv7();
    const t = await setup({ bookingOpensHours: 24, bookingAccessibility: 3, bookingTagIds: [tagId] });
    const early = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(early.body.error.key).toBe('visit.notAccessible');
    await app.knex('tags').insert({ id: tagId, studioId: t.studio.id, name: 'VIP', type: 0 });
    await app.knex('user_tags').insert({ id: uuidv7(), studioId: t.studio.id, tagId, userId: t.client.id });
    const notOpen = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(notOpen.body.error.key).toBe('visit.bookingNotOpen');
    const sched = await t.me.post(v4(t.studio, 'booking/schedule'), { from: '2026-06-03', to: '2026-06-03' });
    expect(sched.body.items).toEqual([
      expect.objectContaining({
        scheduleEventId: t.eventId,
        refusal: 'bookingNotOpen',
        bookOutcome: null,
        placesLeft: 2,
      }),
    ]);
    clock.set(new Date(START.getTime() - 24 * HOUR));
    const ok = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(ok.body.outcome).toBe('booked');
    const after = await t.me.post(v4(t.studio, 'booking/schedule'), { from: '2026-06-03', to: '2026-06-03' });
    expect(after.body.items[0]).toMatchObject({
      placesLeft: 1,
      myVisit: { status: 0 },
      refusal: 'alreadyBooked',
      canCancel: true,
    });
  });

  it('refuses a class that overlaps another booking; staff see the conflict and may override', async () => {
    const t = await setup({ capacity: 5 });
    const overlapping = await t.addEvent(new Date(START.getTime() + 30 * 60_000));
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const clash = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: overlapping });
    expect(clash.body.error.key).toBe('visit.conflict');
    const seen = await t.owner.get(
      v4(t.studio, `enrollment/conflict?clientId=${t.client.id}&scheduleEventId=${overlapping}`),
    );
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ hasConflict: true, conflicts: [{ scheduleEventId: t.eventId }] });
    const enrol = v4(t.studio, `schedule-event/${overlapping}/enrollment/enroll`);
    expect((await t.owner.post(enrol, { clientId: t.client.id })).body.error.key).toBe('visit.conflict');
    const forced = await t.owner.post(enrol, { clientId: t.client.id, override: true });
    expect(forced.body.outcome).toBe('booked');
  });
});

describe('waiting list', () => {
  it('a full class puts people on the waiting list; a freed place promotes the first who can pay and tells them', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 2 });
    const b = await t.addClient(true, 'Bogna');
    const c = await t.addClient(false, 'Cezary');
    const d = await t.addClient(true, 'Dorota');
    const [bc, cc, dc] = await Promise.all([b, c, d].map((x) => sessionClient(app, x.user.id)));
    await t.owner.patch(v4(t.studio, 'settings/booking'), { payAtDeskAllowed: true });
    expect(
      (await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId })).body.outcome,
    ).toBe('booked');
    // Cezary joins agreeing to pay at the desk; Bogna waits with a pass; Dorota finds the list full.
    const cw = await cc!.post(v4(t.studio, 'waitinglist'), { action: 'join', scheduleEventId: t.eventId });
    expect(cw.body.items).toEqual([expect.objectContaining({ status: 8, waitingPosition: 1 })]);
    const bw = await bc!.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(bw.body).toMatchObject({ outcome: 'waitingList', visit: { status: 8, waitingPosition: 2 } });
    const full = await dc!.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(full.body.error).toMatchObject({ key: 'visit.classFull', code: 1810 });
    expect(await entriesUsed(t.owner, t.studio.id, b.user.id, b.passId!)).toBe(0);

    // Staff move Bogna to the top, then the booked client cancels: Bogna gets the place.
    const list = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    expect(list.body.waitingList.map((v: { client: { firstName: string } }) => v.client.firstName)).toEqual([
      'Cezary',
      'Bogna',
    ]);
    const moved = await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/waiting-list/move`), {
      clientVisitId: bw.body.visit.id,
      position: 1,
    });
    expect(moved.body.waitingList.map((v: { waitingPosition: number }) => v.waitingPosition)).toEqual([1, 2]);
    expect(moved.body.waitingList[0].client.firstName).toBe('Bogna');

    const mine = (await t.me.post(v4(t.studio, 'client-visits/init'), {})).body.items[0];
    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: mine.id });
    const after = await t.owner.get(v2(t.studio, `schedule-events/${t.eventId}/client-visits`));
    expect(after.body.attendees.map((v: { client: { firstName: string } }) => v.client.firstName)).toEqual([
      'Bogna',
    ]);
    expect(after.body.attendees[0].promotedAt).not.toBeNull();
    expect(after.body.waitingList.map((v: { waitingPosition: number }) => v.waitingPosition)).toEqual([1]);
    expect(await entriesUsed(t.owner, t.studio.id, b.user.id, b.passId!)).toBe(1);
    const note = await app.knex('user_notifications').where({ userId: b.user.id, type: 'visitPromoted' });
    expect(note).toHaveLength(1);

    // Cezary leaves the list.
    const left = await cc!.post(v4(t.studio, 'waitinglist'), { action: 'leave', scheduleEventId: t.eventId });
    expect(left.body.items).toEqual([]);
    const notWaiting = await cc!.post(v4(t.studio, 'waitinglist'), {
      action: 'leave',
      scheduleEventId: t.eventId,
    });
    expect(notWaiting.body.error.key).toBe('visit.notWaiting');
  });

  it('after the promotion cut-off a freed place stays free; staff may still promote by hand', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 1, cancellationCutoffMinutes: 0 });
    const b = await t.addClient(true, 'Bogna');
    const bc = await sessionClient(app, b.user.id);
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const w = await bc.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    clock.set(new Date(START.getTime() - 30 * 60_000));
    const mine = (await t.me.post(v4(t.studio, 'client-visits/init'), {})).body.items[0];
    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: mine.id });
    const list = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    expect(list.body).toMatchObject({ placesLeft: 1, attendees: [], waitingList: [{ id: w.body.visit.id }] });
    const promoted = await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/waiting-list/promote`), {
      clientVisitId: w.body.visit.id,
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.attendees[0]).toMatchObject({ id: w.body.visit.id, status: 0 });
  });
});

describe('timetable changes keep the waiting list and bookings right', () => {
  it('raising a class’s places moves the waiting list up, first come first served', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 3 });
    const people = await Promise.all(['Bogna', 'Cezary', 'Dorota'].map((n) => t.addClient(true, n)));
    const sessions = await Promise.all(people.map((p) => sessionClient(app, p.user.id)));
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    for (const s of sessions)
      expect(
        (await s.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId })).body.outcome,
      ).toBe('waitingList');

    const edit = await t.owner.patch(v2(t.studio, `schedule-events/${t.eventId}`), { capacity: 3 });
    expect(edit.status).toBe(200);
    const list = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    const names = (vs: Array<{ client: { firstName: string } }>) => vs.map((v) => v.client.firstName);
    expect(names(list.body.attendees).sort()).toEqual(['Bogna', 'Cezary', t.client.firstName].sort());
    expect(names(list.body.waitingList)).toEqual(['Dorota']);
    expect(list.body.waitingList[0].waitingPosition).toBe(1);
    expect(list.body.placesLeft).toBe(0);
    expect(await entriesUsed(t.owner, t.studio.id, people[0]!.user.id, people[0]!.passId!)).toBe(1);
    expect(await entriesUsed(t.owner, t.studio.id, people[2]!.user.id, people[2]!.passId!)).toBe(0);
    expect(
      await app.knex('user_notifications').where({ userId: people[1]!.user.id, type: 'visitPromoted' }),
    ).toHaveLength(1);
    // Lowering the places again moves nobody off the class.
    await t.owner.patch(v2(t.studio, `schedule-events/${t.eventId}`), { capacity: 1 });
    const lowered = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    expect(lowered.body.attendees).toHaveLength(3);
  });

  it('a series change adds places to its classes (waiting list moves up) and cancels, never deletes, booked days it drops', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 2 });
    const gen = await t.owner.post(v2(t.studio, 'schedule-events/generate'), {
      scheduleMetaIds: [t.metaId],
      from: '2026-06-03',
      to: '2026-06-04',
    });
    expect(gen.body.created).toBe(2);
    const events = await t.owner.get(v2(t.studio, `schedule-metas/${t.metaId}/schedule-events/all`));
    const [wed, thu] = (events.body.items as Array<{ id: string; startsAt: string }>)
      .filter((e) => e.id !== t.eventId)
      .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    const b = await t.addClient(true, 'Bogna');
    const bc = await sessionClient(app, b.user.id);
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: wed!.id });
    const waiting = await bc.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: wed!.id });
    expect(waiting.body.outcome).toBe('waitingList');
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: thu!.id });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(2);

    // Two places per class from now on: Bogna, who waited, is on Wednesday's class.
    expect((await t.owner.patch(v2(t.studio, `schedule-metas/${t.metaId}`), { capacity: 2 })).status).toBe(
      200,
    );
    const wedList = await t.owner.get(v4(t.studio, `schedule-event/${wed!.id}/enrollments/init`));
    expect(wedList.body).toMatchObject({ capacity: 2, waitingList: [] });
    expect(wedList.body.attendees.map((v: { client: { id: string } }) => v.client.id)).toContain(b.user.id);

    // Wednesdays leave the series: the booked Wednesday class is cancelled (entries back), not deleted.
    const noWed = await t.owner.patch(v2(t.studio, `schedule-metas/${t.metaId}`), {
      daysOfWeek: [1, 2, 4, 5, 6, 7],
    });
    expect(noWed.status).toBe(200);
    const gone = await t.owner.get(v4(t.studio, `schedule-event/${wed!.id}/enrollments/init`));
    expect(gone.status).toBe(200);
    expect(gone.body.eventStatus).toBe('cancelled');
    expect(gone.body.cancelled.map((v: { status: number }) => v.status)).toEqual([7, 7]);
    expect(await entriesUsed(t.owner, t.studio.id, b.user.id, b.passId!)).toBe(0);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);

    // Deleting the series: Thursday's booked class stays, cancelled; the client is told.
    expect((await t.owner.delete(v2(t.studio, `schedule-metas/${t.metaId}`))).status).toBe(204);
    const thuList = await t.owner.get(v4(t.studio, `schedule-event/${thu!.id}/enrollments/init`));
    expect(thuList.status).toBe(200);
    expect(thuList.body).toMatchObject({ eventStatus: 'cancelled', attendees: [] });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(0);
    expect(
      await app.knex('user_notifications').where({ userId: t.client.id, type: 'classCancelled' }),
    ).toHaveLength(2);
  });
});

describe('class cancelled', () => {
  it('sets everyone to 7 and returns every entry', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 1 });
    const b = await t.addClient(true, 'Bogna');
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    await (
      await sessionClient(app, b.user.id)
    ).post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);
    const res = await t.owner.post(v2(t.studio, `schedule-events/${t.eventId}/cancel`));
    expect(res.status).toBe(200);
    const list = await t.owner.get(v4(t.studio, `schedule-event/${t.eventId}/enrollments/init`));
    expect(list.body.cancelled.map((v: { status: number }) => v.status)).toEqual([7, 7]);
    expect(list.body.eventStatus).toBe('cancelled');
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(0);
    const mine = await t.me.post(v4(t.studio, 'client-visits/init'), {});
    expect(mine.body.items[0]).toMatchObject({ status: 7, canCancel: false, event: { cancelled: true } });
    expect(
      await app.knex('user_notifications').where({ userId: t.client.id, type: 'classCancelled' }),
    ).toHaveLength(1);
  });
});

describe('staff: enrolment, attendance, permissions', () => {
  it('front desk enrols and checks in; instructors may not enrol; override needs its ability', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 0 });
    const desk = await sessionClient(app, (await t.addStaff('front_desk')).id);
    const teacher = await sessionClient(app, (await t.addStaff('instructor')).id);
    const enrol = v4(t.studio, `schedule-event/${t.eventId}/enrollment/enroll`);
    expect((await teacher.post(enrol, { clientId: t.client.id })).status).toBe(403);
    const ok = await desk.post(enrol, { clientId: t.client.id });
    expect(ok.body).toMatchObject({ outcome: 'booked', visit: { status: 0 } });
    const b = await t.addClient(true, 'Bogna');
    expect((await desk.post(enrol, { clientId: b.user.id })).body.error.key).toBe('visit.classFull');
    const over = await desk.post(enrol, { clientId: b.user.id, override: true });
    expect(over.status).toBe(403);
    expect(over.body.error.key).toBe('visit.overrideForbidden');
    expect((await t.owner.post(enrol, { clientId: b.user.id, override: true })).body.outcome).toBe('booked');

    // Check-in opens an hour before; absence only after the start; a no-show fee, voided on correction.
    await t.owner.patch(v4(t.studio, 'settings/booking'), { noShowFee: 4000 });
    const status = v4(t.studio, 'client-enrollment/status');
    const ids = [ok.body.visit.id];
    const tooEarly = await teacher.post(status, { clientVisitIds: ids, action: 'present' });
    expect(tooEarly.body.error).toMatchObject({
      key: 'visit.tooEarly',
      fields: { 'clientVisitIds.0': [expect.any(String)] },
    });
    clock.set(new Date(START.getTime() - 30 * 60_000));
    const present = await teacher.post(status, { clientVisitIds: ids, action: 'present' });
    expect(present.body.items[0]).toMatchObject({ status: 1, checkedInAt: expect.any(String) });
    expect((await teacher.post(status, { clientVisitIds: ids, action: 'cancel' })).status).toBe(403);
    clock.set(new Date(START.getTime() + 90 * 60_000));
    const absent = await teacher.post(status, { clientVisitIds: ids, action: 'absent' });
    expect(absent.body.items[0]).toMatchObject({
      status: 2,
      fees: [{ kind: 'noShow', amount: 4000, forgiven: false }],
    });
    const reset = await teacher.post(status, { clientVisitIds: ids, action: 'reset' });
    expect(reset.body.items[0]).toMatchObject({ status: 0, fees: [] });
    const checkIn = await desk.post(v4(t.studio, `schedule-event/${t.eventId}/check-in`), {
      clientId: t.client.id,
    });
    expect(checkIn.body).toMatchObject({ id: ok.body.visit.id, status: 1 });
    const history = await t.owner.get(
      v4(t.studio, `client/${t.client.id}/client-visit/collection?when=past`),
    );
    expect(history.body.items.map((v: { id: string }) => v.id)).toEqual([ok.body.visit.id]);
  });

  it('staff cancel before and after the cut-off, and may waive the fee', async () => {
    const t = await setup({ capacity: 3, cancellationCutoffMinutes: 120 });
    await t.owner.patch(v4(t.studio, 'settings/booking'), { lateCancelFee: 2000 });
    const b = await t.addClient(true, 'Bogna');
    const enrol = v4(t.studio, `schedule-event/${t.eventId}/enrollment/enroll`);
    const v1 = (await t.owner.post(enrol, { clientId: t.client.id })).body.visit.id;
    const v2id = (await t.owner.post(enrol, { clientId: b.user.id })).body.visit.id;
    const status = v4(t.studio, 'client-enrollment/status');
    const early = await t.owner.post(status, { clientVisitIds: [v1], action: 'cancel' });
    expect(early.body.items[0]).toMatchObject({ status: 3, fees: [] });
    clock.set(new Date(START.getTime() - 60 * 60_000));
    const late = await t.owner.post(status, { clientVisitIds: [v2id], action: 'cancel', chargeFee: false });
    expect(late.body.items[0]).toMatchObject({ status: 5, fees: [] });
    expect(await entriesUsed(t.owner, t.studio.id, b.user.id, b.passId!)).toBe(1);
  });
});

describe('public API', () => {
  it('books and cancels with an API key; no key is 401; another studio’s class is 404', async () => {
    const t = await setup();
    const key = await t.addApiKey();
    const anon = new HttpClient(app.url);
    const path = '/api/v2/public/classroom/book';
    const noKey = await anon.request(
      'POST',
      path,
      { scheduleEventId: t.eventId, userId: t.client.id },
      {
        noDefaults: true,
      },
    );
    expect(noKey.status).toBe(401); // no key: the integrations gate refuses it before anything else
    const badKey = await anon.request(
      'POST',
      path,
      { scheduleEventId: t.eventId, userId: t.client.id },
      {
        noDefaults: true,
        headers: { 'x-api-key': 'sk_wrong_0000000000000000' },
      },
    );
    expect(badKey.status).toBe(401);
    expect(badKey.body.error.key).toBe('apiKey.invalid');
    const bad = await anon.request(
      'POST',
      path,
      { scheduleEventId: 'x' },
      { noDefaults: true, headers: { 'x-api-key': key } },
    );
    expect(bad.status).toBe(400);
    const ok = await anon.request(
      'POST',
      path,
      { scheduleEventId: t.eventId, userId: t.client.id },
      {
        noDefaults: true,
        headers: { 'x-api-key': key },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 0, outcome: 'booked', userId: t.client.id });
    const other = await setup();
    const foreign = await anon.request(
      'POST',
      path,
      { scheduleEventId: other.eventId, userId: t.client.id },
      {
        noDefaults: true,
        headers: { 'x-api-key': key },
      },
    );
    expect(foreign.status).toBe(404);
    const cancel = await anon.request(
      'POST',
      '/api/v2/public/classroom/cancel',
      { clientVisitId: ok.body.id },
      {
        noDefaults: true,
        headers: { 'x-api-key': key },
      },
    );
    expect(cancel.body).toMatchObject({ status: 4, outcome: 'earlyCancel' });
  });
});

describe('every route: 401, 400, 403 and another studio', () => {
  it('answers as the standards say', async () => {
    const t = await setup();
    const anon = await HttpClient.anonymous(app.url);
    const visit = (await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId }))
      .body.visit.id;
    const e = t.eventId;
    const staffRoutes: Array<{
      method: 'GET' | 'POST' | 'PATCH';
      path: string;
      body?: unknown;
      bad?: unknown;
    }> = [
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/enrollment/enroll`),
        body: { clientId: t.client.id },
        bad: { clientId: 'x' },
      },
      { method: 'GET', path: v4(t.studio, `schedule-event/${e}/enrollments/init`) },
      { method: 'GET', path: v2(t.studio, `schedule-events/${e}/client-visits`) },
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/check-in`),
        body: { clientId: t.client.id },
        bad: {},
      },
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/waiting-list/promote`),
        body: { clientVisitId: visit },
        bad: { clientVisitId: 1 },
      },
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/waiting-list/move`),
        body: { clientVisitId: visit, position: 1 },
        bad: { clientVisitId: visit, position: 0 },
      },
      {
        method: 'POST',
        path: v4(t.studio, 'client-enrollment/status'),
        body: { clientVisitIds: [visit], action: 'present' },
        bad: { clientVisitIds: [], action: 'fly' },
      },
      {
        method: 'GET',
        path: v4(t.studio, `enrollment/conflict?clientId=${t.client.id}&scheduleEventId=${e}`),
      },
      { method: 'GET', path: v4(t.studio, `client/${t.client.id}/client-visit/collection`) },
      { method: 'GET', path: v4(t.studio, 'settings/booking') },
      {
        method: 'PATCH',
        path: v4(t.studio, 'settings/booking'),
        body: { noShowFee: 100 },
        bad: { noShowFee: -1 },
      },
    ];
    const accountant = await sessionClient(app, (await t.addStaff('accountant')).id);
    for (const r of staffRoutes) {
      expect((await anon.request(r.method, r.path, r.body)).status, `${r.path} anonymous`).toBe(401);
      if (r.bad !== undefined) {
        const res = await t.owner.request(r.method, r.path, r.bad);
        expect(res.status, `${r.path} bad input`).toBe(400);
        expect(Object.keys(res.body.error.fields ?? {}).length).toBeGreaterThan(0);
      }
      // Accountants hold no schedule abilities (settings/booking: settings.view is not theirs either).
      expect((await accountant.request(r.method, r.path, r.body)).status, `${r.path} accountant`).toBe(403);
      expect((await t.me.request(r.method, r.path, r.body)).status, `${r.path} client`).toBe(403);
      await expectHiddenFromOtherStudio(app, { method: r.method, path: r.path, body: r.body });
    }
    expect(
      (await t.owner.get(v4(t.studio, `enrollment/conflict?clientId=x&scheduleEventId=${e}`))).status,
    ).toBe(400);
    expect((await t.owner.get(v4(t.studio, `schedule-event/${uuidv7()}/enrollments/init`))).status).toBe(404);

    const clientRoutes: Array<{ path: string; body: unknown; bad: unknown }> = [
      {
        path: v4(t.studio, 'booking/classroom/book'),
        body: { scheduleEventId: e },
        bad: { scheduleEventId: 'x' },
      },
      { path: v4(t.studio, 'booking/classroom/cancel'), body: { clientVisitId: visit }, bad: {} },
      {
        path: v4(t.studio, 'booking/schedule'),
        body: { from: '2026-06-01', to: '2026-06-07' },
        bad: { from: '2026-06-07', to: '2026-06-01' },
      },
      { path: v4(t.studio, 'waitinglist'), body: { action: 'list' }, bad: { action: 'dance' } },
      { path: v4(t.studio, 'client-visits/init'), body: {}, bad: { when: 'soon' } },
    ];
    const staffOnly = await sessionClient(app, (await t.addStaff('manager')).id);
    for (const r of clientRoutes) {
      expect((await anon.post(r.path, r.body)).status, `${r.path} anonymous`).toBe(401);
      const bad = await t.me.post(r.path, r.bad);
      expect(bad.status, `${r.path} bad input`).toBe(400);
      expect((await staffOnly.post(r.path, r.body)).status, `${r.path} staff`).toBe(403);
      await expectHiddenFromOtherStudio(app, { method: 'POST', path: r.path, body: r.body });
    }
    // A client cannot touch another client's visit, nor a class of another studio.
    const b = await t.addClient(true, 'Bogna');
    const bc = await sessionClient(app, b.user.id);
    expect((await bc.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: visit })).status).toBe(
      404,
    );
    const other = await setup();
    expect(
      (await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: other.eventId })).status,
    ).toBe(404);
    expect(
      (
        await t.owner.post(v4(t.studio, `schedule-event/${e}/enrollment/enroll`), {
          clientId: other.client.id,
        })
      ).status,
    ).toBe(404);
  });
});
