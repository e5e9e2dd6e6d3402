import { z } from 'zod';
import { isLocalDate, localDaysBetween } from '../../domain/entitlements/local-dates';
import { ClientVisitStatus } from '../../enums/visits';
import { uuid, calendarDate } from './common';
import { InstructorSchema } from './schedule';

/**
 * Bookings (spec §3 client visit status 0–9, §7): clients booking, cancelling and waiting for classes,
 * staff enrolling, checking in and moving people on the waiting list, the public API's classroom book
 * and cancel. A booking is a `client_visits` row (a "client visit"); a waiting-list entry is a visit
 * with status 8 and a position. Times are ISO instants (UTC), dates the studio's calendar days.
 *
 * Paths (see cloud/src/modules/bookings/README.md):
 * - staff (`/api/v4/{uuid}/…`): `schedule-event/{scheduleEvent}/enrollment/enroll` (EnrollInput → BookingResult),
 *   `schedule-event/{scheduleEvent}/enrollments/init` and v2 `schedule-events/{referenceId}/client-visits`
 *   (→ EventEnrollments), `schedule-event/{scheduleEvent}/check-in` (CheckInInput → ClientVisitView),
 *   `schedule-event/{scheduleEvent}/waiting-list/promote` (WaitingListPromoteInput → EventEnrollments),
 *   `schedule-event/{scheduleEvent}/waiting-list/move` (WaitingListMoveInput → EventEnrollments),
 *   `client-enrollment/status` (EnrollmentStatusInput → { items: ClientVisitView[] }),
 *   `GET enrollment/conflict?clientId&scheduleEventId` (→ EnrollmentConflict),
 *   `GET client/{user}/client-visit/collection?when=` (→ ClientVisitList),
 *   `GET|PATCH settings/booking` (BookingSettings / BookingSettingsPatch),
 *   `schedule-event/{scheduleEvent}/enrollments/export` (EnrollmentsExportInput → CSV),
 *   `schedule-event/{scheduleEvent}/enrollments/send-notification` (EventMessageInput → EventMessageResult),
 *   `GET schedule-event-cancellation/collection` (CancellationsQuery → ClientVisitList);
 * - front office (`/api/v4/{uuid}/…`, signed-in client): `booking/classroom/book` (ClientBookInput →
 *   BookingResult), `booking/classroom/cancel` (ClientCancelInput → BookingResult), `booking/schedule`
 *   (ClientScheduleInput → ClientSchedule: places left and my status per event of the timetable),
 *   `waitinglist` (WaitingListInput → MyVisitList), `client-visits/init` (MyVisitsInput → MyVisitList);
 * - public API (`/api/v2/public/…`, header `x-api-key`): `classroom/book` (PublicBookInput →
 *   PublicVisit), `classroom/cancel` (PublicCancelInput → PublicVisit).
 */

export const BOOKING_LIMITS = {
  /** Longest span of one `booking/schedule` read (days): the same as the timetable's. */
  scheduleDays: 42,
  /** Visits changed by one attendance call. */
  statusIds: 200,
  visitsPage: 100,
  feeMax: 1_000_000,
  promotionCutoffMinutes: [0, 7 * 24 * 60],
  /** Check-in opens up to a day before the start; a walk-in up to a day after it (issue 26). */
  checkInOpensMinutes: [0, 24 * 60],
  walkInMinutes: [0, 24 * 60],
} as const;

/** Who made a booking: staff at the desk, the client online, or a partner through the public API. */
export const BOOKED_BY = ['staff', 'self', 'api'] as const;
export type BookedBy = (typeof BOOKED_BY)[number];

/** What a booking call ended in: a place, a place awaiting payment at the desk, or the waiting list. */
export const BOOKING_OUTCOMES = ['booked', 'unconfirmed', 'waitingList'] as const;
export type BookingOutcome = (typeof BOOKING_OUTCOMES)[number];

/**
 * Why a client cannot book (or join the waiting list of) an event now. The first that applies is
 * given; each has a `bookings:refusal.<reason>` label.
 */
export const BOOKING_REFUSALS = [
  'classCancelled',
  'classStarted',
  'notBookableOnline',
  'notAccessible',
  'bookingNotOpen',
  'bookingClosed',
  'alreadyBooked',
  'conflict',
  'noPass',
  'classFull',
] as const;
export type BookingRefusal = (typeof BOOKING_REFUSALS)[number];

