import { z } from 'zod';
import { uuid } from './common';
import { ClientVisitSchema, MyVisitSchema, VisitEventSchema } from './bookings';
import { InstructorSchema } from './schedule';

/**
 * Courses and client enrollments (spec §4 "client enrollment can be made unpaid, reconciled,
 * unlocked", §7): a course is a class service of type `course` whose schedule meta is booked as a
 * whole; an enrollment is a client visit. See cloud/src/modules/bookings/README.md ("Courses",
 * "Enrollments").
 *
 * - staff (`/api/v4/{uuid}/…`): `GET schedule-meta/{scheduleMeta}/schedule-events` (→ { items }),
 *   `GET schedule-meta/{scheduleMeta}/enrollments/init` (→ CourseEnrollments),
 *   `POST client/{user}/client-enrollment/reconcile` (ReconcileInput → ReconcileResult),
 *   `POST client-enrollment/make-unpaid` (MakeUnpaidInput → { items: ClientVisitView[] });
 * - front office (signed-in client): `booking/course/book` (CourseBookInput → CourseBookingResult),
 *   `booking/course/cancel` (CourseBookInput → CourseBookingResult), `courses` (CoursesInput →
 *   CourseList), `enrollments` (EnrollmentsInput → { items: MyVisitView[] }), `enrollments/reconcile`
 *   (ReconcileInput → MyReconcileResult), `enrollments/unlock` (UnlockInput → UnlockResult),
 *   `waiting-time` (WaitingTimeInput → WaitingTimeList).
 */

export const ENROLLMENT_LIMITS = {
  ids: 100,
  /** The livestream link of a booked class opens this many minutes before the start. */
  unlockMinutesBefore: 15,
  /** Past events of the same series read to estimate freed places (waiting-time). */
  historyEvents: 8,
} as const;

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());

// ------------------------------------------------------------------------------------ answers

/** One course (a course meta) as a client sees it. */
export const CourseSchema = z.object({
  scheduleMetaId: z.string(),
  /** Its page's address: GET course/{slug}. */
  slug: z.string(),
  classService: z.object({
    id: z.string(),
    name: LocaleTextSchema,
    description: LocaleTextSchema,
    color: z.string(),
  }),
  location: z.object({ id: z.string(), name: z.string() }),
  instructors: z.array(InstructorSchema),
  daysOfWeek: z.array(z.number()),
  startTime: z.string(),
  firstDate: z.string(),
  lastDate: z.string().nullable(),
  /** Classes of the course not yet started and not cancelled. */
  sessions: z.number(),
  startsAt: z.string().nullable(),
  /** Places left on the fullest coming class (a course place is a place on every class). */
  placesLeft: z.number(),
  /** The client's standing visits on the course's coming classes. */
  myVisits: z.number(),
  enrolled: z.boolean(),
  /** May the client book the course now (it has not started, is bookable online and has places). */
  canBook: z.boolean(),
});
export type CourseView = z.infer<typeof CourseSchema>;

/** GET course/{slug}: a course's page (anyone may read it; a signed-in client sees their standing). */
export const CoursePageSchema = CourseSchema.extend({ timeZone: z.string() });
export type CoursePage = z.infer<typeof CoursePageSchema>;
export const CourseSlugParams = z.object({ uuid: z.string(), slug: z.string().max(120) });
export const CourseListSchema = z.object({ items: z.array(CourseSchema) });
export type CourseList = z.infer<typeof CourseListSchema>;

export const CourseBookingResultSchema = z.object({
  outcome: z.enum(['booked', 'unconfirmed', 'cancelled']),
  course: CourseSchema,
  /** The visits written or cancelled, one per class. */
  visits: z.array(MyVisitSchema),
  /** Of the cancelled visits, those cancelled late (entry kept, fee possible). */
  late: z.number(),
});
export type CourseBookingResult = z.infer<typeof CourseBookingResultSchema>;

