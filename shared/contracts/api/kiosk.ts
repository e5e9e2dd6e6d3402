import { z } from 'zod';
import { calendarDate } from './common';
import { TicketPrinterOptionsSchema, TicketPrinterSchema } from './ticket-printers';

/**
 * Kiosk mode (cloud/src/modules/kiosk/README.md): the back office's `studio-kiosk` and
 * `studio-smart-lock` calls, and the calls a kiosk device makes with its kiosk session.
 */

/** The header a kiosk device sends its session token in. Only kiosk calls accept it. */
export const KIOSK_SESSION_HEADER = 'x-kiosk-session';

export const CHECK_IN_METHODS = ['card', 'qr', 'name'] as const;
export type CheckInMethod = (typeof CHECK_IN_METHODS)[number];

export const KIOSK_LIMITS = { idleSecondsMin: 10, idleSecondsMax: 600, openSecondsMax: 30 } as const;

const uuid = () => z.uuid('invalid id');
const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());
const trimmed = (max: number) =>
  z
    .string('required')
    .trim()
    .min(1, 'required')
    .max(max, `at most ${max} characters`)
    .refine((v) => !v.includes('\u0000'), 'invalid characters');

export const KioskSettingsSchema = z.strictObject({
  checkInMethods: z
    .array(z.enum(CHECK_IN_METHODS, 'unknown method'))
    .min(1, 'choose at least one way to check in')
    .max(3)
    .refine((list) => new Set(list).size === list.length, 'listed twice'),
  /** Print a check-in ticket when the kiosk runs in the desktop app with a ticket printer. */
  printTicket: z.boolean(),
  /** Back to the start screen after this many seconds without a touch. */
  idleSeconds: z
    .number('a number')
    .int('a whole number')
    .min(KIOSK_LIMITS.idleSecondsMin, `at least ${KIOSK_LIMITS.idleSecondsMin}`)
    .max(KIOSK_LIMITS.idleSecondsMax, `at most ${KIOSK_LIMITS.idleSecondsMax}`),
});
export type KioskSettings = z.infer<typeof KioskSettingsSchema>;

export const DEFAULT_KIOSK_SETTINGS: KioskSettings = {
  checkInMethods: ['card', 'qr', 'name'],
  printTicket: true,
  idleSeconds: 45,
};

// ------------------------------------------------------------------------------- back office

export const StudioKioskSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  locationId: z.string().nullable(),
  smartLockId: z.string().nullable(),
  settings: KioskSettingsSchema,
  /** /{uuid}/kiosk/{id} on this server. */
  kioskUrl: z.string(),
  /** Only for staff who may edit settings; null otherwise. */
  kioskKey: z.string().nullable(),
  createdAt: z.string(),
  /** The kiosk's slip printer (`./ticket-printers.ts`): set with `PUT studio-kiosk/{id}/ticket-printer`. */
  ticketPrinter: TicketPrinterSchema,
});
export type StudioKiosk = z.infer<typeof StudioKioskSchema>;
export const StudioKioskListSchema = z.object({ items: z.array(StudioKioskSchema) });
export type StudioKioskList = z.infer<typeof StudioKioskListSchema>;

export const StudioKioskInputSchema = z.strictObject({
  name: trimmed(100),
  locationId: uuid().nullable().default(null),
  smartLockId: uuid().nullable().default(null),
  settings: KioskSettingsSchema.default(DEFAULT_KIOSK_SETTINGS),
});
export type StudioKioskInput = z.infer<typeof StudioKioskInputSchema>;
export const StudioKioskPatchSchema = z.strictObject({
  name: trimmed(100).optional(),
  locationId: uuid().nullable().optional(),
  smartLockId: uuid().nullable().optional(),
  settings: KioskSettingsSchema.optional(),
  /** A new key: every device signed in to this kiosk is signed out. */
  regenerateKey: z.boolean().optional(),
});
export type StudioKioskPatch = z.infer<typeof StudioKioskPatchSchema>;

export const StudioKioskInitSchema = z.object({
  locations: z.array(z.object({ id: z.string(), name: z.string() })),
  smartLocks: z.array(z.object({ id: z.string(), name: z.string() })),
  checkInMethods: z.array(z.enum(CHECK_IN_METHODS)),
  defaults: KioskSettingsSchema,
  limits: z.object({ idleSecondsMin: z.number(), idleSecondsMax: z.number() }),
  ticketPrinter: TicketPrinterOptionsSchema,
});
export type StudioKioskInit = z.infer<typeof StudioKioskInitSchema>;

export const KioskQrCodeSchema = z.object({
  /** What the QR code holds: the kiosk's address with its key in the fragment (never sent to a server). */
  url: z.string(),
  /** The QR code as an SVG document. */
  svg: z.string(),
});
export type KioskQrCode = z.infer<typeof KioskQrCodeSchema>;

