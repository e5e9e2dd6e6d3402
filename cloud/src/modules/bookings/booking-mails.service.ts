import { frontOfficePath } from '../../../../shared/contracts/routes';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { formatPrice, POLISH_PRICE_NUMBER_FORMAT } from '../../../../shared/domain/money';
import { isLocale, type Locale } from '../../../../shared/i18n/locales';
import type { Db } from '../../db/knex';
import { tFor } from '../../i18n';
import type { JobContext } from '../../jobs/perform';
import { JOB_SCHEMA, bossConnection, enqueue, statements } from '../../jobs/queue';
import { messageIdFor, type MailMessage } from '../../mail/mailer';
import { formatDateLong, formatTime } from '../../../../shared/i18n/dates';

/**
 * Booking e-mails through the side-effect pipeline (`jobs/`): the services enqueue a `booking.mail`
 * job in the transaction that changes the visit; the job runner's worker sends it after the commit,
 * rendered from the visit as it is then. A rolled-back change never mails; a failed send is retried
 * with backoff (jobs/README.md).
 */
export type BookingMailKind =
  'confirmed' | 'cancelled' | 'promoted' | 'classCancelled' | 'waitingList' | 'eventMessage';

export interface CancelMailDetails {
  late: boolean;
  fee?: { amount: number; currency: string; forgiven: boolean };
}

/** A waiting-list mail: the place taken on joining (1-based). */
export interface WaitingMailDetails {
  position: number;
}

/** A message from the studio to everyone on a class (`enrollments/send-notification`). */
export interface EventMessageDetails {
  message: string;
}

type MailDetails = CancelMailDetails | WaitingMailDetails | EventMessageDetails | Record<string, never>;

/** The payload of a `booking.mail` job. */
export interface BookingMailJob {
  studioId: string;
  clientId: string;
  visitId: string;
  kind: BookingMailKind;
  details: MailDetails;
}

export async function enqueueBookingMail(
  trx: Db,
  studioId: string,
  clientId: string,
  visitId: string,
  kind: BookingMailKind,
  details: MailDetails = {},
): Promise<string> {
  return enqueue(trx, 'booking.mail', { studioId, clientId, visitId, kind, details });
}

/** Takes back a booking mail queued in this transaction (`bookVisit` guessed the outcome wrong). */
export async function dropBookingMail(trx: Db, jobId: string): Promise<void> {
  await statements.deleteJob('booking.mail', jobId, { db: bossConnection(trx) });
}

/**
 * `dropBookingMail` as a statement to embed (a data-modifying CTE of `bookVisit`'s one statement under
 * the class's lock, so taking the mail back costs no round trip): pg-boss's own `deleteJob` statement
 * (`DELETE FROM <schema>.job WHERE name = $1 AND id IN (…)`) for one job, its id in `:idParam`.
 */
export const dropBookingMailSql = (idParam: string) =>
  `delete from ${JOB_SCHEMA}.job where name = 'booking.mail' and id = ${idParam}`;

/** Many at once (a class cancelled for everyone on it). */
export async function enqueueBookingMails(
  trx: Db,
  studioId: string,
  rows: Array<{ clientId: string; visitId: string }>,
  kind: BookingMailKind,
  details: MailDetails = {},
): Promise<void> {
  for (const r of rows) await enqueueBookingMail(trx, studioId, r.clientId, r.visitId, kind, details);
}

interface PendingMail {
  kind: BookingMailKind;
  details: MailDetails;
  email: string;
  firstName: string;
  userLocale: string | null;
  notifyEmail: boolean | null;
  studioId: string;
  studioName: string;
  defaultLocale: string;
  timeZone: string;
  className: LocaleText;
  locationName: string;
  startsAt: Date;
  visitStatus: number;
}

/** The client's language: theirs when set, else the studio's, else English. */
export function mailLocale(userLocale: string | null, studioDefault: string): Locale {
  if (isLocale(userLocale)) return userLocale;
  const language = userLocale?.split('-')[0];
  if (isLocale(language)) return language;
  return isLocale(studioDefault) ? studioDefault : 'en';
}

