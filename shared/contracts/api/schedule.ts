import { z } from 'zod';
import { isLocalDate, localDaysBetween } from '../../domain/entitlements/local-dates';
import { START_TIME_RE } from '../../domain/schedule/occurrences';
import { SCHEDULE_EVENT_STATUSES } from '../../domain/schedule/event-actions';
import { ServiceType } from '../../enums/services';
import { BookingAccessibility } from '../../enums/visits';
import { requiredText, text, uuid, calendarDate, instant } from './common';
import { PictureUploadSchema, type StudioPolicies } from './studio-admin';

/**
 * The timetable (spec §7): locations and rooms, class services and categories, experience levels,
 * schedule metas (the recurring definition of a class) and schedule events (its dated occurrences).
 * Back-office calls live under `/api/v4/{uuid}/...` and `/api/v2/{uuid}/...` as the spec places them;
 * the front office's `POST /api/v4/{uuid}/schedule` answers anyone (the public timetable).
 * Times are ISO instants (UTC); dates and the meta's start time are the studio's wall clock.
 */

export const SCHEDULE_LIMITS = {
  durationMinutes: [5, 24 * 60],
  capacity: [1, 1000],
  waitingListSize: [0, 1000],
  bookingOpensHours: [1, 24 * 365],
  minutesBefore: [0, 7 * 24 * 60],
  instructors: 10,
  tags: 100,
  pricingOptions: 100,
  bulkIds: 500,
  /** Longest span of one timetable read (days). */
  findDays: 42,
  /** Default and longest span of one generation (days). */
  generateDefaultDays: 56,
  generateMaxDays: 366,
  /** How far ahead of today a meta's first date may start, and how long it may run (days). */
  metaSpanDays: 2 * 366,
} as const;

const clamp = (value: number, [min, max]: readonly [number, number]) => Math.min(max, Math.max(min, value));

/**
 * The booking rules a new class starts from when its form leaves them out: the studio's policies
 * (Settings → Policies) as a schedule meta's columns, kept within what a meta may hold (a 14-day
 * free-cancellation policy becomes the meta's longest cut-off, 7 days).
 */
export function classBookingDefaults(policies: StudioPolicies) {
  return {
    bookingOpensHours: clamp(policies.bookingWindowDays * 24, SCHEDULE_LIMITS.bookingOpensHours),
    bookingClosesMinutes: clamp(policies.bookingCutoffMinutes, SCHEDULE_LIMITS.minutesBefore),
    cancellationCutoffMinutes: clamp(policies.cancellationCutoffMinutes, SCHEDULE_LIMITS.minutesBefore),
  };
}
export type ClassBookingDefaults = ReturnType<typeof classBookingDefaults>;

const int = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);
export const localDate = () => calendarDate();
const startTime = () => z.string().regex(START_TIME_RE, 'a time HH:MM');
const ids = (max: number) =>
  z
    .array(uuid())
    .max(max, `at most ${max}`)
    .refine((a) => new Set(a).size === a.length, 'listed twice');
const httpsUrl = () =>
  z
    .string()
    .trim()
    .max(1000)
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'a web address (https://…)');
const daysOfWeek = () =>
  z
    .array(int(1, 7))
    .min(1, 'choose at least one day')
    .max(7)
    .refine((a) => new Set(a).size === a.length, 'a day listed twice');
const bookingAccessibility = () => z.enum(BookingAccessibility);
/**
 * Days from a to b, or null when either is not a calendar day: object refinements also run when a
 * field failed, and its own field error already reports it.
 */
const daysBetween = (a: unknown, b: unknown): number | null =>
  typeof a === 'string' && typeof b === 'string' && isLocalDate(a) && isLocalDate(b)
    ? localDaysBetween(a, b)
    : null;
const TAGGED: readonly number[] = [BookingAccessibility.disabledForTags, BookingAccessibility.enabledForTags];

// ------------------------------------------------------------------------------------ views

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());

