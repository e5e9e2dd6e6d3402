import type { ClientEditInit, ClientProfile } from '../../../shared/contracts/api/clients';
import type { EventEnrollments } from '../../../shared/contracts/api/bookings';
import type { StaffCalendar } from '../../../shared/contracts/api/appointments';
import { AppointmentsApi } from '../../../shared/contracts/http/appointments';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import type { LocalDatabase } from '../db/database';
import { isCallOf } from './offline-router';

/** Cached answers, by method and path after the studio (or the whole path for unscoped ones). */
const CACHED_READS = new Set([
  'POST backoffice/init',
  'GET schedule/init',
  'GET client-list/init',
  'GET client/add/init',
  'GET v4/auth/me',
]);
/** POSTs that only read (init, a search with a body): answered locally even after a failed attempt. */
const READ_POSTS = new Set(['backoffice/init', 'schedule/find']);
export const ENROLLMENT_CAN = 'enrollments.can';
/** The studio's check-in opening and walk-in window (minutes), read off the last attendee list. */
export const CHECK_IN_WINDOW = 'enrollments.window';
export const CLIENT_ABILITIES = 'client.abilities';
/** The performing staff of the last staff calendar (desktop/main/station/offline-appointments.ts). */
export const APPOINTMENT_STAFF = 'appointments.staff';
/** The edit form's options (sex options, tags) from the last `client/{user}/init` the cloud answered. */
export const CLIENT_EDIT_OPTIONS = 'client.editOptions';

/**
 * What the offline answers cannot compute, kept per person in `api_cache`: settings-like reads
 * (`schedule/init`, `client-list/init`, `client/add/init`, `auth/me`) answered as the cloud last
 * answered them, and what the person may do (from the enrolments, profile and edit-form answers).
 */
export class OfflineApiCache {
  constructor(private readonly db: LocalDatabase) {}

  /** The cache key of a call: the path after the studio, or the whole path for unscoped ones; null for other studios. */
  keyOf(pathOnly: string, studioUuid: string): string | null {
    if (pathOnly === 'v4/auth/me') return pathOnly;
    const prefix = `v4/${studioUuid}/`;
    return pathOnly.startsWith(prefix) ? pathOnly.slice(prefix.length) : null;
  }

  isCachedRead(method: string, key: string): boolean {
    return CACHED_READS.has(`${method} ${key}`);
  }

  isReadPost(key: string | null): boolean {
    return key !== null && READ_POSTS.has(key);
  }

  /** Keeps what the offline answers cannot compute: settings-like reads, and the person's abilities. */
  remember(userId: string, studioUuid: string, request: ApiRequestInput, response: ApiResponse): void {
    if (response.status !== 200 || response.encoding !== 'utf8') return;
    const pathOnly = request.path.split('?')[0] ?? '';
    const key = this.keyOf(pathOnly, studioUuid);
    if (key === null) return;
    const save = (k: string, body: string) =>
      this.db
        .prepare(
          `insert into api_cache (user_id, key, body, saved_at) values (?, ?, ?, ?)
           on conflict (user_id, key) do update set body = excluded.body, saved_at = excluded.saved_at`,
        )
        .run(userId, k, body, new Date().toISOString());
    const call = (entry: Parameters<typeof isCallOf>[0]) =>
      isCallOf(entry, request.method, pathOnly, studioUuid);
    try {
      if (this.isCachedRead(request.method, key)) save(key, response.body);
      else if (call(BookingsApi.getScheduleEventEnrollmentsInit)) {
        const list = JSON.parse(response.body) as EventEnrollments;
        save(ENROLLMENT_CAN, JSON.stringify(list.can));
        const starts = Date.parse(list.startsAt);
        const walkIn = Date.parse(list.walkInUntil);
        save(
          CHECK_IN_WINDOW,
          JSON.stringify({
            checkInOpensMinutes: Math.round((starts - Date.parse(list.checkInOpensAt)) / 60_000),
            // Ending with the class: no window of its own (or one as long as the class).
            walkInMinutes: walkIn >= Date.parse(list.endsAt) ? null : Math.round((walkIn - starts) / 60_000),
          }),
        );
      } else if (call(AppointmentsApi.eventInit))
        // The staff are not in the mirror: the offline calendar names them as the cloud last did.
        save(APPOINTMENT_STAFF, JSON.stringify((JSON.parse(response.body) as StaffCalendar).members));
      else if (call(ClientsApi.getClientProfile))
        save(CLIENT_ABILITIES, JSON.stringify((JSON.parse(response.body) as ClientProfile).abilities));
      else if (call(ClientsApi.getClientInit)) {
        const init = JSON.parse(response.body) as ClientEditInit;
        save(CLIENT_EDIT_OPTIONS, JSON.stringify({ sexOptions: init.sexOptions, tags: init.tags }));
      }
    } catch {
      // Not JSON of the expected shape: nothing worth keeping.
    }
  }

  /** The kept body (JSON text) of a key, or null. */
  body(userId: string, key: string): string | null {
    const row = this.db
      .prepare('select body from api_cache where user_id = ? and key = ?')
      .get(userId, key) as { body: string } | undefined;
    return row?.body ?? null;
  }

  /** The station's latest kept body of a key, whoever's it was (for station-wide settings, offline-desk.ts). */
  latestBody(key: string): string | null {
    const row = this.db
      .prepare('select body from api_cache where key = ? order by saved_at desc limit 1')
      .get(key) as { body: string } | undefined;
    return row?.body ?? null;
  }

  get<T>(userId: string, key: string): T | null {
    const body = this.body(userId, key);
    return body === null ? null : (JSON.parse(body) as T);
  }
}
