import type { EventEnrollments } from '../../../shared/contracts/api/bookings';
import { classBookingDefaults, type ScheduleInit } from '../../../shared/contracts/api/schedule';
import { DEFAULT_POLICIES } from '../../../shared/contracts/api/studio-admin';
import { CHECK_IN_OPENS_MINUTES, checkInOpensAt, walkInUntil } from '../../../shared/domain/bookings';
import { ServiceType } from '../../../shared/enums/services';
import { escapeLike, parseClientSearch, phoneMatchKey } from '../../../shared/domain/clients';
import type { LocalStore, Row } from '../sync/local-store';
import { CHECK_IN_WINDOW, type OfflineApiCache } from './offline-cache';

/**
 * Issue 26: what the desk answers offline for a person who never opened the screen online, and the
 * client search of several words.
 *
 * - `schedule/init` is the studio's timetable settings (zone, locations and rooms, services,
 *   instructors), the same for everyone at the desk: a person without their own kept copy gets the
 *   station's latest one (any person's), else one built from the mirror (instructors then come from
 *   nothing the mirror holds: the classes show no names rather than failing).
 * - `client-list/init` (filters, sorts, page sizes) likewise, but with the person's own client
 *   abilities (as the cloud last said, else view only) and no bulk actions: rights are never borrowed.
 * - A search is split the way the cloud splits it (`parseClientSearch`): every word must appear in
 *   the folded name/email/phone text ("nowak julia" finds Julia Nowak), a phone by its digits.
 */

/** Station-wide settings-like reads: one person's copy serves the others at this desk. */
export const STATION_WIDE_READS = new Set(['schedule/init', 'client/add/init', 'client-list/init']);

const list = (store: LocalStore, tbl: string): Row[] =>
  (
    store.db.prepare('select data from rows where tbl = ?').all(tbl) as Array<{
      data: string;
    }>
  )
    .map((r) => JSON.parse(r.data) as Row)
    .filter((r) => !r.archived_at);

const SERVICE_TYPES = new Set<string>(Object.values(ServiceType));

/** `schedule/init` from the mirror: locations with their rooms and the class services. */
export function scheduleInitFromMirror(store: LocalStore, timeZone: string): ScheduleInit {
  const rooms = list(store, 'location_rooms');
  return {
    timeZone,
    locations: list(store, 'locations')
      .sort((a, b) => String(a.name).localeCompare(String(b.name)))
      .map((l) => ({
        id: l.id,
        name: String(l.name ?? ''),
        addressLine: String(l.address_line ?? ''),
        postalCode: String(l.postal_code ?? ''),
        city: String(l.city ?? ''),
        pictureUrl: (l.picture_url as string | null) ?? null,
        rooms: rooms
          .filter((r) => r.location_id === l.id)
          .map((r) => ({
            id: r.id,
            locationId: l.id,
            name: String(r.name ?? ''),
            capacity: Number(r.capacity ?? 0),
          })),
      })),
    classServices: list(store, 'class_services')
      .filter((s) => SERVICE_TYPES.has(String(s.service_type)))
      .map((s) => ({
        id: s.id,
        name: (s.name as ScheduleInit['classServices'][number]['name']) ?? {},
        description: (s.description as ScheduleInit['classServices'][number]['description']) ?? {},
        serviceType: s.service_type as ScheduleInit['classServices'][number]['serviceType'],
        durationMinutes: Number(s.duration_minutes ?? 60),
        color: String(s.color ?? '#888888'),
        categoryId: (s.category_id as string | null) ?? null,
        experienceLevelId: (s.experience_level_id as string | null) ?? null,
      })),
    instructors: [],
    experienceLevels: [],
    pricingOptions: [],
    tags: [],
    // New classes are not created offline; the form shows the platform's defaults.
    bookingDefaults: classBookingDefaults(DEFAULT_POLICIES),
  };
}

/** The SQL condition and bindings of a client search on the mirror's `clients` rows (`data` JSON). */
export function clientSearchCondition(q: string): { sql: string; bindings: string[] } {
  const search = parseClientSearch(q);
  const text = `json_extract(data, '$.search_text')`;
  const like = (value: string) => `%${escapeLike(value)}%`;
  if (search.kind === 'empty') return { sql: '1 = 1', bindings: [] };
  if (search.kind === 'phone') {
    const prefixes = search.prefixes.map(() => `json_extract(data, '$.phone_key') like ? escape '\\'`);
    return {
      sql: `(${[`${text} like ? escape '\\'`, ...prefixes].join(' or ')})`,
      bindings: [like(search.infix), ...search.prefixes.map((p) => `${escapeLike(p)}%`)],
    };
  }
  return {
    sql: search.tokens.map(() => `${text} like ? escape '\\'`).join(' and '),
    bindings: search.tokens.map(like),
  };
}

/** Same email (folded) or same phone (match key) as another client of the mirror. */
export function sameContact(
  store: LocalStore,
  emailAddress: string | null,
  phone: string | null,
  except?: string,
): Row[] {
  const mail = emailAddress?.trim().toLowerCase() || null;
  const key = phoneMatchKey(phone);
  if (!mail && !key) return [];
  return (
    store.db
      .prepare(
        `select data from rows where tbl = 'clients'
           and ((? is not null and lower(json_extract(data, '$.email')) = ?)
             or (? is not null and json_extract(data, '$.phone_key') = ?))
         limit 20`,
      )
      .all(mail, mail, key, key) as Array<{ data: string }>
  )
    .map((x) => JSON.parse(x.data) as Row)
    .filter((c) => c.user_id !== except);
}

/** The studio's check-in opening and walk-in window as the last attendee list said (else the defaults). */
export function checkInWindow(
  cache: OfflineApiCache,
  event: Row,
): Pick<EventEnrollments, 'checkInOpensAt' | 'walkInUntil'> {
  const kept = cache.latestBody(CHECK_IN_WINDOW);
  const window = kept
    ? (JSON.parse(kept) as { checkInOpensMinutes: number; walkInMinutes: number | null })
    : { checkInOpensMinutes: CHECK_IN_OPENS_MINUTES, walkInMinutes: null };
  const startsAt = new Date(String(event.starts_at));
  const endsAt = new Date(String(event.ends_at));
  return {
    checkInOpensAt: checkInOpensAt(startsAt, window.checkInOpensMinutes).toISOString(),
    walkInUntil: walkInUntil({ startsAt, endsAt }, window.walkInMinutes).toISOString(),
  };
}
