import ical, { ICalEventStatus } from 'ical-generator';
import { v7 as uuidv7 } from 'uuid';
import type { CalendarFeed } from '../../../../shared/contracts/api/appointments';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { findStudio, newSecret, sha256, type Membership, type Studio } from '../identity/index';

/**
 * iCalendar feeds (issue 21): every member of staff and every client may subscribe to their own
 * appointments from a calendar app. The feed's URL carries a random secret; only its SHA-256 is
 * stored, so the URL is shown once when made. Making a new one replaces the old (the old URL stops
 * working); revoking deletes it. Appointments from 30 days back to a year ahead; cancelled ones are
 * sent as CANCELLED so calendar apps remove them.
 */
export type Audience = 'staff' | 'client';

export const audienceOf = (membership: Membership): Audience => (membership.isMember ? 'staff' : 'client');
const feedPath = (secret: string) => `/api/v4/appointment-calendar/${secret}.ics`;

export async function feedState(
  db: Db,
  studio: Studio,
  userId: string,
  audience: Audience,
): Promise<CalendarFeed> {
  const row = await db('appointment_calendar_feeds')
    .where({ studioId: studio.id, userId, audience })
    .first('id');
  return { active: Boolean(row), url: null, audience };
}

export async function makeFeed(
  db: Db,
  studio: Studio,
  userId: string,
  audience: Audience,
  baseUrl: string,
): Promise<CalendarFeed> {
  const secret = newSecret();
  await db('appointment_calendar_feeds').where({ studioId: studio.id, userId, audience }).delete();
  await db('appointment_calendar_feeds').insert({
    id: uuidv7(),
    studioId: studio.id,
    userId,
    audience,
    tokenHash: sha256(secret),
  });
  return { active: true, url: `${baseUrl}${feedPath(secret)}`, audience };
}

export async function revokeFeed(db: Db, studio: Studio, userId: string, audience: Audience): Promise<void> {
  await db('appointment_calendar_feeds').where({ studioId: studio.id, userId, audience }).delete();
}

/** The feed's calendar, or 404 for an unknown or revoked secret. */
export async function feedIcs(db: Db, token: string, now: Date): Promise<string> {
  const secret = token.replace(/\.ics$/, '');
  const feed = await db('appointment_calendar_feeds')
    .where({ tokenHash: sha256(secret) })
    .first();
  if (!feed) throw AppError.notFound('calendar feed');
  const studio = await findStudio(db, feed.studioId);
  if (!studio) throw AppError.notFound('calendar feed');
  const rows = await db('client_appointments as a')
    .join('appointment_services as s', 's.id', 'a.service_id')
    .join('users as m', 'm.id', 'a.member_id')
    .leftJoin('users as c', 'c.id', 'a.client_id')
    .leftJoin('locations as l', 'l.id', 'a.location_id')
    .where('a.studio_id', studio.id)
    .where(feed.audience === 'staff' ? 'a.member_id' : 'a.client_id', feed.userId)
    .whereNotIn('a.status', ['expired', 'reserved'])
    .where('a.starts_at', '>', new Date(now.getTime() - 30 * 86_400_000))
    .where('a.starts_at', '<', new Date(now.getTime() + 366 * 86_400_000))
    .orderBy('a.starts_at')
    .limit(2000)
    .select<
      Array<{
        id: string;
        startsAt: Date;
        endsAt: Date;
        status: string;
        online: boolean;
        updatedAt: Date;
        name: Record<string, { value: string } | undefined>;
        memberFirst: string;
        memberLast: string;
        clientFirst: string | null;
        clientLast: string | null;
        location: string | null;
      }>
    >(
      'a.id',
      'a.starts_at',
      'a.ends_at',
      'a.status',
      'a.online',
      'a.updated_at',
      's.name',
      'm.first_name as member_first',
      'm.last_name as member_last',
      'c.first_name as client_first',
      'c.last_name as client_last',
      'l.name as location',
    );
  const locale = studio.defaultLocale;
  const calendar = ical({
    name: studio.name,
    timezone: studio.timeZone,
    prodId: { company: 'studio-platform', product: 'appointments' },
  });
  for (const r of rows) {
    const service = r.name[locale]?.value ?? r.name.en?.value ?? Object.values(r.name)[0]?.value ?? '';
    const other =
      feed.audience === 'staff'
        ? `${r.clientFirst ?? ''} ${r.clientLast ?? ''}`.trim()
        : `${r.memberFirst} ${r.memberLast}`.trim();
    calendar.createEvent({
      id: `${r.id}@appointments.studio`,
      start: r.startsAt,
      end: r.endsAt,
      stamp: r.updatedAt,
      summary: other ? `${service} · ${other}` : service,
      location: r.online ? 'Online' : (r.location ?? undefined),
      status: ['cancelled', 'lateCancelled', 'rejected', 'calledOff'].includes(r.status)
        ? ICalEventStatus.CANCELLED
        : r.status === 'pending'
          ? ICalEventStatus.TENTATIVE
          : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
