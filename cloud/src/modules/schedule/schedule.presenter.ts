import type {
  ClassServiceView,
  ExperienceLevelView,
  InstructorView,
  LocationView,
  PublicScheduleEvent,
  RoomView,
  ScheduleEventView,
  ScheduleMetaView,
} from '../../../../shared/contracts/api/schedule';
import type { LocaleText } from '../../../../shared/domain/locale-text';
import type { ScheduleEventStatus } from '../../../../shared/domain/schedule';
import type { ServiceType } from '../../../../shared/enums/services';

export interface RoomRow {
  id: string;
  locationId: string;
  name: string;
  capacity: number;
}
export interface LocationRow {
  id: string;
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  pictureUrl: string | null;
}
export interface ClassServiceRow {
  id: string;
  name: LocaleText;
  description: LocaleText;
  serviceType: ServiceType;
  durationMinutes: number;
  color: string;
  categoryId: string | null;
  experienceLevelId: string | null;
}
export interface ExperienceLevelRow {
  id: string;
  serviceType: ServiceType;
  name: string;
  position: number;
}
export interface PricingOptionRefRow {
  id: string;
  name: LocaleText;
  price: number;
}
export interface ScheduleMetaRow {
  id: string;
  classServiceId: string;
  serviceName: LocaleText;
  serviceColor: string;
  serviceType: ServiceType;
  locationId: string;
  roomId: string | null;
  instructorIds: string[];
  daysOfWeek: number[];
  startTime: string;
  durationMinutes: number;
  firstDate: string;
  lastDate: string | null;
  capacity: number;
  waitingListSize: number;
  bookingOpensHours: number | null;
  bookingClosesMinutes: number;
  cancellationCutoffMinutes: number;
  bookableOnline: boolean;
  bookingAccessibility: number;
  bookingTagIds: string[];
  experienceLevelId: string | null;
  createdAt: Date;
  updatedAt: Date;
}
export interface ScheduleEventRow {
  id: string;
  scheduleMetaId: string | null;
  occurrenceDate: string | null;
  classServiceId: string;
  serviceName: LocaleText;
  serviceColor: string;
  serviceType: ServiceType;
  locationId: string;
  locationName: string;
  roomId: string | null;
  roomName: string | null;
  instructorIds: string[];
  startsAt: Date;
  endsAt: Date;
  capacity: number;
  waitingListSize: number;
  status: ScheduleEventStatus;
  isHidden: boolean;
  bookableOnline: boolean;
  livestreamUrl: string | null;
  notes: string;
  editedAt: Date | null;
}

export const presentRoom = (r: RoomRow): RoomView => ({
  id: r.id,
  locationId: r.locationId,
  name: r.name,
  capacity: r.capacity,
});

export const presentLocation = (l: LocationRow, rooms: RoomRow[]): LocationView => ({
  id: l.id,
  name: l.name,
  addressLine: l.addressLine,
  postalCode: l.postalCode,
  city: l.city,
  pictureUrl: l.pictureUrl,
  rooms: rooms.filter((r) => r.locationId === l.id).map(presentRoom),
});

export const presentClassService = (s: ClassServiceRow): ClassServiceView => ({
  id: s.id,
  name: s.name,
  description: s.description ?? {},
  serviceType: s.serviceType,
  durationMinutes: s.durationMinutes,
  color: s.color,
  categoryId: s.categoryId,
  experienceLevelId: s.experienceLevelId,
});

export const presentExperienceLevel = (e: ExperienceLevelRow): ExperienceLevelView => ({
  id: e.id,
  serviceType: e.serviceType,
  name: e.name,
  position: e.position,
});

const serviceRef = (r: {
  classServiceId: string;
  serviceName: LocaleText;
  serviceColor: string;
  serviceType: ServiceType;
}) => ({
  id: r.classServiceId,
  name: r.serviceName,
  color: r.serviceColor,
  serviceType: r.serviceType,
});

export const presentMeta = (m: ScheduleMetaRow, pricingOptions: PricingOptionRefRow[]): ScheduleMetaView => ({
  id: m.id,
  classService: serviceRef(m),
  locationId: m.locationId,
  roomId: m.roomId,
  instructorIds: m.instructorIds,
  daysOfWeek: [...m.daysOfWeek].sort((a, b) => a - b),
  startTime: m.startTime,
  durationMinutes: m.durationMinutes,
  firstDate: m.firstDate,
  lastDate: m.lastDate,
  capacity: m.capacity,
  waitingListSize: m.waitingListSize,
  bookingOpensHours: m.bookingOpensHours,
  bookingClosesMinutes: m.bookingClosesMinutes,
  cancellationCutoffMinutes: m.cancellationCutoffMinutes,
  bookableOnline: m.bookableOnline,
  bookingAccessibility: m.bookingAccessibility,
  bookingTagIds: m.bookingTagIds,
  experienceLevelId: m.experienceLevelId,
  pricingOptions: pricingOptions.map((p) => ({ id: p.id, name: p.name, price: p.price })),
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

const instructorsOf = (ids: string[], people: Map<string, InstructorView>): InstructorView[] =>
  ids.flatMap((id) => {
    const person = people.get(id);
    return person ? [person] : [];
  });

export const presentEvent = (
  e: ScheduleEventRow,
  people: Map<string, InstructorView>,
  counts: Map<string, { taken: number; waiting: number }> = new Map(),
): ScheduleEventView => ({
  id: e.id,
  scheduleMetaId: e.scheduleMetaId,
  occurrenceDate: e.occurrenceDate,
  classService: serviceRef(e),
  locationId: e.locationId,
  locationName: e.locationName,
  roomId: e.roomId,
  roomName: e.roomName,
  instructors: instructorsOf(e.instructorIds, people),
  startsAt: e.startsAt.toISOString(),
  endsAt: e.endsAt.toISOString(),
  capacity: e.capacity,
  waitingListSize: e.waitingListSize,
  taken: counts.get(e.id)?.taken ?? 0,
  waiting: counts.get(e.id)?.waiting ?? 0,
  status: e.status,
  hidden: e.isHidden,
  bookableOnline: e.bookableOnline,
  livestreamUrl: e.livestreamUrl,
  notes: e.notes,
  edited: e.editedAt !== null,
});

/** The visitor's view: no notes, livestream link, hidden state or waiting-list internals. */
export const presentPublicEvent = (
  e: ScheduleEventRow,
  people: Map<string, InstructorView>,
): PublicScheduleEvent => ({
  id: e.id,
  classService: serviceRef(e),
  location: { id: e.locationId, name: e.locationName },
  room: e.roomId && e.roomName !== null ? { id: e.roomId, name: e.roomName } : null,
  instructors: instructorsOf(e.instructorIds, people),
  startsAt: e.startsAt.toISOString(),
  endsAt: e.endsAt.toISOString(),
  capacity: e.capacity,
  cancelled: e.status === 'cancelled',
  bookableOnline: e.bookableOnline && e.status === 'scheduled',
});
