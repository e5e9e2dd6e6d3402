import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../mail/mailer';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient, type ClassRules } from './bookings-fixtures';

/**
 * Booking e-mails (confirmation, cancellation, waiting-list promotion, class cancelled) as the test
 * mailer captures them, in the client's language and honouring their e-mail consent; and the
 * late-cancel / no-show fees billed as orders, once.
 */
const { app, clock } = useBookingsApp();
const HOUR = 3_600_000;

const v2 = (s: { id: string }, path: string) => `/api/v2/${s.id}/${path}`;
/** The mails sent to `email` once the worker performed the jobs enqueued so far. */
const mailTo = async (email: string): Promise<MailMessage[]> => {
  await app.drainJobs();
  return app.mail.filter((m) => m.to === email);
};

async function setup(rules: ClassRules = {}, locale: 'en' | 'pl' | null = 'en') {
  clock.set(NOW);
  const st = await bookingStudio(app, START, rules);
  await app.knex('users').where({ id: st.client.id }).update({ locale });
  const owner = await sessionClient(app, st.manager.id);
  const me = await sessionClient(app, st.client.id);
  return { ...st, owner, me };
}

async function ordersOf(owner: Awaited<ReturnType<typeof sessionClient>>, studioId: string, userId: string) {
  const res = await owner.get(`/api/v4/${studioId}/client/${userId}/client-order/all`);
  expect(res.status).toBe(200);
  return res.body.items as Array<{ id: string; total: number; status: number; source: string }>;
}