/** The message of one booking mail, in the client's language and the studio's time zone. */
export function bookingMailMessage(mail: PendingMail, baseUrl: string): MailMessage {
  const locale = mailLocale(mail.userLocale, mail.defaultLocale);
  const t = tFor(locale);
  const startsAt = new Date(mail.startsAt);
  const vars: Record<string, string> = {
    name: mail.firstName || mail.email,
    studio: mail.studioName,
    className: resolveLocaleText(mail.className, locale, mail.defaultLocale),
    location: mail.locationName,
    date: formatDateLong(startsAt, locale, mail.timeZone),
    time: formatTime(startsAt, locale, mail.timeZone),
    link: `${baseUrl}${frontOfficePath(mail.studioId, 'visits')}`,
  };
  if (mail.kind === 'eventMessage') vars.message = (mail.details as EventMessageDetails).message ?? '';
  if (mail.kind === 'waitingList')
    vars.position = String((mail.details as WaitingMailDetails).position ?? '');
  let key: string = mail.kind;
  if (mail.kind === 'confirmed' && mail.visitStatus === 9) key = 'confirmedPayAtDesk';
  const parts = [t(`bookings:mail.${key}.body`, vars)];
  if (mail.kind === 'cancelled') {
    const details = mail.details as CancelMailDetails;
    if (!details.late) parts.push(t('bookings:mail.cancelled.early'));
    else if (!details.fee) parts.push(t('bookings:mail.cancelled.late'));
    else if (details.fee.forgiven) parts.push(t('bookings:mail.cancelled.lateFeeForgiven'));
    else
      parts.push(
        t('bookings:mail.cancelled.lateFee', {
          amount: formatPrice(
            details.fee.amount,
            details.fee.currency,
            locale === 'pl' ? POLISH_PRICE_NUMBER_FORMAT : {},
          ),
        }),
      );
  }
  parts.push(t('bookings:mail.footer', vars));
  return {
    to: mail.email,
    subject: t(`bookings:mail.${key}.subject`, vars),
    text: `${t('bookings:mail.greeting', vars)}\n\n${parts.join('\n\n')}\n`,
  };
}

/**
 * Sends one booking mail (the `booking.mail` job's handler), outside any transaction, through the
 * app's mailer. A client who turned e-mail notifications off (`user_profiles.notify_email`) gets
 * none; a waiting-list mail for a client no longer waiting (queued by a sync push, sent late) is
 * dropped. A visit deleted since (its studio erased) sends nothing.
 */
export async function performBookingMail(
  job: BookingMailJob,
  ctx: JobContext & { key: string },
): Promise<void> {
  const mail = (await ctx
    .knex('client_visits as v')
    .join('users as u', 'u.id', 'v.client_id')
    .leftJoin('user_profiles as p', 'p.user_id', 'v.client_id')
    .join('studios as st', 'st.id', 'v.studio_id')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .join('locations as l', 'l.id', 'e.location_id')
    .where({ 'v.id': job.visitId, 'v.studio_id': job.studioId })
    .first(
      'u.email',
      'u.first_name',
      'u.locale as user_locale',
      'p.notify_email',
      'st.id as studio_id',
      'st.name as studio_name',
      'st.default_locale',
      'st.time_zone',
      's.name as class_name',
      'l.name as location_name',
      'e.starts_at',
      'v.status as visit_status',
    )) as Omit<PendingMail, 'kind' | 'details'> | undefined;
  if (!mail) return;
  // A waiting-list mail sent late (queued by a sync push) would mislead once the client moved on.
  const stale = job.kind === 'waitingList' && mail.visitStatus !== 8;
  if (mail.notifyEmail === false || stale) return;
  const message = bookingMailMessage({ ...mail, kind: job.kind, details: job.details }, ctx.publicUrl());
  await ctx.mailer.send({ ...message, messageId: messageIdFor(ctx.key) });
}