export const RoomSchema = z.object({
  id: z.string(),
  locationId: z.string(),
  name: z.string(),
  capacity: z.number(),
});
export type RoomView = z.infer<typeof RoomSchema>;

export const LocationSchema = z.object({
  id: z.string(),
  name: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  pictureUrl: z.string().nullable(),
  rooms: z.array(RoomSchema),
});
export type LocationView = z.infer<typeof LocationSchema>;
export const LocationListSchema = z.object({ items: z.array(LocationSchema), next: z.null() });
export const RoomListSchema = z.object({ items: z.array(RoomSchema), next: z.null() });
export const RoomInitSchema = z.object({ locations: z.array(LocationSchema) });

export const ClassServiceCategorySchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  position: z.number(),
});
export const ClassServiceSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  description: LocaleTextSchema,
  serviceType: z.enum(ServiceType),
  durationMinutes: z.number(),
  color: z.string(),
  categoryId: z.string().nullable(),
  experienceLevelId: z.string().nullable(),
});
export type ClassServiceView = z.infer<typeof ClassServiceSchema>;
export const ClassServiceListSchema = z.object({ items: z.array(ClassServiceSchema), next: z.null() });
export const ClassServiceCategoryListSchema = z.object({
  items: z.array(ClassServiceCategorySchema),
  next: z.null(),
});

export const ExperienceLevelSchema = z.object({
  id: z.string(),
  serviceType: z.enum(ServiceType),
  name: z.string(),
  position: z.number(),
});
export type ExperienceLevelView = z.infer<typeof ExperienceLevelSchema>;
export const ExperienceLevelListSchema = z.object({ items: z.array(ExperienceLevelSchema), next: z.null() });

export const InstructorSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });
export type InstructorView = z.infer<typeof InstructorSchema>;

const ServiceRefSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  color: z.string(),
  serviceType: z.enum(ServiceType),
});

export const PricingOptionRefSchema = z.object({ id: z.string(), name: LocaleTextSchema, price: z.number() });