export const FEE_KINDS = ['lateCancel', 'noShow'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];

const visitStatus = () => z.enum(ClientVisitStatus);
const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());

// ------------------------------------------------------------------------------------ views

export const VisitFeeSchema = z.object({
  id: z.string(),
  kind: z.enum(FEE_KINDS),
  /** Minor units of the studio's currency. */
  amount: z.number(),
  currency: z.string(),
  /** First offence forgiven: recorded, never charged. */
  forgiven: z.boolean(),
  createdAt: z.string(),
});
export type VisitFeeView = z.infer<typeof VisitFeeSchema>;

export const PassRefSchema = z.object({ id: z.string(), name: LocaleTextSchema });
/** The client contract (membership) that paid a visit: its name as sold. */
export const ContractRefSchema = z.object({ id: z.string(), name: LocaleTextSchema });

/** What pays a visit: a pass entry, a client contract, nothing (free class), or the desk (unpaid: 9). */
export const VISIT_PAYMENTS = ['pass', 'contract', 'free', 'desk'] as const;
export type VisitPaymentKind = (typeof VISIT_PAYMENTS)[number];
/**
 * `payment` and `contract` are always given by the cloud; the desk station's offline answers leave
 * them out (its cache holds no client contracts), so screens fall back to `pass`.
 */
const paymentFields = {
  payment: z.enum(VISIT_PAYMENTS).optional(),
  /** Set when `payment` is `contract`. */
  contract: ContractRefSchema.nullable().optional(),
};

/** One client on an event, as the back office sees it (attendee list, client profile). */
export const ClientVisitSchema = z.object({
  id: z.string(),
  scheduleEventId: z.string(),
  client: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
  }),
  status: visitStatus(),
  bookedBy: z.enum(BOOKED_BY),
  /** 1-based place on the waiting list while status is 8, else null. */
  waitingPosition: z.number().nullable(),
  pass: PassRefSchema.nullable(),
  ...paymentFields,
  bookedAt: z.string(),
  cancelledAt: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  promotedAt: z.string().nullable(),
  fees: z.array(VisitFeeSchema),
  /** Only in the desk station's offline answers: made or changed there, not confirmed by a sync yet. */
  provisional: z.boolean().optional(),
  /** Class facts for lists of one client's visits (client profile). */
  event: z.object({
    startsAt: z.string(),
    endsAt: z.string(),
    classService: z.object({ id: z.string(), name: LocaleTextSchema, color: z.string() }),
    locationName: z.string(),
  }),
});
export type ClientVisitView = z.infer<typeof ClientVisitSchema>;
export const ClientVisitListSchema = z.object({
  items: z.array(ClientVisitSchema),
  next: z.string().nullable(),
});
export type ClientVisitList = z.infer<typeof ClientVisitListSchema>;

/** The attendee list of one event for the back office: places, the list, the waiting list, cancellations. */
export const EventEnrollmentsSchema = z.object({
  scheduleEventId: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  eventStatus: z.enum(['scheduled', 'cancelled', 'removed']),
  capacity: z.number(),
  waitingListSize: z.number(),
  /** Visits holding a place: booked, present, absent, unconfirmed. */
  taken: z.number(),
  placesLeft: z.number(),
  waitingPlacesLeft: z.number(),
  /** Status 0, 1, 2, 9 by surname. */
  attendees: z.array(ClientVisitSchema),
  /** Status 8 in position order. */
  waitingList: z.array(ClientVisitSchema),
  /** Status 3–7, newest first. */
  cancelled: z.array(ClientVisitSchema),
  /** Cancelling now would be a late cancel (after the cut-off). */
  lateCancelNow: z.boolean(),
  /** From when "Present" is possible: the studio's check-in opening before the start (issue 26). */
  checkInOpensAt: z.string(),
  /** Until when staff may add someone (a walk-in): the studio's window after the start, at most the end. */
  walkInUntil: z.string(),
  /** What the caller may do here. */
  can: z.object({ book: z.boolean(), checkIn: z.boolean(), overrideRules: z.boolean() }),
});
export type EventEnrollments = z.infer<typeof EventEnrollmentsSchema>;

