import { describe, expect, it } from 'vitest';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { addJuneCourse, bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * Issue 25, `GET course/{slug}`: a course's page by its slug, for anyone (a visitor follows a link;
 * a signed-in client also sees whether they are on it). Public, so no 401/403: an unknown slug,
 * another studio's course and a malformed one are 404, an over-long slug 400.
 */
const { app, clock } = useBookingsApp();

describe('a course page by its slug', () => {
  it('finds the course from the list’s slug, for visitors and clients; nothing of another studio', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START);
    const other = await bookingStudio(app, START);
    const { courseMetaId } = await addJuneCourse(app, st, {
      name: { en: { value: 'Yoga for beginners' }, pl: { value: 'Joga dla początkujących' } },
      bookableOnline: true,
    });
    const me = await sessionClient(app, st.client.id);
    const list = await me.post(v4(st.studio, 'courses'), {});
    expect(list.status, list.text).toBe(200);
    const listed = list.body.items.find((c: { scheduleMetaId: string }) => c.scheduleMetaId === courseMetaId);
    // Named in the studio's default language (Polish here).
    const slug = listed.slug as string;
    expect(slug).toMatch(/^joga-dla-poczatkujacych-[0-9a-f]{10}$/);

    const visitor = await app.anonymous();
    const page = await visitor.get(v4(st.studio, `course/${slug}`));
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({
      scheduleMetaId: courseMetaId,
      slug,
      sessions: 3,
      enrolled: false,
      myVisits: 0,
      timeZone: 'Europe/Warsaw',
    });
    expect(page.body.classService.name.pl.value).toBe('Joga dla początkujących');

    const booked = await me.post(v4(st.studio, 'booking/course/book'), { scheduleMetaId: courseMetaId });
    expect(booked.status, booked.text).toBe(200);
    const mine = await me.get(v4(st.studio, `course/${slug}`));
    expect(mine.body).toMatchObject({ enrolled: true, myVisits: 3, canBook: false });

    // Renamed words still find it by its id digits; other studios and unknown ids do not.
    expect(
      (
        await visitor.get(
          v4(st.studio, `course/${slug.replace('joga-dla-poczatkujacych', 'yoga-for-beginners')}`),
        )
      ).status,
    ).toBe(200);
    expect((await visitor.get(v4(other.studio, `course/${slug}`))).status).toBe(404);
    expect((await visitor.get(v4(st.studio, 'course/yoga-for-beginners'))).status).toBe(404);
    expect((await visitor.get(v4(st.studio, 'course/yoga-0000000000'))).status).toBe(404);
    expect((await visitor.get(v4({ id: 'not-a-studio' }, `course/${slug}`))).status).toBe(404);
    expect((await visitor.get(v4(st.studio, `course/${'a'.repeat(130)}`))).status).toBe(400);
  });
});
