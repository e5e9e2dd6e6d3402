import { z } from 'zod';
import { text, uuid } from './common';
import { KIOSK_PASS_REASONS } from './kiosk';
import { DESK_PAYMENT_METHODS } from './sales';

/** Entry services and client entries (issue 22; cloud/src/modules/entries/README.md). */

export const ENTRY_SERVICE_LIMITS = {
  nameMax: 120,
  maxEntriesPerDayMax: 50,
  capacityMax: 10_000,
  stayMinutesMin: 5,
  stayMinutesMax: 24 * 60,
  openingHoursMax: 21,
} as const;

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());
const localeText = (max: number) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => Object.values(v).some((t) => t && t.value !== ''), 'required');

const minutesOfDay = () =>
  z.number('a number is required').int('whole minutes').min(0, 'at least 0').max(1440, 'at most 1440');

export const OpeningWindowSchema = z
  .strictObject({
    weekdays: z
      .array(z.number().int().min(0, 'invalid weekday').max(6, 'invalid weekday'))
      .min(1, 'choose at least one day')
      .max(7),
    fromMinutes: minutesOfDay(),
    toMinutes: minutesOfDay(),
  })
  .refine((w) => w.fromMinutes < w.toMinutes, { message: 'must end after it starts', path: ['toMinutes'] });
export type OpeningWindow = z.infer<typeof OpeningWindowSchema>;

const L = ENTRY_SERVICE_LIMITS;
export const EntryServiceInputSchema = z.strictObject({
  name: localeText(L.nameMax),
  locationId: uuid().nullable().default(null),
  maxEntriesPerDay: z
    .number()
    .int('a whole number')
    .min(1, 'at least 1')
    .max(L.maxEntriesPerDayMax, `at most ${L.maxEntriesPerDayMax}`)
    .nullable()
    .default(null),
  capacity: z
    .number()
    .int('a whole number')
    .min(1, 'at least 1')
    .max(L.capacityMax, `at most ${L.capacityMax}`)
    .nullable()
    .default(null),
  stayMinutes: z
    .number()
    .int('whole minutes')
    .min(L.stayMinutesMin, `at least ${L.stayMinutesMin}`)
    .max(L.stayMinutesMax, `at most ${L.stayMinutesMax}`)
    .default(120),
  openingHours: z
    .array(OpeningWindowSchema)
    .max(L.openingHoursMax, `at most ${L.openingHoursMax}`)
    .default([]),
  /** A single entry (day ticket) sold at the desk, minor units; null: not sold on its own. */
  price: z.number().int('whole minor units').min(0).max(10_000_000).nullable().default(null),
  vatRate: z.enum(['2300', '800', '500', '0', 'exempt']).default('2300'),
});
export type EntryServiceInput = z.input<typeof EntryServiceInputSchema>;

export const EntryServicePatchSchema = z.strictObject({
  name: localeText(L.nameMax).optional(),
  locationId: uuid().nullable().optional(),
  maxEntriesPerDay: EntryServiceInputSchema.shape.maxEntriesPerDay.unwrap().optional(),
  capacity: EntryServiceInputSchema.shape.capacity.unwrap().optional(),
  stayMinutes: EntryServiceInputSchema.shape.stayMinutes.unwrap().optional(),
  openingHours: EntryServiceInputSchema.shape.openingHours.unwrap().optional(),
  price: EntryServiceInputSchema.shape.price.unwrap().optional(),
  vatRate: EntryServiceInputSchema.shape.vatRate.unwrap().optional(),
  archived: z.boolean().optional(),
});
export type EntryServicePatch = z.input<typeof EntryServicePatchSchema>;