describe('booking e-mails', () => {
  it('confirms a booking and its early cancellation in English, with the class, time and link', async () => {
    const t = await setup({}, 'en');
    const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(book.body.outcome).toBe('booked');
    const [confirmed] = await mailTo(t.client.email);
    expect(confirmed!.subject).toBe('Booked: Vinyasa, Wednesday, 3 June 2026 18:00');
    expect(confirmed!.text).toContain(
      'you are booked on Vinyasa on Wednesday, 3 June 2026 at 18:00 (Mokotów)',
    );
    expect(confirmed!.text).toContain(`${app.url}/${t.studio.id}/frontoffice/visits`);

    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: book.body.visit.id });
    const mails = await mailTo(t.client.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Cancelled: Vinyasa, Wednesday, 3 June 2026 18:00');
    expect(mails[1]!.text).toContain('The entry is back on your pass.');
  });

  it('writes in Polish to a Polish client, and in the studio’s language when the client chose none', async () => {
    const t = await setup({}, 'pl');
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const [mail] = await mailTo(t.client.email);
    expect(mail!.subject).toBe('Rezerwacja: Vinyasa, środa, 3 czerwca 2026 18:00');
    expect(mail!.text).toMatch(/^Dzień dobry /);

    // No locale of their own: the studio's default (the factories' studios speak Polish).
    const other = await t.addClient(true, 'Celina');
    await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/enrollment/enroll`), {
      clientId: other.user.id,
    });
    expect((await mailTo(other.user.email))[0]!.subject).toMatch(/^Rezerwacja: /);
  });

  it('tells a client joining the waiting list their place, and the first waiting client they got the place', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 2, cancellationCutoffMinutes: 0 });
    const bogna = await t.addClient(true, 'Bogna');
    const celina = await t.addClient(true, 'Celina');
    await app.knex('users').whereIn('id', [bogna.user.id, celina.user.id]).update({ locale: 'en' });
    await app.knex('users').where({ id: celina.user.id }).update({ locale: 'pl' });
    const mine = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const sessions: Array<Awaited<ReturnType<typeof sessionClient>>> = [];
    for (const c of [bogna, celina]) {
      const s = await sessionClient(app, c.user.id);
      sessions.push(s);
      expect(
        (await s.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId })).body.outcome,
      ).toBe('waitingList');
    }
    const [bognaWaiting] = await mailTo(bogna.user.email);
    expect(bognaWaiting!.subject).toBe('Waiting list: Vinyasa, Wednesday, 3 June 2026 18:00');
    expect(bognaWaiting!.text).toContain('place 1.');
    const [celinaWaiting] = await mailTo(celina.user.email);
    expect(celinaWaiting!.subject).toBe('Lista rezerwowa: Vinyasa, środa, 3 czerwca 2026 18:00');
    expect(celinaWaiting!.text).toContain('miejsce 2.');
    // The in-app notification the client sees in their inbox.
    const bognaInbox = async () =>
      (await sessions[0]!.get(v4(t.studio, 'user-notification/all'))).body.items as Array<{
        titleKey: string;
        values: Record<string, string>;
      }>;
    expect(await bognaInbox()).toEqual([
      expect.objectContaining({
        titleKey: 'bookings:notifications.waitingList',
        values: expect.objectContaining({ className: 'Vinyasa', position: '1' }),
      }),
    ]);

    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: mine.body.visit.id });
    const promoted = await mailTo(bogna.user.email);
    expect(promoted).toHaveLength(2);
    expect(promoted[1]!.subject).toBe('A place for you: Vinyasa, Wednesday, 3 June 2026 18:00');
    expect((await bognaInbox()).map((n) => n.titleKey)).toEqual([
      'bookings:notifications.promoted',
      'bookings:notifications.waitingList',
    ]);
    expect(await mailTo(celina.user.email)).toHaveLength(1);
  });

  it('a waiting-list mail still queued is not sent once the client is off the list', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 1 });
    const bogna = await t.addClient(true, 'Bogna');
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const before = (await mailTo(bogna.user.email)).length;
    const bs = await sessionClient(app, bogna.user.id);
    const joined = await bs.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(joined.body.outcome).toBe('waitingList');
    // The job is queued and not performed yet (as after a sync push) when the client leaves the list.
    await app
      .knex('client_visits')
      .where({ id: joined.body.visit.id })
      .update({ status: 4, waitingPosition: null });
    expect(await mailTo(bogna.user.email)).toHaveLength(before);
  });

  it('tells everyone on a class the studio cancelled', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 1 });
    const bogna = await t.addClient(true, 'Bogna');
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/enrollment/enroll`), {
      clientId: bogna.user.id,
    });
    // Staff put Bogna on the waiting list: told her place (a waiting-list mail still queued when
    // the class is cancelled is not sent: she is no longer waiting).
    expect((await mailTo(bogna.user.email)).map((m) => m.subject)).toEqual([
      'Lista rezerwowa: Vinyasa, środa, 3 czerwca 2026 18:00',
    ]);
    expect((await t.owner.post(v2(t.studio, `schedule-events/${t.eventId}/cancel`))).status).toBe(200);
    expect((await mailTo(t.client.email)).at(-1)!.subject).toBe(
      'Class cancelled: Vinyasa, Wednesday, 3 June 2026 18:00',
    );
    expect((await mailTo(t.client.email)).at(-1)!.text).toContain('has been cancelled by the studio');
    // Bogna was on the waiting list: told too.
    expect((await mailTo(bogna.user.email)).map((m) => m.subject)).toEqual([
      'Lista rezerwowa: Vinyasa, środa, 3 czerwca 2026 18:00',
      'Zajęcia odwołane: Vinyasa, środa, 3 czerwca 2026 18:00',
    ]);
  });

  it('sends nothing to a client who turned e-mail notifications off', async () => {
    const t = await setup();
    await app.knex('user_profiles').insert({ userId: t.client.id, notifyEmail: false });
    const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    expect(book.body.outcome).toBe('booked');
    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: book.body.visit.id });
    expect(await mailTo(t.client.email)).toEqual([]);
  });

  it('a refused booking mails nothing; a mail whose send failed is sent by its retry', async () => {
    const t = await setup({ capacity: 1, waitingListSize: 0 });
    await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const bogna = await t.addClient(true, 'Bogna');
    const b = await sessionClient(app, bogna.user.id);
    expect(
      (await b.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId })).status,
    ).toBe(409);
    expect(await mailTo(bogna.user.email)).toEqual([]);

    const second = await t.addEvent(new Date(START.getTime() + 24 * HOUR));
    const realSend = app.deps.mailer.send;
    app.deps.mailer.send = async () => {
      throw new Error('smtp down');
    };
    try {
      const ok = await b.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: second });
      expect(ok.body.outcome).toBe('booked'); // the booking stands though the mail failed
      expect(await mailTo(bogna.user.email)).toEqual([]);
    } finally {
      app.deps.mailer.send = realSend;
    }
    // The job failed and stays: its retry sends it.
    expect(await mailTo(bogna.user.email)).toEqual([
      expect.objectContaining({ subject: expect.stringMatching(/Vinyasa/) }),
    ]);
    // Sent once: another run finds nothing.
    expect(await mailTo(bogna.user.email)).toHaveLength(1);
  });
});

