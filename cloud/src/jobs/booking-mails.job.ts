import { deliverBookingMails } from '../modules/bookings/booking-mails.service';
import type { JobDefinition } from './runner';

export const BOOKING_MAILS_DELIVER = 'booking-mails-deliver';

/**
 * Booking e-mails left in the outbox (`booking_mails`, bookings README "E-mails"): rows written by
 * changes outside the booking routes (the desktop's sync push), and sends that failed after a
 * request's commit. Every minute, so a class booked at the desk offline is confirmed within a minute
 * of the station syncing; delivery claims rows with `skip locked`, so a run overlapping a request's
 * own delivery never sends a mail twice. Run at start: a restart should not hold mails back.
 */
export const bookingMailsDeliverJob: JobDefinition = {
  name: BOOKING_MAILS_DELIVER,
  cron: '* * * * *',
  runOnStart: true,
  run: async ({ knex, mailer, log, publicUrl, clock }) => {
    if (!mailer || !publicUrl) return { skipped: 'no mailer' };
    return {
      sent: await deliverBookingMails({ knex, mailer, log, publicUrl: publicUrl(), now: () => clock.now() }),
    };
  },
};