export const SMART_LOCK_DRIVERS = ['httpRelay'] as const;
export const HttpRelayConfigInputSchema = z.strictObject({
  url: z
    .url('an http(s) address')
    .max(500, 'at most 500 characters')
    .refine((v) => /^https?:\/\//i.test(v), 'an http(s) address'),
  method: z.enum(['POST', 'GET'], 'POST or GET').default('POST'),
  /** Sent as `Authorization: Bearer …`; write-only (never shown again). null clears it, absent keeps it. */
  secret: z.string().max(200, 'at most 200 characters').nullable().optional(),
  openSeconds: z
    .number('a number')
    .int('a whole number')
    .min(1, 'at least 1')
    .max(KIOSK_LIMITS.openSecondsMax, `at most ${KIOSK_LIMITS.openSecondsMax}`)
    .default(5),
});
export const SmartLockInputSchema = z.strictObject({
  name: trimmed(100),
  driver: z.enum(SMART_LOCK_DRIVERS, 'unknown driver'),
  config: HttpRelayConfigInputSchema,
});
export type SmartLockInput = z.infer<typeof SmartLockInputSchema>;
export const SmartLockPatchSchema = z.strictObject({
  name: trimmed(100).optional(),
  config: HttpRelayConfigInputSchema.optional(),
});
export type SmartLockPatch = z.infer<typeof SmartLockPatchSchema>;

/** What a lock's test (or opening) answered; the back office says it in the user's language. */
export const SMART_LOCK_TEST_REASONS = ['ok', 'httpStatus', 'timeout', 'unreachable'] as const;
export type SmartLockTestReason = (typeof SMART_LOCK_TEST_REASONS)[number];

export const SmartLockSchema = z.object({
  id: z.string(),
  name: z.string(),
  driver: z.enum(SMART_LOCK_DRIVERS),
  config: z.object({
    url: z.string(),
    method: z.enum(['POST', 'GET']),
    openSeconds: z.number(),
    hasSecret: z.boolean(),
  }),
  lastTest: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      /** English, with the technical detail; `reason` is what the screens translate (null: tested before it existed). */
      message: z.string(),
      reason: z.enum(SMART_LOCK_TEST_REASONS).nullable(),
      httpStatus: z.number().nullable(),
    })
    .nullable(),
  /** Kiosks that open this lock. */
  kioskIds: z.array(z.string()),
});
export type SmartLock = z.infer<typeof SmartLockSchema>;
export const SmartLockListSchema = z.object({ items: z.array(SmartLockSchema) });
export type SmartLockList = z.infer<typeof SmartLockListSchema>;

export const SmartLockTestInputSchema = z.strictObject({ smartLockId: uuid() });
export const SmartLockTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  reason: z.enum(SMART_LOCK_TEST_REASONS),
  httpStatus: z.number().nullable(),
  testedAt: z.string(),
});
export type SmartLockTestResult = z.infer<typeof SmartLockTestResultSchema>;

// ------------------------------------------------------------------------------ kiosk device

export const KioskSignInInputSchema = z.strictObject({
  kioskId: uuid(),
  kioskKey: z.string('required').trim().min(1, 'required').max(200, 'at most 200 characters'),
});
export type KioskSignInInput = z.infer<typeof KioskSignInInputSchema>;

export const KioskDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  studio: z.object({ uuid: z.string(), name: z.string(), timeZone: z.string(), defaultLocale: z.string() }),
  settings: KioskSettingsSchema,
  hasLock: z.boolean(),
  /** The kiosk's location: it shows only that location's classes (null: any). Absent in kiosk.json kept before it existed. */
  locationId: z.string().nullable().default(null),
});
export type KioskDevice = z.infer<typeof KioskDeviceSchema>;
export const KioskSignInResultSchema = z.object({ token: z.string(), kiosk: KioskDeviceSchema });
export type KioskSignInResult = z.infer<typeof KioskSignInResultSchema>;

export const KioskIdentifyInputSchema = z.discriminatedUnion(
  'method',
  [
    z.strictObject({
      method: z.literal('code'),
      /** A card number typed or read, or a QR code's text (scanner wedge or camera). */
      code: z.string('required').trim().min(1, 'required').max(200, 'at most 200 characters'),
    }),
    z.strictObject({
      method: z.literal('name'),
      firstName: trimmed(100),
      lastName: trimmed(100),
      birthDate: calendarDate(),
    }),
  ],
  'choose card, QR code or name',
);
export type KioskIdentifyInput = z.infer<typeof KioskIdentifyInputSchema>;