export const ScheduleMetaSchema = z.object({
  id: z.string(),
  classService: ServiceRefSchema,
  locationId: z.string(),
  roomId: z.string().nullable(),
  instructorIds: z.array(z.string()),
  daysOfWeek: z.array(z.number()),
  startTime: z.string(),
  durationMinutes: z.number(),
  firstDate: z.string(),
  lastDate: z.string().nullable(),
  capacity: z.number(),
  waitingListSize: z.number(),
  bookingOpensHours: z.number().nullable(),
  bookingClosesMinutes: z.number(),
  cancellationCutoffMinutes: z.number(),
  bookableOnline: z.boolean(),
  bookingAccessibility: z.number(),
  bookingTagIds: z.array(z.string()),
  experienceLevelId: z.string().nullable(),
  pricingOptions: z.array(PricingOptionRefSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleMetaView = z.infer<typeof ScheduleMetaSchema>;
export const ScheduleMetaListSchema = z.object({ items: z.array(ScheduleMetaSchema), next: z.null() });

export const ScheduleEventSchema = z.object({
  id: z.string(),
  scheduleMetaId: z.string().nullable(),
  occurrenceDate: z.string().nullable(),
  classService: ServiceRefSchema,
  locationId: z.string(),
  locationName: z.string(),
  roomId: z.string().nullable(),
  roomName: z.string().nullable(),
  instructors: z.array(InstructorSchema),
  startsAt: z.string(),
  endsAt: z.string(),
  capacity: z.number(),
  waitingListSize: z.number(),
  /** Places taken (booked, present, absent, unconfirmed) and people on the waiting list (issue 26). */
  taken: z.number(),
  waiting: z.number(),
  status: z.enum(SCHEDULE_EVENT_STATUSES),
  hidden: z.boolean(),
  bookableOnline: z.boolean(),
  livestreamUrl: z.string().nullable(),
  notes: z.string(),
  edited: z.boolean(),
});
export type ScheduleEventView = z.infer<typeof ScheduleEventSchema>;
export const ScheduleEventListSchema = z.object({ items: z.array(ScheduleEventSchema), next: z.null() });

export const ScheduleInitSchema = z.object({
  timeZone: z.string(),
  locations: z.array(LocationSchema),
  classServices: z.array(ClassServiceSchema),
  instructors: z.array(InstructorSchema),
  experienceLevels: z.array(ExperienceLevelSchema),
  pricingOptions: z.array(PricingOptionRefSchema),
  tags: z.array(z.object({ id: z.string(), name: z.string() })),
  /** What a new class's booking rules start from (the studio's policies). */
  bookingDefaults: z.object({
    bookingOpensHours: z.number(),
    bookingClosesMinutes: z.number(),
    cancellationCutoffMinutes: z.number(),
  }),
});
export type ScheduleInit = z.infer<typeof ScheduleInitSchema>;

export const GenerateResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  created: z.number(),
  updated: z.number(),
  deleted: z.number(),
});
export type GenerateResult = z.infer<typeof GenerateResultSchema>;

export const BulkResultSchema = z.object({ items: z.array(ScheduleEventSchema), next: z.null() });

/** The front office's timetable: what a visitor may see, nothing staff-only. */
export const PublicScheduleEventSchema = z.object({
  id: z.string(),
  classService: ServiceRefSchema,
  location: z.object({ id: z.string(), name: z.string() }),
  room: z.object({ id: z.string(), name: z.string() }).nullable(),
  instructors: z.array(InstructorSchema),
  startsAt: z.string(),
  endsAt: z.string(),
  capacity: z.number(),
  cancelled: z.boolean(),
  bookableOnline: z.boolean(),
});
export type PublicScheduleEvent = z.infer<typeof PublicScheduleEventSchema>;
export const PublicScheduleSchema = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  items: z.array(PublicScheduleEventSchema),
  filters: z.object({
    locations: z.array(z.object({ id: z.string(), name: z.string() })),
    classServices: z.array(ServiceRefSchema),
    instructors: z.array(InstructorSchema),
  }),
});
export type PublicSchedule = z.infer<typeof PublicScheduleSchema>;

// ------------------------------------------------------------------------------------ inputs

export const ServiceTypeQuerySchema = z.strictObject({ serviceType: z.enum(ServiceType).optional() });

export const ExperienceLevelInputSchema = z.strictObject({
  serviceType: z.enum(ServiceType),
  name: requiredText(100),
  position: int(0, 1000).optional(),
});
export type ExperienceLevelInput = z.infer<typeof ExperienceLevelInputSchema>;
export const ExperienceLevelPatchSchema = z.strictObject({
  name: requiredText(100).optional(),
  position: int(0, 1000).optional(),
});
export type ExperienceLevelPatch = z.infer<typeof ExperienceLevelPatchSchema>;

/**
 * A location's picture: an uploaded image (`dataUrl`: checked, resized and stored like every studio
 * picture, issue 25), an https address, or null to remove it. Exactly one of the two fields.
 */
export const LocationPictureInputSchema = z
  .strictObject({
    pictureUrl: httpsUrl().nullable().optional(),
    dataUrl: PictureUploadSchema.shape.dataUrl.optional(),
  })
  .refine((v) => (v.pictureUrl === undefined) !== (v.dataUrl === undefined), {
    message: 'send either dataUrl or pictureUrl',
    path: ['dataUrl'],
  });

