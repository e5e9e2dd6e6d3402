import { z } from 'zod';
import { ServiceType } from '../../enums/services';
import { requiredText, text, uuid } from './common';
import { SCHEDULE_LIMITS } from './schedule';

/**
 * Setting up where and what a studio teaches (cloud/src/modules/places): locations with their
 * address and rooms, class service categories, class services (classroom and course) with their
 * defaults for new schedule metas, and experience level delete/reorder. Under `/api/v4/{uuid}/...`
 * (experience levels under `/api/v2/{uuid}/...` beside their create/edit). Reading needs
 * `schedule.view`; changing places and services `settings.edit`, experience levels `schedule.edit`.
 * Nothing is deleted: locations, rooms, categories and services are archived (kept for the classes
 * that used them, hidden from pickers) and can be restored.
 */

export const PLACES_LIMITS = {
  locationName: 200,
  addressLine: 200,
  postalCode: 20,
  city: 100,
  roomName: 200,
  serviceName: 120,
  serviceDescription: 2000,
  categoryName: 100,
  capacity: SCHEDULE_LIMITS.capacity,
  durationMinutes: SCHEDULE_LIMITS.durationMinutes,
  position: [0, 1000],
  reorderIds: 500,
} as const;

export const CLASS_SERVICE_TYPES = [ServiceType.classroom, ServiceType.course] as const;
export type ClassServiceType = (typeof CLASS_SERVICE_TYPES)[number];

const int = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);
const color = () =>
  z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #228be6')
    .toLowerCase();
/** A text the studio types per language: `{ en: { value }, pl: { value } }`; required = one filled. */
const localeText = (max: number, required: boolean) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => !required || Object.values(v).some((t) => t && t.value !== ''), 'required');
const statusQuery = () =>
  z.enum(['active', 'archived', 'all'], { error: 'active, archived or all' }).default('active');

export const PlacesStatusQuerySchema = z.strictObject({ status: statusQuery() });
export const ClassServiceAllQuerySchema = z.strictObject({
  status: statusQuery(),
  serviceType: z.enum(CLASS_SERVICE_TYPES, { error: 'classroom or course' }).optional(),
});

// ------------------------------------------------------------------------------------ views

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());

export const PlaceRoomSchema = z.object({
  id: z.string(),
  locationId: z.string(),
  name: z.string(),
  capacity: z.number(),
  archived: z.boolean(),
});
export type PlaceRoomView = z.infer<typeof PlaceRoomSchema>;

export const PlaceLocationSchema = z.object({
  id: z.string(),
  name: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  pictureUrl: z.string().nullable(),
  /** The studio's: a location's classes run on the studio's clock (not set per location). */
  timeZone: z.string(),
  archived: z.boolean(),
  /** Active rooms first, then archived ones, each by name. */
  rooms: z.array(PlaceRoomSchema),
});
export type PlaceLocationView = z.infer<typeof PlaceLocationSchema>;
export const PlaceLocationListSchema = z.object({ items: z.array(PlaceLocationSchema), next: z.null() });

export const PlaceCategorySchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  position: z.number(),
  archived: z.boolean(),
  /** Active class services in the category. */
  serviceCount: z.number(),
});
export type PlaceCategoryView = z.infer<typeof PlaceCategorySchema>;
export const PlaceCategoryListSchema = z.object({ items: z.array(PlaceCategorySchema), next: z.null() });

export const PlaceClassServiceSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  description: LocaleTextSchema,
  serviceType: z.enum(CLASS_SERVICE_TYPES),
  durationMinutes: z.number(),
  /** Capacity new schedule metas start with; null = the room's. */
  defaultCapacity: z.number().nullable(),
  color: z.string(),
  categoryId: z.string().nullable(),
  experienceLevelId: z.string().nullable(),
  /** A free class: booked without a pass (bookings module). */
  freeOfCharge: z.boolean(),
  archived: z.boolean(),
  /** Schedule metas of this service still running (last date today or later, or open-ended). */
  activeMetaCount: z.number(),
});
export type PlaceClassServiceView = z.infer<typeof PlaceClassServiceSchema>;
export const PlaceClassServiceListSchema = z.object({
  items: z.array(PlaceClassServiceSchema),
  next: z.null(),
});

const ExperienceLevelRefSchema = z.object({
  id: z.string(),
  serviceType: z.enum(ServiceType),
  name: z.string(),
  position: z.number(),
});
export const ExperienceLevelReorderResultSchema = z.object({
  items: z.array(ExperienceLevelRefSchema),
  next: z.null(),
});

