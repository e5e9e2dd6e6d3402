import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { GoogleCalendarState } from '../../../../../shared/contracts/api/appointments';
import { resolveLocaleText, type LocaleText } from '../../../../../shared/domain/locale-text';
import { isLocale } from '../../../../../shared/i18n/locales';
import type { Config } from '../../../config';
import {
  decryptFieldValue,
  encryptFieldValue,
  fieldKeyring,
  type FieldKeyring,
} from '../../../crypto/field-crypto';
import type { Db, Knex } from '../../../db/knex';
import { enqueue } from '../../../jobs/queue';
import type { Studio } from '../../identity/index';
import {
  CalendarAuthError,
  calendarDriver,
  configureCalendarDriver,
  type CalendarEvent,
} from './calendar-driver';
import { googleCalendarDriver } from './google-driver';

/**
 * A member's Google Calendar connection (module README "Google Calendar"): connecting (the OAuth
 * code flow: a pending row with the state's hash, Google's consent, the callback exchanging the
 * code), pushing their appointments (the `appointment.calendar-push` job: inserts, updates and
 * deletes events so the calendar shows the appointments that hold time), disconnecting (revoke).
 */

const STATE_MINUTES = 15;
/** Statuses shown in the calendar; every other one removes the event. */
const SHOWN = ['pending', 'booked', 'present', 'absent'];
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const CALLBACK_PATH = '/api/v4/google-calendar/oauth/callback';

interface ConnectionRow {
  id: string;
  studioId: string;
  userId: string;
  status: 'pending' | 'connected' | 'revoked';
  returnTo: string;
  email: string | null;
  calendarId: string;
  accessToken: string | null;
  refreshToken: string | null;
  accessExpiresAt: Date | null;
}

/** A path in this app to come back to (never another origin). */
export function safeReturnTo(path: string | undefined): string {
  return path && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') ? path : '/';
}

/** The member's connection; when not connected, a fresh authorization URL (a new pending state). */
export async function googleCalendarState(
  db: Db,
  studio: Studio,
  userId: string,
  origin: string,
  returnTo: string | undefined,
  now: Date,
): Promise<GoogleCalendarState> {
  const driver = calendarDriver();
  const row = (await db('google_calendar_connections').where({ studioId: studio.id, userId }).first()) as
    ConnectionRow | undefined;
  if (row?.status === 'connected')
    return { available: Boolean(driver), connected: true, email: row.email, authorizeUrl: null };
  if (!driver) return { available: false, connected: false, email: null, authorizeUrl: null };
  const state = randomBytes(32).toString('base64url');
  const fields = {
    status: 'pending',
    stateHash: sha256(state),
    stateExpiresAt: new Date(now.getTime() + STATE_MINUTES * 60_000),
    returnTo: safeReturnTo(returnTo),
    updatedAt: now,
  };
  await db('google_calendar_connections')
    .insert({ id: uuidv7(), studioId: studio.id, userId, ...fields })
    .onConflict(['studio_id', 'user_id'])
    .merge(fields);
  return {
    available: true,
    connected: false,
    email: null,
    authorizeUrl: driver.authorizeUrl(state, `${origin}${CALLBACK_PATH}`),
  };
}

/**
 * Google's redirect back: the state names the pending connection; the code becomes tokens. Answers
 * where to send the browser (the page that started it, with `calendar=connected|failed`).
 */
export async function completeGoogleConnection(
  knex: Knex,
  query: { code?: string; state?: string; error?: string },
  origin: string,
  now: Date,
): Promise<string> {
  const row = query.state
    ? ((await knex('google_calendar_connections')
        .where({ stateHash: sha256(query.state), status: 'pending' })
        .where('stateExpiresAt', '>', now)
        .first()) as ConnectionRow | undefined)
    : undefined;
  if (!row) return '/?calendar=failed';
  const back = (outcome: string) =>
    `${row.returnTo}${row.returnTo.includes('?') ? '&' : '?'}calendar=${outcome}`;
  const driver = calendarDriver();
  if (query.error || !query.code || !driver) {
    await knex('google_calendar_connections')
      .where({ id: row.id })
      .update({ stateHash: null, updatedAt: now });
    return back('failed');
  }
  let tokens;
  try {
    tokens = await driver.exchangeCode(query.code, `${origin}${CALLBACK_PATH}`);
  } catch {
    await knex('google_calendar_connections')
      .where({ id: row.id })
      .update({ stateHash: null, updatedAt: now });
    return back('failed');
  }
  await knex.transaction(async (trx) => {
    await trx('google_calendar_connections')
      .where({ id: row.id })
      .update({
        status: 'connected',
        stateHash: null,
        stateExpiresAt: null,
        email: tokens.email,
        accessToken: sealToken(row, tokens.accessToken),
        refreshToken: sealToken(row, tokens.refreshToken),
        accessExpiresAt: tokens.expiresAt,
        lastError: null,
        connectedAt: now,
        updatedAt: now,
      });
    // A new grant: push everything again (events of an earlier grant are forgotten).
    await trx('google_calendar_events').where({ connectionId: row.id }).delete();
    await enqueue(trx, 'appointment.calendar-push', { connectionId: row.id });
  });
  return back('connected');
}