const metaFields = {
  locationId: uuid(),
  roomId: uuid().nullable(),
  instructorIds: ids(SCHEDULE_LIMITS.instructors),
  daysOfWeek: daysOfWeek(),
  startTime: startTime(),
  durationMinutes: int(...SCHEDULE_LIMITS.durationMinutes),
  firstDate: localDate(),
  lastDate: localDate().nullable(),
  capacity: int(...SCHEDULE_LIMITS.capacity),
  waitingListSize: int(...SCHEDULE_LIMITS.waitingListSize),
  bookingOpensHours: int(...SCHEDULE_LIMITS.bookingOpensHours).nullable(),
  bookingClosesMinutes: int(...SCHEDULE_LIMITS.minutesBefore),
  cancellationCutoffMinutes: int(...SCHEDULE_LIMITS.minutesBefore),
  bookableOnline: z.boolean(),
  bookingAccessibility: bookingAccessibility(),
  bookingTagIds: ids(SCHEDULE_LIMITS.tags),
  experienceLevelId: uuid().nullable(),
  pricingOptionIds: ids(SCHEDULE_LIMITS.pricingOptions),
};

type MetaShape = {
  firstDate?: string;
  lastDate?: string | null;
  bookingAccessibility?: number;
  bookingTagIds?: string[];
};
/** Rules across fields, checked on the merged meta (create, and patch over the stored meta). */
export function metaCrossFieldErrors(meta: MetaShape): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const span = daysBetween(meta.firstDate, meta.lastDate);
  if (span !== null) {
    if (span < 0) fields.lastDate = ['the last date is before the first date'];
    else if (span > SCHEDULE_LIMITS.metaSpanDays)
      fields.lastDate = ['at most two years after the first date'];
  }
  if (
    meta.bookingAccessibility !== undefined &&
    TAGGED.includes(meta.bookingAccessibility) &&
    (meta.bookingTagIds ?? []).length === 0
  )
    fields.bookingTagIds = ['choose at least one tag'];
  return fields;
}

function crossCheck(meta: MetaShape, ctx: z.RefinementCtx) {
  for (const [path, messages] of Object.entries(metaCrossFieldErrors(meta)))
    for (const message of messages) ctx.addIssue({ code: 'custom', path: [path], message });
}

export const ScheduleMetaCreateInputSchema = z
  .strictObject({
    ...metaFields,
    roomId: metaFields.roomId.default(null),
    instructorIds: metaFields.instructorIds.default([]),
    lastDate: metaFields.lastDate.default(null),
    waitingListSize: metaFields.waitingListSize.default(0),
    // Left out: the studio's booking defaults (classBookingDefaults).
    bookingOpensHours: metaFields.bookingOpensHours.optional(),
    bookingClosesMinutes: metaFields.bookingClosesMinutes.optional(),
    cancellationCutoffMinutes: metaFields.cancellationCutoffMinutes.optional(),
    bookableOnline: metaFields.bookableOnline.default(true),
    bookingAccessibility: metaFields.bookingAccessibility.default(BookingAccessibility.enabledForAll),
    bookingTagIds: metaFields.bookingTagIds.default([]),
    experienceLevelId: metaFields.experienceLevelId.default(null),
    pricingOptionIds: metaFields.pricingOptionIds.default([]),
  })
  .superRefine(crossCheck);
export type ScheduleMetaCreateInput = z.infer<typeof ScheduleMetaCreateInputSchema>;

export const ScheduleMetaPatchSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(metaFields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof metaFields]: z.ZodOptional<(typeof metaFields)[K]>;
    },
  )
  .superRefine(crossCheck);
export type ScheduleMetaPatch = z.infer<typeof ScheduleMetaPatchSchema>;

export const PricingOptionIdsInputSchema = z.strictObject({
  pricingOptionIds: ids(SCHEDULE_LIMITS.pricingOptions).refine((a) => a.length > 0, 'choose at least one'),
});

export const GenerateInputSchema = z
  .strictObject({
    scheduleMetaIds: ids(SCHEDULE_LIMITS.bulkIds).optional(),
    from: localDate().optional(),
    to: localDate().optional(),
  })
  .superRefine((v, ctx) => {
    const span = daysBetween(v.from, v.to);
    if (span !== null) {
      if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'before the first day' });
      else if (span >= SCHEDULE_LIMITS.generateMaxDays)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'at most a year' });
    }
  });