/** What the class service form picks from. */
export const ClassServiceInitSchema = z.object({
  timeZone: z.string(),
  categories: z.array(PlaceCategorySchema),
  experienceLevels: z.array(ExperienceLevelRefSchema),
  serviceTypes: z.array(z.enum(CLASS_SERVICE_TYPES)),
});
export type ClassServiceInit = z.infer<typeof ClassServiceInitSchema>;

// ------------------------------------------------------------------------------------ inputs

const locationFields = {
  name: requiredText(PLACES_LIMITS.locationName),
  addressLine: text(PLACES_LIMITS.addressLine).optional(),
  postalCode: text(PLACES_LIMITS.postalCode).optional(),
  city: text(PLACES_LIMITS.city).optional(),
};
export const LocationCreateInputSchema = z.strictObject({
  ...locationFields,
  /** Rooms created with the location, in one transaction. */
  rooms: z
    .array(
      z.strictObject({
        name: requiredText(PLACES_LIMITS.roomName),
        capacity: int(...PLACES_LIMITS.capacity),
      }),
    )
    .max(50, 'at most 50')
    .optional(),
});
export type LocationCreateInput = z.infer<typeof LocationCreateInputSchema>;
export const LocationPatchSchema = z.strictObject({
  name: locationFields.name.optional(),
  addressLine: locationFields.addressLine,
  postalCode: locationFields.postalCode,
  city: locationFields.city,
});
export type LocationPatch = z.infer<typeof LocationPatchSchema>;

export const RoomInputSchema = z.strictObject({
  name: requiredText(PLACES_LIMITS.roomName),
  capacity: int(...PLACES_LIMITS.capacity),
});
export type RoomInput = z.infer<typeof RoomInputSchema>;
export const RoomPatchSchema = RoomInputSchema.partial();
export type RoomPatch = z.infer<typeof RoomPatchSchema>;

export const CategoryInputSchema = z.strictObject({
  name: localeText(PLACES_LIMITS.categoryName, true),
  position: int(...PLACES_LIMITS.position).optional(),
});
export type CategoryInput = z.infer<typeof CategoryInputSchema>;
export const CategoryPatchSchema = CategoryInputSchema.partial();
export type CategoryPatch = z.infer<typeof CategoryPatchSchema>;

const serviceFields = {
  name: localeText(PLACES_LIMITS.serviceName, true),
  description: localeText(PLACES_LIMITS.serviceDescription, false).optional(),
  durationMinutes: int(...PLACES_LIMITS.durationMinutes),
  defaultCapacity: int(...PLACES_LIMITS.capacity)
    .nullable()
    .optional(),
  color: color().optional(),
  categoryId: uuid().nullable().optional(),
  experienceLevelId: uuid().nullable().optional(),
  freeOfCharge: z.boolean({ error: 'true or false' }).optional(),
};
export const ClassServiceCreateInputSchema = z.strictObject({
  serviceType: z.enum(CLASS_SERVICE_TYPES, { error: 'classroom or course' }),
  ...serviceFields,
});
export type ClassServiceCreateInput = z.infer<typeof ClassServiceCreateInputSchema>;
/** The kind (classroom or course) is chosen once: its metas and passes are built on it. */
export const ClassServicePatchSchema = z.strictObject({
  name: serviceFields.name.optional(),
  description: serviceFields.description,
  durationMinutes: serviceFields.durationMinutes.optional(),
  defaultCapacity: serviceFields.defaultCapacity,
  color: serviceFields.color,
  categoryId: serviceFields.categoryId,
  experienceLevelId: serviceFields.experienceLevelId,
  freeOfCharge: serviceFields.freeOfCharge,
});
export type ClassServicePatch = z.infer<typeof ClassServicePatchSchema>;

export const ExperienceLevelReorderInputSchema = z.strictObject({
  serviceType: z.enum(ServiceType, { error: 'a service type' }),
  /** Every level of the service type, in the new order. */
  ids: z
    .array(uuid())
    .min(1, 'required')
    .max(PLACES_LIMITS.reorderIds, `at most ${PLACES_LIMITS.reorderIds}`)
    .refine((a) => new Set(a).size === a.length, 'listed twice'),
});
export type ExperienceLevelReorderInput = z.infer<typeof ExperienceLevelReorderInputSchema>;
