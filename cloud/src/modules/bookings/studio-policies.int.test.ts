import { describe, expect, it } from 'vitest';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * Issue 25: the studio's booking defaults (Settings → Policies: booking window, booking cut-off,
 * free-cancellation cut-off) are what a new class starts from, so bookings of its classes follow
 * them; a class's own rules, when the form gives them, win.
 */
const { app, clock } = useBookingsApp();
const v2 = (s: { id: string }, path: string) => `/api/v2/${s.id}/${path}`;

describe("the studio's booking defaults", () => {
  it('new classes start from them and bookings follow them', async () => {
    clock.set(NOW); // Monday 1 June 2026, 12:00 Warsaw
    const st = await bookingStudio(app, START);
    const owner = await sessionClient(app, st.manager.id);
    const me = await sessionClient(app, st.client.id);
    const settings = await owner.patch(v4(st.studio, 'settings'), {
      bookingWindowDays: 2,
      bookingCutoffMinutes: 60,
      cancellationCutoffMinutes: 300,
    });
    expect(settings.status, settings.text).toBe(200);

    const init = await owner.get(v4(st.studio, 'schedule/init'));
    expect(init.body.bookingDefaults).toEqual({
      bookingOpensHours: 48,
      bookingClosesMinutes: 60,
      cancellationCutoffMinutes: 300,
    });

    const body = {
      locationId: st.locationId,
      daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
      startTime: '19:00',
      durationMinutes: 60,
      firstDate: '2026-06-02',
      lastDate: '2026-06-04',
      capacity: 5,
    };
    const meta = await owner.post(v2(st.studio, `class-services/${st.serviceId}/schedule-metas`), body);
    expect(meta.status, meta.text).toBe(201);
    expect(meta.body).toMatchObject({
      bookingOpensHours: 48,
      bookingClosesMinutes: 60,
      cancellationCutoffMinutes: 300,
    });
    // Rules the form gives win over the defaults.
    const own = await owner.post(v2(st.studio, `class-services/${st.serviceId}/schedule-metas`), {
      ...body,
      startTime: '07:00',
      bookingOpensHours: null,
      cancellationCutoffMinutes: 0,
    });
    expect(own.body).toMatchObject({
      bookingOpensHours: null,
      bookingClosesMinutes: 60,
      cancellationCutoffMinutes: 0,
    });

    await owner.post(v2(st.studio, 'schedule-events/generate'), {
      scheduleMetaIds: [meta.body.id],
      from: '2026-06-02',
      to: '2026-06-04',
    });
    const events = await owner.get(v2(st.studio, `schedule-metas/${meta.body.id}/schedule-events/all`));
    const on = (day: string) =>
      (events.body.items as Array<{ id: string; startsAt: string }>).find((e) => e.startsAt.startsWith(day))!
        .id;

    // Thursday 19:00 opens 48 hours before: not yet on Monday.
    const early = await me.post(v4(st.studio, 'booking/classroom/book'), {
      scheduleEventId: on('2026-06-04'),
    });
    expect(early.body.error?.key).toBe('visit.bookingNotOpen');
    const booked = await me.post(v4(st.studio, 'booking/classroom/book'), {
      scheduleEventId: on('2026-06-02'),
    });
    expect(booked.body).toMatchObject({ outcome: 'booked', visit: { cancelIsLate: false } });

    // Tuesday 15:00: four hours before the class, inside the five-hour free-cancellation cut-off.
    clock.set(new Date('2026-06-02T13:00:00Z'));
    const cancel = await me.post(v4(st.studio, 'booking/classroom/cancel'), {
      clientVisitId: booked.body.visit.id,
    });
    expect(cancel.body.outcome).toBe('lateCancel');

    // Tuesday 18:30: booking closed an hour before the start.
    clock.set(new Date('2026-06-02T16:30:00Z'));
    const late = await me.post(v4(st.studio, 'booking/classroom/book'), {
      scheduleEventId: on('2026-06-02'),
    });
    expect(late.body.error?.key).toBe('visit.bookingClosed');
  });
});
