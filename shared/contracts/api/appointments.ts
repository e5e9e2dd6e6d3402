import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '../../domain/appointments/appointment-status';
import { calendarDate, instant, text, uuid } from './common';

/** Appointments (issue 21): services, staff availability, slots, client appointments. */

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());
const localeText = (max: number, required = true) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => !required || Object.values(v).some((t) => t && t.value !== ''), 'required');
const minutes = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);

export const AppointmentStatusSchema = z.enum(APPOINTMENT_STATUSES);
/** `contract`: covered by a client contract (membership); booked with payment `pass` ("pass or membership"). */
export const AppointmentPaymentSchema = z.enum(['pass', 'wallet', 'online', 'desk', 'free', 'contract']);
/** A client contract that covers appointments (booking with `payment: 'pass'` uses it before any pass). */
export const CoveringContractSchema = z.object({ id: z.string(), name: LocaleTextSchema });

// ------------------------------------------------------------------------------ categories

export const AppointmentCategoryViewSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  position: z.number(),
});
export type AppointmentCategoryView = z.infer<typeof AppointmentCategoryViewSchema>;
export const AppointmentCategoryInputSchema = z.strictObject({
  name: localeText(100),
  position: minutes(0, 10_000).optional(),
});

// ------------------------------------------------------------------------------ services

export const AppointmentServiceViewSchema = z.object({
  id: z.string(),
  categoryId: z.string().nullable(),
  name: LocaleTextSchema,
  description: LocaleTextSchema,
  eventType: z.enum(['visit', 'resource']),
  durationMinutes: z.number(),
  bufferBeforeMinutes: z.number(),
  bufferAfterMinutes: z.number(),
  slotStepMinutes: z.number(),
  price: z.number().nullable(),
  currency: z.string(),
  vatRate: z.string(),
  locationId: z.string().nullable(),
  roomId: z.string().nullable(),
  online: z.boolean(),
  confirmation: z.enum(['auto', 'manual']),
  bookableOnline: z.boolean(),
  bookingOpensHours: z.number().nullable(),
  bookingClosesMinutes: z.number(),
  cancellationCutoffMinutes: z.number(),
  position: z.number(),
  memberIds: z.array(z.string()),
  archived: z.boolean(),
});
export type AppointmentServiceView = z.infer<typeof AppointmentServiceViewSchema>;

export const AppointmentServiceInputSchema = z.strictObject({
  categoryId: uuid().nullable().optional(),
  name: localeText(100),
  description: localeText(2000, false).optional(),
  eventType: z.enum(['visit', 'resource']).optional(),
  durationMinutes: minutes(5, 1440),
  bufferBeforeMinutes: minutes(0, 240).optional(),
  bufferAfterMinutes: minutes(0, 240).optional(),
  slotStepMinutes: minutes(5, 240).optional(),
  price: z.number().int('in minor units').min(0).max(100_000_000).nullable().optional(),
  vatRate: z.enum(['2300', '800', '500', '0', 'exempt']).optional(),
  locationId: uuid().nullable().optional(),
  roomId: uuid().nullable().optional(),
  online: z.boolean().optional(),
  confirmation: z.enum(['auto', 'manual']).optional(),
  bookableOnline: z.boolean().optional(),
  bookingOpensHours: minutes(1, 24 * 365)
    .nullable()
    .optional(),
  bookingClosesMinutes: minutes(0, 7 * 1440).optional(),
  cancellationCutoffMinutes: minutes(0, 30 * 1440).optional(),
  position: minutes(0, 10_000).optional(),
  memberIds: z.array(uuid()).max(200).optional(),
});
export type AppointmentServiceInput = z.infer<typeof AppointmentServiceInputSchema>;
export const AppointmentServicePatchSchema = AppointmentServiceInputSchema.partial();
export type AppointmentServicePatch = z.infer<typeof AppointmentServicePatchSchema>;

export const MemberRefSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });
export const LocationRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  rooms: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const PassOptionRefSchema = z.object({ id: z.string(), name: LocaleTextSchema, price: z.number() });

export const AppointmentInitSchema = z.object({
  timeZone: z.string(),
  currency: z.string(),
  services: z.array(AppointmentServiceViewSchema),
  categories: z.array(AppointmentCategoryViewSchema),
  members: z.array(MemberRefSchema),
  locations: z.array(LocationRefSchema),
  /** Pricing options that cover appointments (the passes a client may buy for them). */
  passOptions: z.array(PassOptionRefSchema),
});
export type AppointmentInit = z.infer<typeof AppointmentInitSchema>;

export const CategorizedServicesSchema = z.object({
  items: z.array(
    z.object({
      category: AppointmentCategoryViewSchema.nullable(),
      services: z.array(AppointmentServiceViewSchema),
    }),
  ),
  next: z.null(),
});

// ------------------------------------------------------------------------------ staff availability

const WeeklyHoursSchema = z
  .strictObject({
    weekday: minutes(0, 6),
    startMinute: minutes(0, 1439),
    endMinute: minutes(1, 1440),
    locationId: uuid().nullable(),
  })
  .refine((r) => r.startMinute < r.endMinute, { message: 'ends before it starts', path: ['endMinute'] });