/** The event as a client sees it next to their visit. */
export const VisitEventSchema = z.object({
  id: z.string(),
  classService: z.object({ id: z.string(), name: LocaleTextSchema, color: z.string() }),
  location: z.object({ id: z.string(), name: z.string() }),
  room: z.object({ id: z.string(), name: z.string() }).nullable(),
  instructors: z.array(InstructorSchema),
  startsAt: z.string(),
  endsAt: z.string(),
  cancelled: z.boolean(),
});

/** One of the signed-in client's visits (front office "my visits"). */
export const MyVisitSchema = z.object({
  id: z.string(),
  status: visitStatus(),
  waitingPosition: z.number().nullable(),
  event: VisitEventSchema,
  pass: PassRefSchema.nullable(),
  ...paymentFields,
  bookedAt: z.string(),
  cancelledAt: z.string().nullable(),
  /** May the client cancel (or leave the waiting list) now. */
  canCancel: z.boolean(),
  /** A cancel now would be late: the entry is kept (and a fee may apply). */
  cancelIsLate: z.boolean(),
  fees: z.array(VisitFeeSchema),
  /**
   * Owed at the desk and still unpaid, holding a place: the client may pay it online or with a pass
   * they hold (`client-visits/pay-options`). Absent from the desk station's offline answers.
   */
  payable: z.boolean().optional(),
});
export type MyVisitView = z.infer<typeof MyVisitSchema>;
export const MyVisitListSchema = z.object({ items: z.array(MyVisitSchema), next: z.string().nullable() });
export type MyVisitList = z.infer<typeof MyVisitListSchema>;

/** The answer of every booking call: what happened and the visit as the caller sees it. */
export const BookingResultSchema = z.object({
  outcome: z.enum([...BOOKING_OUTCOMES, 'earlyCancel', 'lateCancel', 'leftWaitingList']),
  visit: MyVisitSchema,
});
export type BookingResult = z.infer<typeof BookingResultSchema>;

/** The client's layer over the public timetable: per event, places and their own standing. */
export const ClientScheduleItemSchema = z.object({
  scheduleEventId: z.string(),
  placesLeft: z.number(),
  waitingPlacesLeft: z.number(),
  myVisit: z
    .object({ id: z.string(), status: visitStatus(), waitingPosition: z.number().nullable() })
    .nullable(),
  /** Booking now would give a place, a place to pay at the desk, or the waiting list; null = refused. */
  bookOutcome: z.enum(BOOKING_OUTCOMES).nullable(),
  refusal: z.enum(BOOKING_REFUSALS).nullable(),
  canCancel: z.boolean(),
  cancelIsLate: z.boolean(),
});
export type ClientScheduleItem = z.infer<typeof ClientScheduleItemSchema>;
export const ClientScheduleSchema = z.object({ items: z.array(ClientScheduleItemSchema) });
export type ClientSchedule = z.infer<typeof ClientScheduleSchema>;

export const EnrollmentConflictSchema = z.object({
  hasConflict: z.boolean(),
  conflicts: z.array(
    z.object({
      clientVisitId: z.string(),
      scheduleEventId: z.string(),
      status: visitStatus(),
      classService: z.object({ id: z.string(), name: LocaleTextSchema }),
      startsAt: z.string(),
      endsAt: z.string(),
    }),
  ),
});
export type EnrollmentConflict = z.infer<typeof EnrollmentConflictSchema>;

export const BookingSettingsSchema = z.object({
  currency: z.string(),
  /** Minor units; 0 = no fee. */
  lateCancelFee: z.number(),
  noShowFee: z.number(),
  /** A client's first fee-bearing offence is recorded as forgiven. */
  forgiveFirstOffence: z.boolean(),
  /** Freed places go to the waiting list only until this many minutes before the start. */
  promotionCutoffMinutes: z.number(),
  /** Clients without a covering pass may book and pay at the desk (status 9 until paid). */
  payAtDeskAllowed: z.boolean(),
  /** Staff (and the kiosk) may mark people present from this many minutes before the start. */
  checkInOpensMinutes: z.number(),
  /** Staff may add a walk-in until this many minutes after the start; null: until the class ends. */
  walkInMinutes: z.number().nullable(),
});
export type BookingSettings = z.infer<typeof BookingSettingsSchema>;

/** What the public API answers about a visit. */
export const PublicVisitSchema = z.object({
  id: z.string(),
  scheduleEventId: z.string(),
  userId: z.string(),
  status: visitStatus(),
  waitingPosition: z.number().nullable(),
  outcome: z.enum([...BOOKING_OUTCOMES, 'earlyCancel', 'lateCancel', 'leftWaitingList']),
});
export type PublicVisit = z.infer<typeof PublicVisitSchema>;

