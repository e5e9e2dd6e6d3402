import { v7 as uuidv7 } from 'uuid';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { formatPrice, POLISH_PRICE_NUMBER_FORMAT } from '../../../../shared/domain/money';
import { isLocale, type Locale } from '../../../../shared/i18n/locales';
import type { Db, Knex } from '../../db/knex';
import type { Deps } from '../../http/context';
import type { defineRoute } from '../../http/route';
import { tFor } from '../../i18n';
import type { Logger } from '../../logger';
import type { Mailer, MailMessage } from '../../mail/mailer';

/**
 * Booking e-mails through an outbox (`booking_mails`, migration 0029): the services write a row in
 * the transaction that changes the visit; `deliverBookingMails` sends after the commit. A rolled-back
 * change never mails; a failed send stays pending and the next delivery (any request that books or
 * cancels, in any studio) retries it, up to MAX_ATTEMPTS.
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

const MAX_ATTEMPTS = 5;
/** A claimed row not sent within this time (the process died mid-send) may be claimed again. */
const LEASE_MS = 5 * 60_000;
const BATCH = 50;

/** Transactions that wrote outbox rows: their route delivers after the commit (others pay nothing). */
const enqueuedIn = new WeakSet<object>();

export async function enqueueBookingMail(
  trx: Db,
  studioId: string,
  clientId: string,
  visitId: string,
  kind: BookingMailKind,
  details: MailDetails = {},
): Promise<void> {
  enqueuedIn.add(trx);
  await trx('booking_mails').insert({
    id: uuidv7(),
    studioId,
    clientId,
    clientVisitId: visitId,
    kind,
    details: JSON.stringify(details),
  });
}

/** Many at once (a class cancelled for everyone on it): one insert. */
export async function enqueueBookingMails(
  trx: Db,
  studioId: string,
  rows: Array<{ clientId: string; visitId: string }>,
  kind: BookingMailKind,
  details: MailDetails = {},
): Promise<void> {
  if (rows.length === 0) return;
  enqueuedIn.add(trx);
  await trx('booking_mails').insert(
    rows.map((r) => ({
      id: uuidv7(),
      studioId,
      clientId: r.clientId,
      clientVisitId: r.visitId,
      kind,
      details: JSON.stringify(details),
    })),
  );
}

interface PendingMail {
  id: string;
  kind: BookingMailKind;
  details: MailDetails;
  attempts: number;
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

/** The message of one outbox row, in the client's language and the studio's time zone. */
export function bookingMailMessage(mail: PendingMail, baseUrl: string): MailMessage {
  const locale = mailLocale(mail.userLocale, mail.defaultLocale);
  const t = tFor(locale);
  const tag = locale === 'pl' ? 'pl-PL' : 'en-GB';
  const startsAt = new Date(mail.startsAt);
  const vars: Record<string, string> = {
    name: mail.firstName || mail.email,
    studio: mail.studioName,
    className: resolveLocaleText(mail.className, locale, mail.defaultLocale),
    location: mail.locationName,
    date: new Intl.DateTimeFormat(tag, {
      timeZone: mail.timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(startsAt),
    time: new Intl.DateTimeFormat(tag, {
      timeZone: mail.timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(startsAt),
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

export interface MailDeliveryDeps {
  knex: Knex;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
  now?: () => Date;
}

/**
 * Sends what the outbox holds: claims a batch (skip locked, so two deliveries never send one row
 * twice), sends each outside any transaction, records the result. A client who turned e-mail
 * notifications off (`user_profiles.notify_email`) gets none: the row is marked skipped.
 * Returns how many were sent.
 */
export async function deliverBookingMails(deps: MailDeliveryDeps): Promise<number> {
  let sent = 0;
  for (let round = 0; round < 20; round++) {
    const now = deps.now?.() ?? new Date();
    const claimed = (await deps.knex.raw(
      `update booking_mails set claimed_at = ?, attempts = attempts + 1
        where id in (
          select id from booking_mails
           where sent_at is null and attempts < ? and (claimed_at is null or claimed_at < ?)
           order by id limit ? for update skip locked)
        returning id`,
      [now, MAX_ATTEMPTS, new Date(now.getTime() - LEASE_MS), BATCH],
    )) as { rows: Array<{ id: string }> };
    const ids = claimed.rows.map((r) => r.id);
    if (ids.length === 0) break;
    const mails = (await deps
      .knex('booking_mails as b')
      .join('users as u', 'u.id', 'b.client_id')
      .leftJoin('user_profiles as p', 'p.user_id', 'b.client_id')
      .join('studios as st', 'st.id', 'b.studio_id')
      .join('client_visits as v', 'v.id', 'b.client_visit_id')
      .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
      .join('class_services as s', 's.id', 'e.class_service_id')
      .join('locations as l', 'l.id', 'e.location_id')
      .whereIn('b.id', ids)
      .orderBy('b.id')
      .select(
        'b.id',
        'b.kind',
        'b.details',
        'b.attempts',
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
      )) as PendingMail[];
    for (const mail of mails) {
      // A waiting-list mail sent late (queued by a sync push) would mislead once the client moved on.
      const stale = mail.kind === 'waitingList' && mail.visitStatus !== 8;
      if (mail.notifyEmail === false || stale) {
        await deps.knex('booking_mails').where({ id: mail.id }).update({ skipped: true, sentAt: now });
        continue;
      }
      try {
        await deps.mailer.send(bookingMailMessage(mail, deps.publicUrl));
        await deps.knex('booking_mails').where({ id: mail.id }).update({ sentAt: now });
        sent += 1;
      } catch (err) {
        deps.log.error({ err, bookingMail: mail.id }, 'booking mail not sent');
        await deps
          .knex('booking_mails')
          .where({ id: mail.id })
          .update({ claimedAt: null, lastError: String((err as Error)?.message ?? err).slice(0, 500) });
      }
    }
    if (ids.length < BATCH) break;
  }
  return sent;
}

export const mailDeliveryDeps = (deps: Deps): MailDeliveryDeps => ({
  knex: deps.knex,
  mailer: deps.mailer,
  log: deps.log,
  publicUrl: deps.config.publicUrl,
  now: () => deps.clock.now(),
});

/**
 * `defineRoute` for routes whose services may write booking mails: when the request's transaction
 * enqueued any, they are delivered after it commits (awaited, like the password-reset mail, so the
 * answer follows the send; a failed send is logged and retried by a later delivery).
 */
export function withBookingMails(define: typeof defineRoute): typeof defineRoute {
  return (router, spec) =>
    define(router, {
      ...spec,
      handle: async (input) => {
        const result = await spec.handle(input);
        if (enqueuedIn.has(input.db))
          input.afterCommit(async () => {
            await deliverBookingMails(mailDeliveryDeps(input.deps));
          });
        return result;
      },
    });
}
