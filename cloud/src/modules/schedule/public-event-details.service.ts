import type { LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import type { PublicEventDetails } from '../../../../shared/contracts/api/schedule';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { instructorsById } from './places-and-services.service';

interface DetailsRow {
  id: string;
  serviceId: string;
  serviceName: LocaleText;
  serviceColor: string;
  serviceType: PublicEventDetails['classService']['serviceType'];
  description: LocaleText;
  durationMinutes: number;
  level: string | null;
  locationId: string;
  locationName: string;
  roomId: string | null;
  roomName: string | null;
  instructorIds: string[];
  startsAt: Date;
  endsAt: Date;
  capacity: number;
  status: string;
  bookableOnline: boolean;
}

/**
 * One class of the public timetable with what a client wants to know before booking it: the class
 * service's description and experience level (issue 26). Same visibility as the timetable: hidden
 * and removed classes, and other studios' ids, are unknown.
 */
export async function publicEventDetails(
  db: Db,
  studioId: string,
  eventId: string,
): Promise<PublicEventDetails> {
  const row = (await db('schedule_events as e')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .join('locations as l', 'l.id', 'e.location_id')
    .leftJoin('location_rooms as r', 'r.id', 'e.room_id')
    .leftJoin('experience_levels as x', 'x.id', 's.experience_level_id')
    .where({ 'e.studio_id': studioId, 'e.id': eventId, 'e.is_hidden': false })
    .whereNot('e.status', 'removed')
    .first(
      'e.id',
      's.id as service_id',
      's.name as service_name',
      's.color as service_color',
      's.service_type',
      's.description',
      's.duration_minutes',
      'x.name as level',
      'l.id as location_id',
      'l.name as location_name',
      'e.room_id',
      'r.name as room_name',
      'e.instructor_ids',
      'e.starts_at',
      'e.ends_at',
      'e.capacity',
      'e.status',
      'e.bookable_online',
    )) as DetailsRow | undefined;
  if (!row) throw AppError.notFound();
  const people = await instructorsById(db, studioId, row.instructorIds);
  return {
    id: row.id,
    classService: {
      id: row.serviceId,
      name: row.serviceName,
      color: row.serviceColor,
      serviceType: row.serviceType,
    },
    location: { id: row.locationId, name: row.locationName },
    room: row.roomId && row.roomName ? { id: row.roomId, name: row.roomName } : null,
    instructors: row.instructorIds.flatMap((id) => {
      const p = people.get(id);
      return p ? [p] : [];
    }),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    capacity: row.capacity,
    cancelled: row.status === 'cancelled',
    bookableOnline: row.bookableOnline && row.status === 'scheduled',
    description: row.description,
    level: row.level,
    durationMinutes: row.durationMinutes,
  };
}
