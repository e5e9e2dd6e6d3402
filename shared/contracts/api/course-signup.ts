import { z } from 'zod';
import { uuid } from './common';
import { ClientVisitSchema } from './bookings';
import { CourseSchema } from './enrollments';

/**
 * The back office's course pages (spec §2 "course signup and confirm by {scheduleMetaGuid}; course
 * attendance list by {scheduleMetaGuid} sortable by field (default firstName) and method (default
 * ASC); course list"). Staff calls under `/api/v4/{uuid}/`:
 *
 * - `GET course/course/init` (`?scope=upcoming|all`) → StaffCourseList (spec §7 "course/course/init");
 * - `POST course/{scheduleMeta}/signup/preview` (CourseSignupInput → CourseSignupPlan): what signing
 *   the client up would do, class by class, written and rolled back — nothing is kept;
 * - `POST course/{scheduleMeta}/signup/confirm` (CourseSignupInput → CourseSignupResult): books every
 *   class to come in one transaction, all or nothing;
 * - `GET schedule-meta/{scheduleMeta}/enrollments/init` (`?field&method`, CourseAttendanceQuery) →
 *   CourseEnrollments (enrollments.ts).
 *
 * See cloud/src/modules/bookings/README.md ("Course signup (back office)").
 */

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());

/** A course as staff see it: the client's view without the client, plus who is on it. */
export const StaffCourseSchema = CourseSchema.omit({ myVisits: true, enrolled: true, canBook: true }).extend({
  /** Clients with a standing visit (booked, attended, unpaid or waiting) on a class of the course to come. */
  enrolled: z.number(),
  /** A class of the course has started: clients can no longer join it online (staff still can). */
  started: z.boolean(),
  /** Classes of the course in all (scheduled or held, not cancelled or removed). */
  classesTotal: z.number(),
});
export type StaffCourseView = z.infer<typeof StaffCourseSchema>;
export const StaffCourseListSchema = z.object({ items: z.array(StaffCourseSchema) });
export type StaffCourseList = z.infer<typeof StaffCourseListSchema>;
export const StaffCourseListQuerySchema = z.strictObject({
  /** `upcoming`: courses with a class to come; `all`: every course meta, latest first among the past. */
  scope: z.enum(['upcoming', 'all']).default('upcoming'),
});
export type StaffCourseListQuery = z.infer<typeof StaffCourseListQuerySchema>;

export const COURSE_SIGNUP_PAYMENTS = ['auto', 'pass', 'desk'] as const;

/**
 * How the classes are paid: `auto` — for each class a covering client contract, else a covering
 * pass, else at the desk (unconfirmed); `pass` — the named pass for every class (a class it does not
 * cover refuses the course); `desk` — every class at the desk.
 */
export const CourseSignupInputSchema = z
  .strictObject({
    clientId: uuid(),
    payment: z.enum(COURSE_SIGNUP_PAYMENTS).default('auto'),
    clientPricingOptionId: uuid().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.payment === 'pass' && !v.clientPricingOptionId)
      ctx.addIssue({ code: 'custom', path: ['clientPricingOptionId'], message: 'choose a pass' });
    if (v.payment !== 'pass' && v.clientPricingOptionId)
      ctx.addIssue({
        code: 'custom',
        path: ['clientPricingOptionId'],
        message: 'a pass is named only with payment "pass"',
      });
  });
export type CourseSignupInput = z.infer<typeof CourseSignupInputSchema>;

/** Why one class would refuse the client: the error key and message of the single-class rule. */
export const ClassRefusalSchema = z.object({ key: z.string(), message: z.string() });

export const CourseSignupPlanSchema = z.object({
  course: StaffCourseSchema,
  client: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
  }),
  /** Every class to come, in time order, with the visit it would get or why it refuses. */
  classes: z.array(
    z.object({
      scheduleEventId: z.string(),
      startsAt: z.string(),
      endsAt: z.string(),
      taken: z.number(),
      capacity: z.number(),
      /** The visit as it would be written (its payment: pass, contract, free or desk); null if refused. */
      visit: ClientVisitSchema.nullable(),
      refusal: ClassRefusalSchema.nullable(),
    }),
  ),
  /** Every class can be booked: confirming will book them all. */
  canConfirm: z.boolean(),
  /** What the course costs when bought: the pricing options attached to its meta. */
  prices: z.array(
    z.object({
      pricingOptionId: z.string(),
      name: LocaleTextSchema,
      price: z.number(),
      currency: z.string(),
    }),
  ),
});
export type CourseSignupPlan = z.infer<typeof CourseSignupPlanSchema>;

export const CourseSignupResultSchema = z.object({
  /** `unconfirmed` when at least one class is to be paid at the desk. */
  outcome: z.enum(['booked', 'unconfirmed']),
  visits: z.array(ClientVisitSchema),
});
export type CourseSignupResult = z.infer<typeof CourseSignupResultSchema>;

export const COURSE_ATTENDANCE_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'booked',
  'present',
  'absent',
  'unpaid',
  'waiting',
  'cancelled',
] as const;
export type CourseAttendanceField = (typeof COURSE_ATTENDANCE_FIELDS)[number];

/** The attendance list's order (spec §2: field, default firstName; method, default ASC). */
export const CourseAttendanceQuerySchema = z.strictObject({
  field: z.enum(COURSE_ATTENDANCE_FIELDS).default('firstName'),
  method: z
    .preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['ASC', 'DESC']))
    .default('ASC'),
});
export type CourseAttendanceQuery = z.infer<typeof CourseAttendanceQuerySchema>;
