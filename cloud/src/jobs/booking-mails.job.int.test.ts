import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { createLogger } from '../logger';
import { bookVisit } from '../modules/bookings/bookings.service';
import { bookingStudio } from '../modules/bookings/bookings-fixtures';
import { Studio } from '../modules/identity/studio.model';
import { BOOKING_MAILS_DELIVER, bookingMailsDeliverJob } from './booking-mails.job';
import { JOBS, startJobRunner } from './runner';

/**
 * A booking made outside the booking routes (as the desktop's sync push does: the bookings service
 * in a transaction of its own, no route to deliver after the commit) leaves its confirmation in the
 * outbox; the periodic job sends it.
 */
let app: TestApp;
const clock = new ManualClock(new Date('2026-06-01T10:00:00Z'));
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

describe('booking mails job', () => {
  it('is one of the runner’s jobs, every minute and at start', () => {
    expect(JOBS).toContain(bookingMailsDeliverJob);
    expect(bookingMailsDeliverJob.cron).toBe('* * * * *');
    expect(bookingMailsDeliverJob.runOnStart).toBe(true);
  });

  it('sends the confirmation of a booking written without a route, once', async () => {
    const st = await bookingStudio(app, new Date('2026-06-03T16:00:00Z'));
    await app.knex('users').where({ id: st.client.id }).update({ locale: 'en' });
    const studio = (await Studio.query(app.knex).findById(st.studio.id))!;
    const { visitId } = await app.knex.transaction((trx) =>
      bookVisit(
        trx,
        studio,
        {
          actor: 'staff',
          actorUserId: st.manager.id,
          clientId: st.client.id,
          eventId: st.eventId,
          override: false,
          waitingListWanted: true,
        },
        clock.now(),
      ),
    );
    const pending = () =>
      app.knex('booking_mails').where({ clientVisitId: visitId }).whereNull('sent_at').count({ n: '*' });
    expect(Number((await pending())[0]!.n)).toBe(1);
    const mailsTo = () => app.mail.filter((m) => m.to === st.client.email);
    expect(mailsTo()).toEqual([]);

    const runner = await startJobRunner(
      {
        knex: app.knex,
        log: createLogger('silent', false),
        clock: app.clock,
        mailer: app.deps.mailer,
        publicUrl: () => app.url,
      },
      { jobs: [bookingMailsDeliverJob], pollingIntervalSeconds: 0.5 },
    );
    try {
      const deadline = Date.now() + 40_000;
      while (Date.now() < deadline && mailsTo().length === 0) await new Promise((r) => setTimeout(r, 250));
      expect(mailsTo()).toHaveLength(1);
      expect(mailsTo()[0]!.subject).toBe('Booked: Vinyasa, Wednesday, 3 June 2026 18:00');
      expect(mailsTo()[0]!.text).toContain(`${app.url}/${st.studio.id}/frontoffice/visits`);
      expect(Number((await pending())[0]!.n)).toBe(0);
      // Running again sends nothing new.
      await runner.trigger(BOOKING_MAILS_DELIVER);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(mailsTo()).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  }, 90_000);
});