/** Disconnecting: the grant is revoked at Google (best effort) and the connection forgotten. */
export async function disconnectGoogleCalendar(db: Db, studio: Studio, userId: string): Promise<void> {
  const row = (await db('google_calendar_connections').where({ studioId: studio.id, userId }).first()) as
    ConnectionRow | undefined;
  if (!row) return;
  await db('google_calendar_connections').where({ id: row.id }).delete();
  const token = openToken(row, row.refreshToken) ?? openToken(row, row.accessToken);
  // The call to Google goes through the job pipeline (after the commit, retried).
  if (token) await enqueue(db, 'appointment.calendar-revoke', { token });
}

/** The revoke job: Google forgets the grant (an unknown token is as good as revoked). */
export async function performCalendarRevoke(token: string): Promise<void> {
  const driver = calendarDriver();
  if (driver) await driver.revoke(token);
}

/** After an appointment changed: a push job for each connected calendar of its member and client. */
export async function queueCalendarPush(
  db: Db,
  studioId: string,
  userIds: Array<string | null | undefined>,
): Promise<void> {
  const ids = userIds.filter((u): u is string => Boolean(u));
  if (ids.length === 0) return;
  const rows = (await db('google_calendar_connections')
    .where({ studioId, status: 'connected' })
    .whereIn('userId', ids)
    .select('id')) as Array<{ id: string }>;
  for (const r of rows) await enqueue(db, 'appointment.calendar-push', { connectionId: r.id });
}

interface PushRow {
  id: string;
  status: string;
  startsAt: Date;
  endsAt: Date;
  memberId: string;
  clientId: string | null;
  online: boolean;
  serviceName: LocaleText;
  memberFirst: string;
  memberLast: string;
  clientFirst: string | null;
  clientLast: string | null;
  locationName: string | null;
  externalId: string | null;
  fingerprint: string;
}

/**
 * The push job: the member's appointments from yesterday on whose event is missing or out of date
 * (a fingerprint of status, times and people) are inserted or updated; ones that no longer hold
 * time are deleted. A refused access token is refreshed once; a withdrawn grant marks the
 * connection `revoked` (no retry). Other failures throw: the job is retried.
 */