const ExceptionSchema = z
  .strictObject({
    date: calendarDate(),
    /** null: a day off. */
    startMinute: minutes(0, 1439).nullable(),
    endMinute: minutes(1, 1440).nullable(),
    locationId: uuid().nullable(),
  })
  .refine(
    (r) =>
      (r.startMinute === null) === (r.endMinute === null) &&
      (r.startMinute === null || r.startMinute < r.endMinute!),
    { message: 'a range that ends after it starts, or none (a day off)', path: ['endMinute'] },
  );
export const MemberScheduleSchema = z.object({
  memberId: z.string(),
  weekly: z.array(
    z.object({
      weekday: z.number(),
      startMinute: z.number(),
      endMinute: z.number(),
      locationId: z.string().nullable(),
    }),
  ),
  exceptions: z.array(
    z.object({
      date: z.string(),
      startMinute: z.number().nullable(),
      endMinute: z.number().nullable(),
      locationId: z.string().nullable(),
    }),
  ),
});
export type MemberSchedule = z.infer<typeof MemberScheduleSchema>;
export const MemberScheduleInputSchema = z.strictObject({
  weekly: z.array(WeeklyHoursSchema).max(100),
  exceptions: z.array(ExceptionSchema).max(500),
});
export const MemberScheduleInitSchema = z.object({
  member: MemberRefSchema,
  schedule: MemberScheduleSchema,
  locations: z.array(LocationRefSchema),
  services: z.array(z.object({ id: z.string(), name: LocaleTextSchema })),
});

export const UnavailabilityViewSchema = z.object({
  id: z.string(),
  memberId: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string(),
});
export const UnavailabilityInputSchema = z
  .strictObject({ startsAt: instant(), endsAt: instant(), reason: text(200).optional() })
  .refine((r) => Date.parse(r.startsAt) < Date.parse(r.endsAt), {
    message: 'ends before it starts',
    path: ['endsAt'],
  });
export const RangeQuerySchema = z
  .strictObject({ from: calendarDate(), to: calendarDate() })
  .refine((q) => q.from <= q.to, { message: 'before from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 62 * 86_400_000, {
    message: 'at most 62 days',
    path: ['to'],
  });

// ------------------------------------------------------------------------------ slots

export const FindSlotsInputSchema = z
  .strictObject({
    serviceId: uuid(),
    /** null or absent: anyone who performs the service. */
    memberId: uuid().nullable().optional(),
    from: calendarDate(),
    to: calendarDate(),
  })
  .refine((q) => q.from <= q.to, { message: 'before from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 31 * 86_400_000, {
    message: 'at most 31 days',
    path: ['to'],
  });
export const SlotListSchema = z.object({
  serviceId: z.string(),
  timeZone: z.string(),
  items: z.array(z.object({ startsAt: z.string(), endsAt: z.string(), memberIds: z.array(z.string()) })),
  next: z.null(),
});
export type SlotList = z.infer<typeof SlotListSchema>;

// ------------------------------------------------------------------------------ appointments

export const ClientAppointmentViewSchema = z.object({
  id: z.string(),
  service: z.object({ id: z.string(), name: LocaleTextSchema, confirmation: z.enum(['auto', 'manual']) }),
  member: MemberRefSchema,
  client: MemberRefSchema.extend({ email: z.string() }).nullable(),
  locationId: z.string().nullable(),
  roomId: z.string().nullable(),
  online: z.boolean(),
  startsAt: z.string(),
  endsAt: z.string(),
  blockedFrom: z.string(),
  blockedUntil: z.string(),
  status: AppointmentStatusSchema,
  heldUntil: z.string().nullable(),
  payment: AppointmentPaymentSchema,
  clientPricingOptionId: z.string().nullable(),
  clientContractId: z.string().nullable(),
  clientOrderId: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  paid: z.boolean(),
  bookedBy: z.enum(['staff', 'self']),
  note: z.string(),
  cancellationCutoffAt: z.string(),
});
export type ClientAppointmentView = z.infer<typeof ClientAppointmentViewSchema>;
export const ClientAppointmentListSchema = z.object({
  items: z.array(ClientAppointmentViewSchema),
  next: z.null(),
});

