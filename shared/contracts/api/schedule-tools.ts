import { z } from 'zod';
import { ServiceType } from '../../enums/services';
import { uuid } from './common';
import {
  ClassServiceSchema,
  ExperienceLevelSchema,
  InstructorSchema,
  LocationSchema,
  PricingOptionRefSchema,
  ScheduleEventSchema,
  ScheduleMetaSchema,
} from './schedule';

/**
 * The back office's class-service tools and editor "init" calls (spec §7 private v4):
 * `class-service/categorized`, `/assigned-to-schedule`, `/{classService}/find-attendees`,
 * `/{classService}/find-times`, `/{classService}/manager`, `class-service/restriction/init`,
 * `schedule-event/init`, `schedule-call-off/init`. See cloud/src/modules/schedule/README.md.
 */

export const CLASS_SERVICE_TOOL_LIMITS = {
  attendees: 50,
  times: 100,
  searchLength: 100,
} as const;

const int = (min: number, max: number) =>
  z.coerce
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);

// ------------------------------------------------------------------------------------ answers

export const CategorizedClassServicesSchema = z.object({
  categories: z.array(
    z.object({
      id: z.string(),
      name: z.record(z.string(), z.object({ value: z.string() }).optional()),
      position: z.number(),
      services: z.array(ClassServiceSchema),
    }),
  ),
  /** Services without a category (or whose category is archived). */
  uncategorized: z.array(ClassServiceSchema),
});
export type CategorizedClassServices = z.infer<typeof CategorizedClassServicesSchema>;

export const ClassServiceAttendeeSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** Visits that took a place (booked, present, absent, unpaid, late-cancelled). */
  visits: z.number(),
  attended: z.number(),
  lastVisitAt: z.string(),
});
export const ClassServiceAttendeeListSchema = z.object({
  items: z.array(ClassServiceAttendeeSchema),
  next: z.null(),
});
export type ClassServiceAttendeeList = z.infer<typeof ClassServiceAttendeeListSchema>;

export const ClassServiceTimeSchema = z.object({
  scheduleEventId: z.string(),
  scheduleMetaId: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  locationId: z.string(),
  locationName: z.string(),
  status: z.enum(['scheduled', 'cancelled']),
  hidden: z.boolean(),
  capacity: z.number(),
  taken: z.number(),
  waiting: z.number(),
});
export const ClassServiceTimeListSchema = z.object({
  items: z.array(ClassServiceTimeSchema),
  next: z.null(),
});
export type ClassServiceTimeList = z.infer<typeof ClassServiceTimeListSchema>;

export const ClassServiceManagerSchema = z.object({
  classService: ClassServiceSchema,
  metas: z.array(ScheduleMetaSchema),
  upcoming: z.object({ events: z.number(), nextStartsAt: z.string().nullable() }),
  /** The last 30 days (studio-agnostic elapsed days before now). */
  last30Days: z.object({
    events: z.number(),
    visits: z.number(),
    attended: z.number(),
    /** Places taken over places offered, 0–1; null when no class took place. */
    occupancy: z.number().nullable(),
  }),
});
export type ClassServiceManager = z.infer<typeof ClassServiceManagerSchema>;

/** Booking accessibility (spec §3): 0 disabled for all, 1 enabled for all, 2 disabled for tags, 3 enabled for tags. */
export const BOOKING_ACCESSIBILITY_CHOICES = [
  { value: 0, labelKey: 'enums:bookingAccessibility.0', needsTags: false },
  { value: 1, labelKey: 'enums:bookingAccessibility.1', needsTags: false },
  { value: 2, labelKey: 'enums:bookingAccessibility.2', needsTags: true },
  { value: 3, labelKey: 'enums:bookingAccessibility.3', needsTags: true },
] as const;

export const ClassServiceRestrictionInitSchema = z.object({
  classService: ClassServiceSchema.nullable(),
  accessibility: z.array(z.object({ value: z.number(), labelKey: z.string(), needsTags: z.boolean() })),
  tags: z.array(z.object({ id: z.string(), name: z.string() })),
  experienceLevels: z.array(ExperienceLevelSchema),
  pricingOptions: z.array(PricingOptionRefSchema),
  limits: z.object({
    bookingOpensHours: z.tuple([z.number(), z.number()]),
    minutesBefore: z.tuple([z.number(), z.number()]),
    tags: z.number(),
  }),
});
export type ClassServiceRestrictionInit = z.infer<typeof ClassServiceRestrictionInitSchema>;

export const ScheduleEventInitSchema = z.object({
  timeZone: z.string(),
  locations: z.array(LocationSchema),
  classServices: z.array(ClassServiceSchema),
  instructors: z.array(InstructorSchema),
  experienceLevels: z.array(ExperienceLevelSchema),
  /** The event being edited (`?scheduleEvent=`), else null. */
  event: ScheduleEventSchema.nullable(),
  /** The actions (`show`, `hide`, `cancel` …, path segments) the event accepts now; all for a new event. */
  actions: z.array(z.string()),
  editable: z.boolean(),
  limits: z.object({
    durationMinutes: z.tuple([z.number(), z.number()]),
    capacity: z.tuple([z.number(), z.number()]),
    waitingListSize: z.tuple([z.number(), z.number()]),
    instructors: z.number(),
  }),
});
export type ScheduleEventInit = z.infer<typeof ScheduleEventInitSchema>;

/** What the "called-off classes" screen needs: its filters and a default range for `schedule-call-off/collection`. */
export const ScheduleCallOffInitSchema = z.object({
  timeZone: z.string(),
  today: z.string(),
  /** Default query: the last 7 and the next 7 studio days. */
  from: z.string(),
  to: z.string(),
  maxDays: z.number(),
  locations: z.array(LocationSchema),
  classServices: z.array(ClassServiceSchema),
  instructors: z.array(InstructorSchema),
});
export type ScheduleCallOffInit = z.infer<typeof ScheduleCallOffInitSchema>;

// ------------------------------------------------------------------------------------ inputs

export const CategorizedQuerySchema = z.strictObject({ serviceType: z.enum(ServiceType).optional() });
export const FindAttendeesQuerySchema = z.strictObject({
  search: z.string().trim().max(CLASS_SERVICE_TOOL_LIMITS.searchLength, 'at most 100 characters').optional(),
  limit: int(1, CLASS_SERVICE_TOOL_LIMITS.attendees).default(20),
});
export type FindAttendeesQuery = z.infer<typeof FindAttendeesQuerySchema>;
export const FindTimesQuerySchema = z.strictObject({
  /** Only the times of one meta. */
  scheduleMetaId: uuid().optional(),
  includeCancelled: z.enum(['true', 'false']).default('false'),
  limit: int(1, CLASS_SERVICE_TOOL_LIMITS.times).default(20),
});
export type FindTimesQuery = z.infer<typeof FindTimesQuerySchema>;
export const RestrictionInitQuerySchema = z.strictObject({ classServiceId: uuid().optional() });
export const ScheduleEventInitQuerySchema = z.strictObject({ scheduleEvent: uuid().optional() });