export async function performCalendarPush(knex: Knex, connectionId: string, now: Date): Promise<number> {
  const driver = calendarDriver();
  const conn = (await knex('google_calendar_connections').where({ id: connectionId }).first()) as
    ConnectionRow | undefined;
  if (!driver || !conn || conn.status !== 'connected') return 0;
  const studio = (await knex('studios').where({ id: conn.studioId }).first()) as Studio;
  const rows = (await knex.raw(
    `select a.id, a.status, a.starts_at, a.ends_at, a.member_id, a.client_id, a.online,
            s.name as service_name, m.first_name as member_first, m.last_name as member_last,
            c.first_name as client_first, c.last_name as client_last, l.name as location_name,
            e.external_id, md5(concat_ws('|', a.status, a.starts_at, a.ends_at, a.member_id, a.client_id, a.service_id)) as fingerprint
       from client_appointments a
       join appointment_services s on s.id = a.service_id
       join users m on m.id = a.member_id
       left join users c on c.id = a.client_id
       left join locations l on l.id = a.location_id
       left join google_calendar_events e on e.client_appointment_id = a.id and e.connection_id = :conn
      where a.studio_id = :studio and (a.member_id = :user or a.client_id = :user)
        and a.ends_at > :since
        and (e.fingerprint is distinct from md5(concat_ws('|', a.status, a.starts_at, a.ends_at, a.member_id, a.client_id, a.service_id)))
        and (a.status in (${SHOWN.map((x) => `'${x}'`).join(', ')}) or e.external_id is not null)
      order by a.starts_at limit 500`,
    { conn: conn.id, studio: conn.studioId, user: conn.userId, since: new Date(now.getTime() - 86_400_000) },
  )) as { rows: Array<Record<string, unknown>> };
  const items = rows.rows.map(
    (r) =>
      ({
        id: r.id,
        status: r.status,
        startsAt: new Date(r.starts_at as string),
        endsAt: new Date(r.ends_at as string),
        memberId: r.member_id,
        clientId: r.client_id,
        online: r.online,
        serviceName: r.service_name,
        memberFirst: r.member_first,
        memberLast: r.member_last,
        clientFirst: r.client_first,
        clientLast: r.client_last,
        locationName: r.location_name,
        externalId: r.external_id,
        fingerprint: r.fingerprint,
      }) as PushRow,
  );
  if (items.length === 0) return 0;

  let accessToken = openToken(conn, conn.accessToken) ?? '';
  const refresh = async () => {
    const refreshToken = openToken(conn, conn.refreshToken);
    if (!refreshToken) throw new CalendarAuthError('no refresh token');
    const fresh = await driver.refresh(refreshToken);
    accessToken = fresh.accessToken;
    await knex('google_calendar_connections')
      .where({ id: conn.id })
      .update({
        accessToken: sealToken(conn, accessToken),
        accessExpiresAt: fresh.expiresAt,
        updatedAt: now,
      });
  };
  const withAuth = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof CalendarAuthError)) throw e;
      await refresh();
      return call();
    }
  };
  const locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';
  let pushed = 0;
  try {
    if (!conn.accessExpiresAt || conn.accessExpiresAt.getTime() < now.getTime() + 60_000) await refresh();
    for (const a of items) {
      if (!SHOWN.includes(a.status)) {
        await withAuth(() => driver.deleteEvent(accessToken, conn.calendarId, a.externalId!));
        await knex('google_calendar_events')
          .where({ connectionId: conn.id, clientAppointmentId: a.id })
          .delete();
        pushed++;
        continue;
      }
      const service = resolveLocaleText(a.serviceName, locale, locale);
      const asStaff = a.memberId === conn.userId;
      const other = asStaff
        ? [a.clientFirst, a.clientLast].filter(Boolean).join(' ')
        : `${a.memberFirst} ${a.memberLast}`.trim();
      const event: CalendarEvent = {
        summary: other ? `${service} · ${other}` : service,
        description: `${studio.name}${a.status === 'pending' ? ' (awaiting confirmation)' : ''}`,
        location: a.online ? 'Online' : a.locationName,
        startsAt: a.startsAt,
        endsAt: a.endsAt,
        timeZone: studio.timeZone,
        tentative: a.status === 'pending',
      };
      let externalId = a.externalId;
      if (
        externalId &&
        !(await withAuth(() => driver.updateEvent(accessToken, conn.calendarId, externalId!, event)))
      )
        externalId = null;
      if (!externalId)
        externalId = await withAuth(() => driver.insertEvent(accessToken, conn.calendarId, event));
      await knex('google_calendar_events')
        .insert({
          connectionId: conn.id,
          clientAppointmentId: a.id,
          externalId,
          fingerprint: a.fingerprint,
          pushedAt: now,
        })
        .onConflict(['connection_id', 'client_appointment_id'])
        .merge(['externalId', 'fingerprint', 'pushedAt']);
      pushed++;
    }
  } catch (e) {
    if (!(e instanceof CalendarAuthError)) throw e;
    // The member withdrew the grant at Google: stop until they connect again.
    await knex('google_calendar_connections')
      .where({ id: conn.id })
      .update({ status: 'revoked', lastError: e.message.slice(0, 500), updatedAt: now });
  }
  return pushed;
}

let tokenKeys: (() => FieldKeyring) | null = null;

/**
 * Google's tokens at rest: encrypted with the server's field-encryption key (`FIELD_ENCRYPTION_KEY`,
 * as client fields, payment keys and webhook secrets), bound to the studio and the connection, so a
 * copied value does not open on another row. A database dump alone grants nobody's calendar.
 */
function tokenScope(row: Pick<ConnectionRow, 'id' | 'studioId'>) {
  return { studioId: row.studioId, fieldId: 'google-calendar-token', clientId: row.id };
}

function keys(): FieldKeyring {
  if (!tokenKeys) throw new Error('Google Calendar is not configured (configureGoogleCalendar)');
  return tokenKeys();
}

export function sealToken(row: Pick<ConnectionRow, 'id' | 'studioId'>, token: string | null): string | null {
  return token === null ? null : encryptFieldValue(keys(), tokenScope(row), token);
}

export function openToken(row: Pick<ConnectionRow, 'id' | 'studioId'>, stored: string | null): string | null {
  return stored === null ? null : (decryptFieldValue(keys(), tokenScope(row), stored) as string);
}

/** Called once by the app with its configuration. */
export function configureGoogleCalendar(
  config: Parameters<typeof configureCalendarDriver>[0] &
    Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'FIELD_ENCRYPTION_KEYS' | 'dataDir'>,
): void {
  configureCalendarDriver(config, googleCalendarDriver);
  tokenKeys = () => fieldKeyring(config);
}