export const StaffEnrollInputSchema = z.strictObject({
  serviceId: uuid(),
  memberId: uuid().nullable().optional(),
  startsAt: instant(),
  clientId: uuid(),
  /** pass: a covering pass (the one named, else the rule's choice); desk: paid at the desk later. */
  payment: z.enum(['pass', 'desk', 'free']).optional(),
  clientPricingOptionId: uuid().optional(),
  /** Book outside the member's hours or over a class (needs schedule.overrideRules). */
  override: z.boolean().optional(),
  note: text(500).optional(),
});
export type StaffEnrollInput = z.infer<typeof StaffEnrollInputSchema>;
export const TimeReservationInputSchema = z.strictObject({
  serviceId: uuid(),
  memberId: uuid().nullable().optional(),
  startsAt: instant(),
  clientId: uuid().nullable().optional(),
  holdMinutes: minutes(1, 60).optional(),
});
export const EnrollmentInitQuerySchema = z.strictObject({ serviceId: uuid(), clientId: uuid().optional() });
export const EnrollmentInitSchema = z.object({
  service: AppointmentServiceViewSchema,
  members: z.array(MemberRefSchema),
  passes: z.array(z.object({ id: z.string(), name: LocaleTextSchema, entriesLeft: z.number().nullable() })),
  contracts: z.array(CoveringContractSchema),
  walletBalance: z.number().nullable(),
  onlinePayment: z.boolean(),
});

export const AppointmentActionInputSchema = z.strictObject({
  clientAppointmentId: uuid(),
  reason: text(500).optional(),
});
/** Staff mark a no-show: the studio's no-show fee is charged unless `chargeFee` is false. */
export const AppointmentNoShowInputSchema = z.strictObject({
  clientAppointmentId: uuid(),
  chargeFee: z.boolean().optional(),
});
export const AppointmentMoveInputSchema = z.strictObject({
  clientAppointmentId: uuid(),
  startsAt: instant(),
  memberId: uuid().optional(),
  override: z.boolean().optional(),
});
export const AppointmentListQuerySchema = z.strictObject({
  when: z.enum(['upcoming', 'past', 'all']).optional(),
});

export const CalendarQuerySchema = z
  .strictObject({ from: calendarDate(), to: calendarDate(), locationId: uuid().optional() })
  .refine((q) => q.from <= q.to, { message: 'before from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 42 * 86_400_000, {
    message: 'at most 42 days',
    path: ['to'],
  });
export const StaffCalendarSchema = z.object({
  timeZone: z.string(),
  members: z.array(MemberRefSchema),
  appointments: z.array(ClientAppointmentViewSchema),
  classes: z.array(
    z.object({
      id: z.string(),
      name: LocaleTextSchema,
      memberIds: z.array(z.string()),
      startsAt: z.string(),
      endsAt: z.string(),
      roomId: z.string().nullable(),
    }),
  ),
  unavailability: z.array(UnavailabilityViewSchema),
  hours: z.array(z.object({ memberId: z.string(), startsAt: z.string(), endsAt: z.string() })),
});
export type StaffCalendar = z.infer<typeof StaffCalendarSchema>;

// ------------------------------------------------------------------------------ front office

export const ClientBookInputSchema = z.strictObject({
  serviceId: uuid(),
  memberId: uuid().nullable().optional(),
  startsAt: instant(),
  payment: z.enum(['pass', 'wallet', 'online']),
  clientPricingOptionId: uuid().optional(),
  returnPath: z
    .string()
    .max(300)
    .regex(/^\/[^/\\]/, 'a path of this site')
    .optional(),
});
export const ClientBookResultSchema = z.object({
  appointment: ClientAppointmentViewSchema,
  /** Online payment: where to send the browser (the slot is held meanwhile). */
  redirectUrl: z.string().nullable(),
});
export type ClientBookResult = z.infer<typeof ClientBookResultSchema>;
export const ClientCancelInputSchema = z.strictObject({ clientAppointmentId: uuid() });
export const MyAppointmentsInputSchema = z.strictObject({
  when: z.enum(['upcoming', 'past', 'all']).optional(),
});
export const ClientAppointmentsInitSchema = z.object({
  timeZone: z.string(),
  currency: z.string(),
  categories: z.array(AppointmentCategoryViewSchema),
  services: z.array(AppointmentServiceViewSchema),
  members: z.array(MemberRefSchema),
  passes: z.array(z.object({ id: z.string(), name: LocaleTextSchema, entriesLeft: z.number().nullable() })),
  contracts: z.array(CoveringContractSchema),
  walletBalance: z.number(),
  onlinePayment: z.boolean(),
});

/**
 * The member's Google Calendar connection: `available` false when the server has no Google client
 * configured; when not connected, `authorizeUrl` is where the browser goes to grant access.
 */
export const GoogleCalendarStateSchema = z.object({
  available: z.boolean(),
  connected: z.boolean(),
  email: z.string().nullable(),
  authorizeUrl: z.string().nullable(),
});
export type GoogleCalendarState = z.infer<typeof GoogleCalendarStateSchema>;
export const GoogleCalendarQuerySchema = z.strictObject({
  /** The app path to come back to after Google's consent screen. */
  returnTo: z.string().max(500).optional(),
});
/** Google's redirect back (OAuth 2.0 authorization code flow). */
export const GoogleCalendarCallbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  scope: z.string().max(2000).optional(),
});

/** A calendar feed: `url` only right after it was made (only a hash of its secret is kept). */
export const CalendarFeedSchema = z.object({
  active: z.boolean(),
  url: z.string().nullable(),
  audience: z.enum(['staff', 'client']),
});
export type CalendarFeed = z.infer<typeof CalendarFeedSchema>;