export const CourseEnrollmentsSchema = z.object({
  scheduleMetaId: z.string(),
  classService: z.object({ id: z.string(), name: LocaleTextSchema, serviceType: z.string() }),
  events: z.array(
    z.object({
      id: z.string(),
      startsAt: z.string(),
      status: z.enum(['scheduled', 'cancelled', 'removed']),
      taken: z.number(),
      capacity: z.number(),
    }),
  ),
  /** One row per client with a visit on any of the meta's classes, in the order asked (first name by default). */
  clients: z.array(
    z.object({
      id: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string().nullable(),
      booked: z.number(),
      present: z.number(),
      absent: z.number(),
      unpaid: z.number(),
      waiting: z.number(),
      cancelled: z.number(),
      /** Every visit of the client on the meta's classes, by class time (a rebooked class: latest last). */
      visits: z.array(z.object({ scheduleEventId: z.string(), status: z.number() })),
    }),
  ),
});
export type CourseEnrollments = z.infer<typeof CourseEnrollmentsSchema>;

export const ReconcileResultSchema = z.object({
  /** Visits now paid by a pass or a contract. */
  reconciled: z.array(ClientVisitSchema),
  /** Visits still unpaid (no pass covers them). */
  unpaid: z.array(ClientVisitSchema),
});
export type ReconcileResult = z.infer<typeof ReconcileResultSchema>;
export const MyReconcileResultSchema = z.object({
  reconciled: z.array(MyVisitSchema),
  unpaid: z.array(MyVisitSchema),
});
export type MyReconcileResult = z.infer<typeof MyReconcileResultSchema>;

export const UnlockResultSchema = z.object({
  clientVisitId: z.string(),
  event: VisitEventSchema,
  livestreamUrl: z.string(),
});
export type UnlockResult = z.infer<typeof UnlockResultSchema>;

export const WaitingTimeSchema = z.object({
  clientVisitId: z.string(),
  event: VisitEventSchema,
  position: z.number(),
  /** People before the client on the list. */
  ahead: z.number(),
  capacity: z.number(),
  taken: z.number(),
  /** After this instant nobody is moved onto the class any more (the promotion cut-off). */
  promotionClosesAt: z.string(),
  /** Places freed (cancellations) per class on the series' last past classes; null without history. */
  typicalFreedPlaces: z.number().nullable(),
  /** A rough reading of `ahead` against `typicalFreedPlaces`. */
  chance: z.enum(['good', 'fair', 'low', 'unknown']),
});
export type WaitingTimeView = z.infer<typeof WaitingTimeSchema>;
export const WaitingTimeListSchema = z.object({ items: z.array(WaitingTimeSchema) });
export type WaitingTimeList = z.infer<typeof WaitingTimeListSchema>;

// ------------------------------------------------------------------------------------ inputs

export const CourseBookInputSchema = z.strictObject({ scheduleMetaId: uuid() });
export type CourseBookInput = z.infer<typeof CourseBookInputSchema>;
export const CoursesInputSchema = z.strictObject({
  /** `available`: courses still open to booking and the client's own; `mine`: only the client's. */
  scope: z.enum(['available', 'mine']).default('available'),
  classServiceId: uuid().optional(),
});
export type CoursesInput = z.infer<typeof CoursesInputSchema>;

const visitIds = () =>
  z
    .array(uuid(), { error: 'a list of visits is required' })
    .min(1, 'at least one visit')
    .max(ENROLLMENT_LIMITS.ids, `at most ${ENROLLMENT_LIMITS.ids} visits`);

/** Without ids: every unpaid visit of the client (status 9, or attended but unpaid). */
export const ReconcileInputSchema = z.strictObject({ clientVisitIds: visitIds().optional() });
export type ReconcileInput = z.infer<typeof ReconcileInputSchema>;
export const MakeUnpaidInputSchema = z.strictObject({ clientVisitIds: visitIds() });
export type MakeUnpaidInput = z.infer<typeof MakeUnpaidInputSchema>;
export const EnrollmentsInputSchema = z.strictObject({
  /** `standing`: coming visits with a place or on a waiting list; `unpaid`: visits still to be paid. */
  filter: z.enum(['standing', 'unpaid']).default('standing'),
});
export type EnrollmentsInput = z.infer<typeof EnrollmentsInputSchema>;
export const UnlockInputSchema = z.strictObject({ clientVisitId: uuid() });
export type UnlockInput = z.infer<typeof UnlockInputSchema>;
export const WaitingTimeInputSchema = z.strictObject({ scheduleEventId: uuid().optional() });
export type WaitingTimeInput = z.infer<typeof WaitingTimeInputSchema>;