export type GenerateInput = z.infer<typeof GenerateInputSchema>;

const eventPatchFields = {
  locationId: uuid(),
  roomId: uuid().nullable(),
  instructorIds: ids(SCHEDULE_LIMITS.instructors),
  capacity: int(...SCHEDULE_LIMITS.capacity),
  waitingListSize: int(...SCHEDULE_LIMITS.waitingListSize),
  notes: text(1000),
};
export const ScheduleEventPatchSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(eventPatchFields).map(([k, v]) => [k, v.optional()])),
  startsAt: instant().optional(),
  durationMinutes: int(...SCHEDULE_LIMITS.durationMinutes).optional(),
} as { [K in keyof typeof eventPatchFields]: z.ZodOptional<(typeof eventPatchFields)[K]> } & {
  startsAt: z.ZodOptional<ReturnType<typeof instant>>;
  durationMinutes: z.ZodOptional<ReturnType<typeof int>>;
});
export type ScheduleEventPatch = z.infer<typeof ScheduleEventPatchSchema>;

/**
 * A move, resize or reassignment of a class may not double-book a room or an instructor (issue 26):
 * 409 `scheduleEvent.conflict` with one of these messages under `roomId` / `instructorIds` (a bulk
 * edit: under `ids.N`). The calendar translates them.
 */
export const SCHEDULE_CONFLICT = {
  room: 'the room is taken by another class at that time',
  instructor: 'an instructor teaches another class at that time',
} as const;

const bulkIds = () => ids(SCHEDULE_LIMITS.bulkIds).refine((a) => a.length > 0, 'choose at least one event');
export const BulkActionInputSchema = z.strictObject({ ids: bulkIds() });
export type BulkActionInput = z.infer<typeof BulkActionInputSchema>;
/** Bulk edit: the same change on many events (their own times stay). */
export const BulkPatchInputSchema = z.strictObject({
  ids: bulkIds(),
  patch: ScheduleEventPatchSchema.refine((p) => p.startsAt === undefined, {
    path: ['startsAt'],
    message: 'not in a bulk edit',
  }),
});
export type BulkPatchInput = z.infer<typeof BulkPatchInputSchema>;

export const LivestreamInputSchema = z.strictObject({ url: httpsUrl().nullable() });

const findFields = {
  from: localDate(),
  to: localDate(),
  locationId: uuid().optional(),
  roomId: uuid().optional(),
  classServiceId: uuid().optional(),
  instructorId: uuid().optional(),
};
function spanCheck(max: number) {
  return (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
    const span = daysBetween(v.from, v.to);
    if (span === null) return;
    if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'before the first day' });
    else if (span >= max) ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${max} days` });
  };
}
export const ScheduleFindInputSchema = z
  .strictObject({ ...findFields, includeRemoved: z.boolean().default(false) })
  .superRefine(spanCheck(SCHEDULE_LIMITS.findDays));
export type ScheduleFindInput = z.infer<typeof ScheduleFindInputSchema>;

export const PublicScheduleInputSchema = z
  .strictObject({
    from: localDate(),
    to: localDate(),
    locationId: uuid().optional(),
    classServiceId: uuid().optional(),
    instructorId: uuid().optional(),
  })
  .superRefine(spanCheck(SCHEDULE_LIMITS.findDays));
export type PublicScheduleInput = z.infer<typeof PublicScheduleInputSchema>;

/**
 * GET {uuid}/schedule-event/{scheduleEvent}/details (public): what a client reads before booking a
 * class of the timetable (issue 26): the class service's description and experience level beside
 * the time, place and instructors. Hidden and removed classes are unknown (404).
 */
export const PublicEventDetailsSchema = PublicScheduleEventSchema.extend({
  description: LocaleTextSchema,
  level: z.string().nullable(),
  durationMinutes: z.number(),
});
export type PublicEventDetails = z.infer<typeof PublicEventDetailsSchema>;