/** Why a client cannot use a class or entry without the desk: the pass-choice rule's reasons. */
export const KIOSK_PASS_REASONS = [
  'noPasses',
  'serviceNotCovered',
  'locationNotCovered',
  'timeNotCovered',
  'tagRequired',
  'notYetValid',
  'expired',
  'frozen',
  'noEntriesLeft',
  'countedEntryPass',
  /** The desktop kiosk without the cloud: entry at the door needs the connection (desktop/README.md). */
  'needsConnection',
  /** An entry service's limits (issue 22, modules/entries): opening hours, entries a day, capacity. */
  'closed',
  'dailyLimitReached',
  'full',
] as const;
export type KioskPassReason = (typeof KIOSK_PASS_REASONS)[number];

export const KioskBookingSchema = z.object({
  visitId: z.string(),
  scheduleEventId: z.string(),
  className: LocaleTextSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  /** booked | present | unpaid (pay at the desk) | waitingList */
  state: z.enum(['booked', 'present', 'unpaid', 'waitingList']),
  /** Check-in is open (from an hour before the start until the end). */
  canCheckIn: z.boolean(),
  checkInOpensAt: z.string(),
});
export type KioskBooking = z.infer<typeof KioskBookingSchema>;

export const KioskClassSchema = z.object({
  scheduleEventId: z.string(),
  className: LocaleTextSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  placesLeft: z.number(),
  /** Booking now gives a place (checked in at once when check-in is open). */
  canBook: z.boolean(),
  /** Why not: a booking refusal (classFull, bookingClosed, …) or the pass rule's reason. */
  reason: z.string().nullable(),
});
export type KioskClass = z.infer<typeof KioskClassSchema>;

export const KioskClientSchema = z.object({
  client: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  identifiedBy: z.enum(['card', 'qr', 'name']),
  bookings: z.array(KioskBookingSchema),
  classes: z.array(KioskClassSchema),
  entry: z.object({ available: z.boolean(), reason: z.enum(KIOSK_PASS_REASONS).nullable() }),
});
export type KioskClient = z.infer<typeof KioskClientSchema>;

export const KioskCheckInInputSchema = z.strictObject({ clientId: uuid(), scheduleEventId: uuid() });
export type KioskCheckInInput = z.infer<typeof KioskCheckInInputSchema>;
/** `entryServiceId`: which entry service (issue 22); omitted, the first one the client may enter. */
export const KioskEntryInputSchema = z.strictObject({ clientId: uuid(), entryServiceId: uuid().optional() });
export type KioskEntryInput = z.infer<typeof KioskEntryInputSchema>;

/**
 * `GET {uuid}/kiosk/door` (desktop kiosk station only: the kiosk session AND the station's sync device
 * token): the relay of this kiosk's own smart lock, so the station can open the door while the cloud
 * is away. null: the kiosk has no lock. Decisions: desktop/README.md "Kiosk mode", "The door offline".
 */
export const KioskDoorSchema = z.object({
  lock: z
    .object({
      id: z.string(),
      driver: z.enum(SMART_LOCK_DRIVERS),
      config: z.object({
        url: z.string(),
        method: z.enum(['POST', 'GET']),
        secret: z.string().nullable(),
        openSeconds: z.number(),
      }),
    })
    .nullable(),
});
export type KioskDoor = z.infer<typeof KioskDoorSchema>;

/** The check-in slip the desktop's ESC/POS ticket printer prints (desktop/main/printing CheckInSlip). */
export const KioskTicketSchema = z.object({
  kind: z.literal('checkIn'),
  studioName: z.string(),
  clientName: z.string(),
  checkedInAt: z.string(),
  className: z.string().optional(),
  startsAt: z.string().optional(),
  passName: z.string().optional(),
  entriesLeft: z.number().optional(),
});
export type KioskTicket = z.infer<typeof KioskTicketSchema>;

export const KioskCheckInResultSchema = z.object({
  outcome: z.enum(['checkedIn', 'booked', 'entered']),
  className: LocaleTextSchema.nullable(),
  startsAt: z.string().nullable(),
  /** opened: the kiosk's lock opened; failed: it did not answer (the desk lets the client in); none: no lock. */
  lock: z.enum(['opened', 'failed', 'none']),
  /** Present when the kiosk prints tickets. */
  ticket: KioskTicketSchema.nullable(),
  /** Desktop kiosk only: the ticket came out of the station's printer (false: it failed). */
  ticketPrinted: z.boolean().optional(),
  /** Desktop kiosk only: recorded at the station without the cloud; it syncs when the cloud is back. */
  offline: z.boolean().optional(),
  /**
   * Desktop kiosk only, outcome `booked` offline: the booking is a request the studio's system decides
   * when the connection is back (a place, or the waiting list when the class filled up meanwhile).
   */
  provisional: z.boolean().optional(),
});
export type KioskCheckInResult = z.infer<typeof KioskCheckInResultSchema>;