// ------------------------------------------------------------------------------------ inputs

const int = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);

/** Staff book a client into an event. */
export const EnrollInputSchema = z.strictObject({
  clientId: uuid(),
  /** Pay with this pass instead of the one the pass-choice rule picks. */
  clientPricingOptionId: uuid().optional(),
  /** Book without a pass: unconfirmed (9) until paid at the desk. */
  payAtDesk: z.boolean().default(false),
  /** Full class: put the client on the waiting list (else refuse). */
  waitingList: z.boolean().default(true),
  /** Skip the window, accessibility, conflict and capacity rules (`schedule.overrideRules`). */
  override: z.boolean().default(false),
});
export type EnrollInput = z.infer<typeof EnrollInputSchema>;

export const CheckInInputSchema = z.strictObject({
  clientId: uuid(),
  /** Not booked yet: book first (same as enroll with payAtDesk when no pass covers). */
  enrollIfMissing: z.boolean().default(true),
  override: z.boolean().default(false),
});
export type CheckInInput = z.infer<typeof CheckInInputSchema>;

/** Attendance and staff cancellation: present, absent, back to booked, cancel (early/late by the cut-off). */
export const ENROLLMENT_ACTIONS = ['present', 'absent', 'reset', 'cancel'] as const;
export type EnrollmentAction = (typeof ENROLLMENT_ACTIONS)[number];
export const EnrollmentStatusInputSchema = z.strictObject({
  clientVisitIds: z
    .array(uuid())
    .min(1, 'choose at least one')
    .max(BOOKING_LIMITS.statusIds, `at most ${BOOKING_LIMITS.statusIds}`)
    .refine((a) => new Set(a).size === a.length, 'listed twice'),
  action: z.enum(ENROLLMENT_ACTIONS),
  /** Late cancel or absence by staff: record the studio's fee (default) or waive it. */
  chargeFee: z.boolean().default(true),
});
export type EnrollmentStatusInput = z.infer<typeof EnrollmentStatusInputSchema>;

export const WaitingListPromoteInputSchema = z.strictObject({
  clientVisitId: uuid(),
  /** Promote even when the class is full or no pass covers (`schedule.overrideRules`). */
  override: z.boolean().default(false),
});
export type WaitingListPromoteInput = z.infer<typeof WaitingListPromoteInputSchema>;
export const WaitingListMoveInputSchema = z.strictObject({
  clientVisitId: uuid(),
  /** 1-based target place; beyond the end = last. */
  position: int(1, 10_000),
});
export type WaitingListMoveInput = z.infer<typeof WaitingListMoveInputSchema>;

export const ConflictQuerySchema = z.strictObject({ clientId: uuid(), scheduleEventId: uuid() });
export type ConflictQuery = z.infer<typeof ConflictQuerySchema>;