export const EntryServiceSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  locationId: z.string().nullable(),
  locationName: z.string().nullable(),
  maxEntriesPerDay: z.number().nullable(),
  capacity: z.number().nullable(),
  stayMinutes: z.number(),
  openingHours: z.array(
    z.object({ weekdays: z.array(z.number()), fromMinutes: z.number(), toMinutes: z.number() }),
  ),
  price: z.number().nullable(),
  vatRate: z.string(),
  archived: z.boolean(),
  /** Entries whose stay has not ended (for the capacity). */
  insideNow: z.number(),
  openNow: z.boolean(),
  entriesToday: z.number(),
});
export type EntryService = z.infer<typeof EntryServiceSchema>;

export const EntryServiceListSchema = z.object({
  items: z.array(EntryServiceSchema),
  next: z.string().nullable(),
});
export type EntryServiceList = z.infer<typeof EntryServiceListSchema>;

export const EntryServiceInitSchema = z.object({
  locations: z.array(z.object({ id: z.string(), name: z.string() })),
  defaults: z.object({ stayMinutes: z.number() }),
  limits: z.object({
    nameMax: z.number(),
    maxEntriesPerDayMax: z.number(),
    capacityMax: z.number(),
    stayMinutesMin: z.number(),
    stayMinutesMax: z.number(),
    openingHoursMax: z.number(),
  }),
});
export type EntryServiceInit = z.infer<typeof EntryServiceInitSchema>;

/** Why a client cannot enter now: a limit of the service or the pass rule's reason. */
export const ENTRY_ENROLLMENT_REFUSALS = KIOSK_PASS_REASONS;
export type EntryEnrollmentRefusal = (typeof ENTRY_ENROLLMENT_REFUSALS)[number];

export const EntryEnrollmentInitQuerySchema = z.strictObject({ clientId: uuid() });
export const EntryEnrollmentInitSchema = z.object({
  client: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  services: z.array(
    z.object({
      id: z.string(),
      name: LocaleTextSchema,
      locationName: z.string().nullable(),
      openNow: z.boolean(),
      insideNow: z.number(),
      capacity: z.number().nullable(),
      clientEntriesToday: z.number(),
      maxEntriesPerDay: z.number().nullable(),
      pass: z.object({ id: z.string(), name: LocaleTextSchema }).nullable(),
      /** The single entry's price at the desk (minor units), null when not sold on its own. */
      price: z.number().nullable(),
      /** null: the client may enter (with `pass`); else why not. */
      refusal: z.enum(ENTRY_ENROLLMENT_REFUSALS).nullable(),
    }),
  ),
});
export type EntryEnrollmentInit = z.infer<typeof EntryEnrollmentInitSchema>;

export const EntryEnrollInputSchema = z.strictObject({
  clientId: uuid(),
  entryServiceId: uuid(),
  /** The desk lets the client in without a pass (paid at the desk or free); limits still apply. */
  withoutPass: z.boolean().default(false),
  /**
   * Sell the service's single entry (day ticket) and let the client in, in one go: an order paid at
   * the desk with `method`, the entry without a pass (needs `sales.sell` too).
   */
  sale: z
    .strictObject({
      method: z.union(DESK_PAYMENT_METHODS.map((m) => z.literal(m)) as unknown as [z.ZodLiteral<number>]),
    })
    .optional(),
});
export type EntryEnrollInput = z.input<typeof EntryEnrollInputSchema>;

export const ClientEntrySchema = z.object({
  id: z.string(),
  entryServiceId: z.string(),
  serviceName: LocaleTextSchema,
  enteredAt: z.string(),
  leavesAt: z.string(),
  source: z.enum(['desk', 'kiosk']),
  pass: z.object({ id: z.string(), name: LocaleTextSchema }).nullable(),
  enrolledBy: z.string().nullable(),
  /** The desk order that sold this entry (a day ticket), if one did. */
  orderId: z.string().nullable(),
});
export type ClientEntry = z.infer<typeof ClientEntrySchema>;

export const ClientEntryListQuerySchema = z.strictObject({
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ClientEntryListSchema = z.object({
  items: z.array(ClientEntrySchema),
  next: z.string().nullable(),
});
export type ClientEntryList = z.infer<typeof ClientEntryListSchema>;