describe('late-cancel and no-show fees become orders', () => {
  it('a late cancel bills the fee once; an on-time cancel bills nothing; the mail names the fee', async () => {
    const t = await setup({ cancellationCutoffMinutes: 120 });
    await t.owner.patch(v4(t.studio, 'settings/booking'), { lateCancelFee: 2500 });
    const second = await t.addEvent(new Date(START.getTime() + 24 * HOUR));
    const a = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const b = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: second });

    // On time (two days before): nothing to pay.
    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: b.body.visit.id });
    expect(await ordersOf(t.owner, t.studio.id, t.client.id)).toEqual([]);

    clock.set(new Date(START.getTime() - HOUR));
    const late = await t.me.post(v4(t.studio, 'booking/classroom/cancel'), {
      clientVisitId: a.body.visit.id,
    });
    expect(late.body.outcome).toBe('lateCancel');
    const orders = await ordersOf(t.owner, t.studio.id, t.client.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: 2500, source: 'visit' });
    const detail = await t.owner.get(v4(t.studio, `client-order/${orders[0]!.id}`));
    expect(detail.body.lines).toEqual([
      expect.objectContaining({ kind: 'fee', refId: a.body.visit.id, quantity: 1, unitPrice: 2500 }),
    ]);
    expect(detail.body.lines[0].name).toMatch(/Vinyasa/);
    // A retried cancel changes nothing and bills nothing more.
    const again = await t.me.post(v4(t.studio, 'booking/classroom/cancel'), {
      clientVisitId: a.body.visit.id,
    });
    expect(again.status).toBe(409);
    expect(await ordersOf(t.owner, t.studio.id, t.client.id)).toHaveLength(1);
    expect((await mailTo(t.client.email)).at(-1)!.text).toContain('a late cancellation fee of 25 zł is due');
  });

  it('a no-show mark bills once however often attendance is corrected; a forgiven first offence bills nothing', async () => {
    const t = await setup({ capacity: 3 });
    await t.owner.patch(v4(t.studio, 'settings/booking'), { noShowFee: 4000, forgiveFirstOffence: true });
    const second = await t.addEvent(new Date(START.getTime() + 24 * HOUR), { capacity: 3 });
    const enrol = (eventId: string) =>
      t.owner.post(v4(t.studio, `schedule-event/${eventId}/enrollment/enroll`), { clientId: t.client.id });
    const first = (await enrol(t.eventId)).body.visit.id as string;
    const next = (await enrol(second)).body.visit.id as string;
    const status = v4(t.studio, 'client-enrollment/status');

    clock.set(new Date(START.getTime() + 2 * HOUR));
    const forgiven = await t.owner.post(status, { clientVisitIds: [first], action: 'absent' });
    expect(forgiven.body.items[0].fees).toEqual([
      expect.objectContaining({ kind: 'noShow', forgiven: true }),
    ]);
    expect(await ordersOf(t.owner, t.studio.id, t.client.id)).toEqual([]);

    clock.set(new Date(START.getTime() + 26 * HOUR));
    await t.owner.post(status, { clientVisitIds: [next], action: 'absent' });
    await t.owner.post(status, { clientVisitIds: [next], action: 'present' });
    await t.owner.post(status, { clientVisitIds: [next], action: 'absent' });
    const orders = await ordersOf(t.owner, t.studio.id, t.client.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: 4000 });

    // Waived by staff: nothing recorded, nothing billed.
    const third = await t.addEvent(new Date(START.getTime() + 48 * HOUR), { capacity: 3 });
    const v3 = (await enrol(third)).body.visit.id as string;
    clock.set(new Date(START.getTime() + 50 * HOUR));
    await t.owner.post(status, { clientVisitIds: [v3], action: 'absent', chargeFee: false });
    expect(await ordersOf(t.owner, t.studio.id, t.client.id)).toHaveLength(1);
  });
});
