import { z } from 'zod';
import { StudioType } from '../../enums/studios';
import { LOCALES } from '../../i18n/locales';
import { uuid } from './common';
import { LocationCreateInputSchema, RoomInputSchema } from './places';
import { CURRENCIES, timeZone } from './studio-admin';

/**
 * The studio's first-run setup (`PATCH`/`GET {uuid}/configure`) and "open by id" (`POST {uuid}/uuid`),
 * issue 25. Decisions in cloud/src/modules/studio-admin/README.md.
 */

export const STUDIO_TYPE_KEYS = Object.keys(StudioType) as [
  keyof typeof StudioType,
  ...(keyof typeof StudioType)[],
];
export type StudioTypeKey = (typeof STUDIO_TYPE_KEYS)[number];

/** The setup steps in the order the dashboard lists them. */
export const SETUP_STEPS = ['profile', 'location', 'classes', 'pricing', 'payments', 'team'] as const;
export type SetupStepKey = (typeof SETUP_STEPS)[number];

const SetupLocationInputSchema = LocationCreateInputSchema.omit({ rooms: true });

/** PATCH {uuid}/configure: the setup wizard's save; every field optional, at least one sent. */
export const StudioConfigureInputSchema = z
  .strictObject({
    studioType: z.enum(STUDIO_TYPE_KEYS).optional(),
    timeZone: timeZone().optional(),
    currency: z.enum(CURRENCIES).optional(),
    defaultLanguage: z.enum(LOCALES).optional(),
    /** Creates the studio's first location when it has none, else changes its first one. */
    location: SetupLocationInputSchema.optional(),
    /** Creates or changes the first room of that location. */
    room: RoomInputSchema.optional(),
    /**
     * The studio takes payments at the desk only (true: online providers that are on are switched
     * off, and the payments step is done); false withdraws the choice. A provider switched on later
     * supersedes it.
     */
    paymentsAtDeskOnly: z.boolean().optional(),
    /** Hides the setup card (false shows it again). */
    dismissed: z.boolean().optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'send at least one field',
    path: [''],
  });
export type StudioConfigureInput = z.infer<typeof StudioConfigureInputSchema>;

export const SetupStepSchema = z.object({
  key: z.enum(SETUP_STEPS),
  done: z.boolean(),
  /** The back-office page (hash route) where the step is done. */
  path: z.string(),
});
export type SetupStep = z.infer<typeof SetupStepSchema>;

export const StudioSetupSchema = z.object({
  setup: z.object({
    dismissedAt: z.string().nullable(),
    /** Every step is done. */
    complete: z.boolean(),
    steps: z.array(SetupStepSchema),
  }),
  /** What the first step's form starts from. */
  values: z.object({
    studioType: z.enum(STUDIO_TYPE_KEYS),
    timeZone: z.string(),
    currency: z.string(),
    defaultLanguage: z.string(),
    location: z
      .object({
        id: z.string(),
        name: z.string(),
        addressLine: z.string(),
        postalCode: z.string(),
        city: z.string(),
      })
      .nullable(),
    room: z.object({ id: z.string(), name: z.string(), capacity: z.number().int() }).nullable(),
    /** The studio chose to take payments at the desk only, and no online provider is on since. */
    paymentsAtDeskOnly: z.boolean(),
  }),
});
export type StudioSetupView = z.infer<typeof StudioSetupSchema>;

// ------------------------------------------------------------------------------- open by id

/** What an id pasted into the back office's search box can be. */
export const RECORD_TYPES = [
  'client',
  'staffMember',
  'order',
  'payment',
  'visit',
  'class',
  'classSeries',
  'classService',
  'location',
  'room',
  'pricingOption',
  'clientPass',
  'contract',
  'clientContract',
  'invoice',
  'product',
  'voucher',
  'appointment',
  'appointmentService',
  'campaign',
  'webhook',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** POST {uuid}/uuid. */
export const OpenByIdInputSchema = z.strictObject({ uuid: uuid() });
export type OpenByIdInput = z.infer<typeof OpenByIdInputSchema>;

export const OpenByIdResultSchema = z.object({
  type: z.enum(RECORD_TYPES),
  id: z.string(),
  /** What a person calls it: a client's name, an order's total and date, a class's name and start. */
  label: z.string(),
  /** The back-office page (hash route) that shows it. */
  path: z.string(),
});
export type OpenByIdResult = z.infer<typeof OpenByIdResultSchema>;