export const VISIT_WHEN = ['upcoming', 'past', 'all'] as const;
export const ClientVisitsQuerySchema = z.strictObject({
  when: z.enum(VISIT_WHEN).default('upcoming'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(BOOKING_LIMITS.visitsPage).default(50),
});
export type ClientVisitsQuery = z.infer<typeof ClientVisitsQuerySchema>;

/** Visits paid at the desk (the sales module's `client-visits/pay` marks them through the bookings service). */
export const ClientVisitPayInputSchema = z.strictObject({
  clientVisitIds: z
    .array(uuid())
    .min(1, 'choose at least one')
    .max(BOOKING_LIMITS.statusIds)
    .refine((a) => new Set(a).size === a.length, 'listed twice'),
});
export type ClientVisitPayInput = z.infer<typeof ClientVisitPayInputSchema>;

/** `POST schedule-event/{scheduleEvent}/enrollments/export`: the attendee list as CSV. */
export const EnrollmentsExportInputSchema = z.strictObject({
  /** Default: `;` for a studio whose language writes decimal commas (pl), else `,`. */
  delimiter: z.enum([',', ';']).optional(),
});
export type EnrollmentsExportInput = z.infer<typeof EnrollmentsExportInputSchema>;

export const EVENT_MESSAGE_MAX = 1000;
/** `POST schedule-event/{scheduleEvent}/enrollments/send-notification`: a message to everyone on a class. */
export const EventMessageInputSchema = z.strictObject({
  message: z
    .string({ error: 'a message is required' })
    .trim()
    .min(1, 'a message is required')
    .max(EVENT_MESSAGE_MAX, `at most ${EVENT_MESSAGE_MAX} characters`),
  /** Tell the waiting list too (default: only the people with a place). */
  includeWaitingList: z.boolean().default(false),
});
export type EventMessageInput = z.infer<typeof EventMessageInputSchema>;
export const EventMessageResultSchema = z.object({ notified: z.number() });
export type EventMessageResult = z.infer<typeof EventMessageResultSchema>;

/**
 * `GET schedule-event-cancellation/collection`: cancelled bookings (status 3–7) of the classes that
 * start in a range of studio days, latest class first (keyset pages).
 */
export const CancellationsQuerySchema = z
  .strictObject({
    from: calendarDate(),
    to: calendarDate(),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(BOOKING_LIMITS.visitsPage).default(50),
  })
  .superRefine((v, ctx) => {
    if (!isLocalDate(v.from) || !isLocalDate(v.to)) return;
    const span = localDaysBetween(v.from, v.to);
    if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'before the first day' });
    else if (span >= BOOKING_LIMITS.scheduleDays)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${BOOKING_LIMITS.scheduleDays} days` });
  });
export type CancellationsQuery = z.infer<typeof CancellationsQuerySchema>;

export const BookingSettingsPatchSchema = z.strictObject({
  lateCancelFee: int(0, BOOKING_LIMITS.feeMax).optional(),
  noShowFee: int(0, BOOKING_LIMITS.feeMax).optional(),
  forgiveFirstOffence: z.boolean().optional(),
  promotionCutoffMinutes: int(...BOOKING_LIMITS.promotionCutoffMinutes).optional(),
  payAtDeskAllowed: z.boolean().optional(),
  checkInOpensMinutes: int(...BOOKING_LIMITS.checkInOpensMinutes).optional(),
  walkInMinutes: int(...BOOKING_LIMITS.walkInMinutes)
    .nullable()
    .optional(),
});
export type BookingSettingsPatch = z.infer<typeof BookingSettingsPatchSchema>;

// Front office
export const ClientBookInputSchema = z.strictObject({
  scheduleEventId: uuid(),
  /** Full class: join the waiting list (default) or refuse. */
  waitingList: z.boolean().default(true),
});
export type ClientBookInput = z.infer<typeof ClientBookInputSchema>;

/** Cancels a booking, or leaves the waiting list when the visit is waiting. */
export const ClientCancelInputSchema = z.strictObject({ clientVisitId: uuid() });
export type ClientCancelInput = z.infer<typeof ClientCancelInputSchema>;

export const WaitingListInputSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('join'), scheduleEventId: uuid() }),
  z.strictObject({ action: z.literal('leave'), scheduleEventId: uuid() }),
  z.strictObject({ action: z.literal('list') }),
]);
export type WaitingListInput = z.infer<typeof WaitingListInputSchema>;

export const MyVisitsInputSchema = z.strictObject({
  when: z.enum(VISIT_WHEN).default('upcoming'),
  cursor: z.string().max(200).optional(),
  limit: int(1, BOOKING_LIMITS.visitsPage).default(50),
});
export type MyVisitsInput = z.infer<typeof MyVisitsInputSchema>;

export const ClientScheduleInputSchema = z
  .strictObject({
    from: calendarDate(),
    to: calendarDate(),
  })
  .superRefine((v, ctx) => {
    if (!isLocalDate(v.from) || !isLocalDate(v.to)) return;
    const span = localDaysBetween(v.from, v.to);
    if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'before the first day' });
    else if (span >= BOOKING_LIMITS.scheduleDays)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${BOOKING_LIMITS.scheduleDays} days` });
  });
export type ClientScheduleInput = z.infer<typeof ClientScheduleInputSchema>;

// Public API
export const PublicBookInputSchema = z.strictObject({
  scheduleEventId: uuid(),
  userId: uuid(),
  waitingList: z.boolean().default(true),
});
export type PublicBookInput = z.infer<typeof PublicBookInputSchema>;
export const PublicCancelInputSchema = z.strictObject({ clientVisitId: uuid() });
export type PublicCancelInput = z.infer<typeof PublicCancelInputSchema>;
