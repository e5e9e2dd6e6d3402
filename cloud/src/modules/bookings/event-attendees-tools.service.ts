import { Readable } from 'node:stream';
import type { ClientVisitView } from '../../../../shared/contracts/api/bookings';
import { CSV_BOM, csvLine, type CsvDelimiter } from '../../../../shared/domain/clients';
import { resolveLocaleText } from '../../../../shared/domain/locale-text';
import { isLocale } from '../../../../shared/i18n/locales';
import type { Db } from '../../db/knex';
import { tFor } from '../../i18n';
import { notify } from '../client-accounts/index';
import type { Studio } from '../identity/index';
import { enqueueBookingMails } from './booking-mails.service';
import { readEvent } from './booking-facts.service';
import { eventEnrollments } from './bookings-views.service';
import { formatDateTime } from '../../../../shared/i18n/dates';

/**
 * Staff tools on one class's attendee list (spec §7 v4 schedule: `enrollments/export` and
 * `enrollments/send-notification`): the list as a spreadsheet, and a message to everyone on it.
 */

const NO_ABILITIES = { book: false, checkIn: false, overrideRules: false };

/**
 * The attendee list as CSV (UTF-8 with BOM) in the studio's language and time zone: attendees by
 * surname, then the waiting list in order, then the cancellations. One class is small: built whole.
 */
export async function enrollmentsCsv(
  db: Db,
  studio: Studio,
  eventId: string,
  delimiter: CsvDelimiter,
  now: Date,
): Promise<{ filename: string; body: Readable }> {
  const list = await eventEnrollments(db, studio, eventId, now, NO_ABILITIES);
  const locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
  const t = tFor(locale);
  const at = (iso: string | null) => (iso ? formatDateTime(iso, locale, studio.timeZone) : '');
  const paidWith = (v: ClientVisitView) => {
    const name = v.contract?.name ?? v.pass?.name;
    if (name) return resolveLocaleText(name, locale, studio.defaultLocale);
    return v.payment ? t(`bookings:export.payment.${v.payment}`) : '';
  };
  const header = [
    'lastName',
    'firstName',
    'email',
    'status',
    'waitingPosition',
    'paidWith',
    'bookedBy',
    'bookedAt',
    'checkedInAt',
  ].map((k) => t(`bookings:export.columns.${k}`));
  const rows = [...list.attendees, ...list.waitingList, ...list.cancelled].map((v) =>
    csvLine(
      [
        v.client.lastName,
        v.client.firstName,
        v.client.email,
        t(`enums:clientVisitStatus.${v.status}`),
        v.waitingPosition,
        paidWith(v),
        t(`bookings:bookedBy.${v.bookedBy}`),
        at(v.bookedAt),
        at(v.checkedInAt),
      ],
      delimiter,
    ),
  );
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: studio.timeZone }).format(new Date(list.startsAt));
  return {
    filename: `attendees-${day}.csv`,
    body: Readable.from([CSV_BOM + csvLine(header, delimiter) + rows.join('')]),
  };
}

/**
 * A message from the studio to everyone on a class (booked, present, absent, unconfirmed; the
 * waiting list when asked): an in-app notification and an e-mail (a `booking.mail` job),
 * in the caller's transaction. Returns how many clients were told.
 */
export async function messageAttendees(
  trx: Db,
  studio: Studio,
  eventId: string,
  message: string,
  includeWaitingList: boolean,
): Promise<number> {
  const event = await readEvent(trx, studio.id, eventId);
  const statuses = includeWaitingList ? [0, 1, 2, 8, 9] : [0, 1, 2, 9];
  const visits = (await trx('client_visits')
    .where({ studioId: studio.id, scheduleEventId: event.id })
    .whereIn('status', statuses)
    .orderBy('id')
    .select('id', 'client_id')) as Array<{ id: string; clientId: string }>;
  if (visits.length === 0) return 0;
  await enqueueBookingMails(
    trx,
    studio.id,
    visits.map((v) => ({ clientId: v.clientId, visitId: v.id })),
    'eventMessage',
    { message },
  );
  const className =
    event.serviceName[studio.defaultLocale]?.value ?? Object.values(event.serviceName)[0]?.value ?? '';
  for (const v of visits)
    await notify(trx, studio.id, v.clientId, 'eventMessage', 'bookings:notifications.eventMessage', {
      scheduleEventId: event.id,
      startsAt: event.startsAt.toISOString(),
      className,
      message,
    });
  return visits.length;
}
