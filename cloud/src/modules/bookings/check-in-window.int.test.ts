import { describe, expect, it } from 'vitest';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * Check-in as it happens (issue 26): the studio sets when check-in opens and how long after the start
 * staff may still add a walk-in; the attendee list carries both instants (the screen's buttons and
 * messages follow them), attendance and enrolment apply the same rule, and a finished class never
 * says "cancelling now is late". Another studio cannot read or change the settings.
 */
const { app, clock } = useBookingsApp(120_000);
const MIN = 60_000;

describe('the studio check-in window and walk-ins', () => {
  it('opens check-in and closes walk-ins when the studio says; the list says so; a finished class is not late', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START, { capacity: 5 });
    const owner = await sessionClient(app, st.manager.id);
    const other = await bookingStudio(app, START);
    const stranger = await sessionClient(app, other.manager.id);

    // Defaults: an hour before, walk-ins until the end.
    const defaults = await owner.get(v4(st.studio, 'settings/booking'));
    expect(defaults.status, defaults.text).toBe(200);
    expect(defaults.body).toMatchObject({ checkInOpensMinutes: 60, walkInMinutes: null });
    const bad = await owner.patch(v4(st.studio, 'settings/booking'), {
      checkInOpensMinutes: -5,
      walkInMinutes: 99_999,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['checkInOpensMinutes', 'walkInMinutes']);
    const set = await owner.patch(v4(st.studio, 'settings/booking'), {
      checkInOpensMinutes: 30,
      walkInMinutes: 10,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ checkInOpensMinutes: 30, walkInMinutes: 10 });
    expect((await stranger.patch(v4(st.studio, 'settings/booking'), { walkInMinutes: 0 })).status).toBe(404);

    const list = async () => {
      const res = await owner.get(v4(st.studio, `schedule-event/${st.eventId}/enrollments/init`));
      expect(res.status, res.text).toBe(200);
      return res.body as { checkInOpensAt: string; walkInUntil: string; lateCancelNow: boolean };
    };
    expect(await list()).toMatchObject({
      checkInOpensAt: new Date(START.getTime() - 30 * MIN).toISOString(),
      walkInUntil: new Date(START.getTime() + 10 * MIN).toISOString(),
    });

    // 45 minutes before: booked, but "present" is refused (it opens 30 minutes before).
    clock.set(new Date(START.getTime() - 45 * MIN));
    const { user } = await st.addClient(true, 'Walk');
    const booked = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: user.id,
    });
    expect(booked.status, booked.text).toBe(200);
    const visitId = booked.body.visit.id as string;
    const present = () =>
      owner.post(v4(st.studio, 'client-enrollment/status'), { clientVisitIds: [visitId], action: 'present' });
    const early = await present();
    expect(early.status).toBe(409);
    expect(early.body.error.key).toBe('visit.tooEarly');
    expect(early.body.error.message).toContain('30 minutes');
    // 20 minutes before: open.
    clock.set(new Date(START.getTime() - 20 * MIN));
    expect((await present()).status).toBe(200);

    // Five minutes after the start a walk-in is added; fifteen minutes after, the window is closed.
    clock.set(new Date(START.getTime() + 5 * MIN));
    const walkIn = await st.addClient(true, 'Late');
    const added = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: walkIn.user.id,
    });
    expect(added.status, added.text).toBe(200);
    clock.set(new Date(START.getTime() + 15 * MIN));
    const tooLate = await st.addClient(true, 'Later');
    const refused = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: tooLate.user.id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('visit.classStarted');
    expect((await list()).lateCancelNow).toBe(true);

    // The class is over: cancelling is not "late" any more, there is nothing to cancel.
    clock.set(new Date(START.getTime() + 3 * 3_600_000));
    expect((await list()).lateCancelNow).toBe(false);
  });
});
