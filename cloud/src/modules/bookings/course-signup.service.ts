import type {
  CourseSignupInput,
  CourseSignupPlan,
  StaffCourseListQuery,
  StaffCourseView,
} from '../../../../shared/contracts/api/course-signup';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { instructorsById } from '../schedule/index';
import { bookVisit } from './book.service';
import { lockClient, lockEvent } from './booking-facts.service';
import { visitViews } from './bookings-views.service';
import {
  comingEvents,
  courseBaseView,
  courseMeta,
  courseMetas,
  startedMetas,
  type CourseMetaRow,
} from './courses.service';

/**
 * The back office's course pages: the course list, and staff signing a client up for a whole course
 * (preview, then confirm). Booking goes through `bookVisit` class by class in one transaction, as
 * the client's `booking/course/book` does, but as staff: online rules, the booking window and "the
 * course has started" do not bind the desk, payment may fall back to the desk. Decisions:
 * cloud/src/modules/bookings/README.md ("Course signup (back office)").
 */

const STANDING = [0, 1, 2, 8, 9];

// ------------------------------------------------------------------------------------ course list

async function presentStaffCourses(
  db: Db,
  studio: Studio,
  metas: CourseMetaRow[],
  now: Date,
): Promise<StaffCourseView[]> {
  const ids = metas.map((m) => m.id);
  if (ids.length === 0) return [];
  // One after the other: on a request's transaction (the preview) they share one connection.
  const events = await comingEvents(db, studio.id, ids, now);
  const started = await startedMetas(db, studio.id, ids, now);
  const totals = (await db('schedule_events')
    .where({ studioId: studio.id, status: 'scheduled' })
    .whereIn('schedule_meta_id', ids)
    .groupBy('schedule_meta_id')
    .select('schedule_meta_id', db.raw('count(*)::int as n'))) as Array<{
    scheduleMetaId: string;
    n: number;
  }>;
  const enrolled = (await db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .where('v.studio_id', studio.id)
    .whereIn('e.schedule_meta_id', ids)
    .whereIn('v.status', STANDING)
    .where('e.starts_at', '>', now)
    .groupBy('e.schedule_meta_id')
    .select('e.schedule_meta_id', db.raw('count(distinct v.client_id)::int as n'))) as Array<{
    scheduleMetaId: string;
    n: number;
  }>;
  const people = await instructorsById(
    db,
    studio.id,
    metas.flatMap((m) => m.instructorIds ?? []),
  );
  const totalOf = new Map(totals.map((r) => [r.scheduleMetaId, r.n]));
  const enrolledOf = new Map(enrolled.map((r) => [r.scheduleMetaId, r.n]));
  return metas.map((m) => {
    const own = events.filter((e) => e.scheduleMetaId === m.id);
    return {
      ...courseBaseView(m, own, people, studio.defaultLocale),
      enrolled: enrolledOf.get(m.id) ?? 0,
      started: started.has(m.id),
      classesTotal: totalOf.get(m.id) ?? 0,
    };
  });
}

/** Course metas of the studio: those with a class to come (soonest first), or all (latest first). */
export async function listStaffCourses(
  db: Db,
  studio: Studio,
  query: StaffCourseListQuery,
  now: Date,
): Promise<StaffCourseView[]> {
  const q = courseMetas(db, studio.id).where('s.service_type', 'course');
  if (query.scope === 'upcoming')
    q.whereExists(
      db('schedule_events as e')
        .whereRaw('e.schedule_meta_id = m.id')
        .where('e.status', 'scheduled')
        .where('e.starts_at', '>', now)
        .select(db.raw('1')),
    ).orderBy([{ column: 'm.first_date' }, { column: 'm.id' }]);
  else q.orderBy([{ column: 'm.first_date', order: 'desc' }, { column: 'm.id' }]);
  return presentStaffCourses(db, studio, (await q.limit(500)) as CourseMetaRow[], now);
}

export async function staffCourse(db: Db, studio: Studio, metaId: string, now: Date) {
  return (await presentStaffCourses(db, studio, [await courseMeta(db, studio.id, metaId)], now))[0]!;
}

// ------------------------------------------------------------------------------------ signup

interface ClassOutcome {
  scheduleEventId: string;
  visitId: string | null;
  refusal: { key: string; message: string } | null;
  unconfirmed: boolean;
}

/** Thrown inside the preview's savepoint to undo what it wrote. */
class PreviewRollback extends Error {
  constructor(readonly plan: CourseSignupPlan) {
    super('preview rolled back');
  }
}

/**
 * Books the client on every class of the course still to come, in the caller's transaction. The
 * course's events are locked in id order before the client (the booking path's lock order). With
 * `collect` a refusing class is recorded and the next one tried (the preview); otherwise the first
 * refusal refuses the course with that class's reason and start on `scheduleMetaId` (all or nothing).
 */
async function bookCourseAsStaff(
  trx: Db,
  studio: Studio,
  actorId: string,
  metaId: string,
  input: CourseSignupInput,
  now: Date,
  collect: boolean,
) {
  await courseMeta(trx, studio.id, metaId);
  const client = (await trx('clients as c')
    .join('users as u', 'u.id', 'c.user_id')
    .where({ 'c.studio_id': studio.id, 'c.user_id': input.clientId })
    .first('u.id', 'u.first_name', 'u.last_name', 'u.email')) as
    { id: string; firstName: string; lastName: string; email: string | null } | undefined;
  if (!client) throw AppError.notFound('client');
  const events = await comingEvents(trx, studio.id, [metaId], now);
  if (events.length === 0)
    throw new AppError('course.notStartable', {
      message: 'the course has no classes to come',
      fields: { scheduleMetaId: ['the course has no classes to come'] },
    });
  // The booking path's lock order: the client, then the events in id order.
  await lockClient(trx, studio.id, client.id);
  for (const id of events.map((e) => e.id).sort()) await lockEvent(trx, studio.id, id);
  const outcomes: ClassOutcome[] = [];
  for (const e of events) {
    const attempt = (payAtDesk: boolean) =>
      bookVisit(
        trx,
        studio,
        {
          actor: 'staff',
          actorUserId: actorId,
          clientId: input.clientId,
          eventId: e.id,
          override: false,
          waitingListWanted: false,
          passId: input.payment === 'pass' ? input.clientPricingOptionId : undefined,
          payAtDesk,
        },
        now,
      );
    try {
      let result;
      try {
        result = await attempt(input.payment === 'desk');
      } catch (err) {
        // `auto`: a class nothing covers is owed at the desk (a refusal writes nothing, so try again).
        if (input.payment === 'auto' && err instanceof AppError && err.key === 'visit.noPass')
          result = await attempt(true);
        else throw err;
      }
      outcomes.push({
        scheduleEventId: e.id,
        visitId: result.visitId,
        refusal: null,
        unconfirmed: result.outcome === 'unconfirmed',
      });
    } catch (err) {
      if (!(err instanceof AppError && err.fields?.scheduleEventId)) throw err;
      if (collect) {
        outcomes.push({
          scheduleEventId: e.id,
          visitId: null,
          refusal: { key: err.key, message: err.message },
          unconfirmed: false,
        });
        continue;
      }
      const when = new Date(e.startsAt).toISOString();
      throw new AppError(err.key, {
        message: err.message,
        fields: { scheduleMetaId: err.fields.scheduleEventId.map((m) => `${m} (${when})`) },
      });
    }
  }
  return { client, events, outcomes };
}

/**
 * What signing the client up would do, class by class: the visits are written in a savepoint, read
 * back exactly as the attendee list shows them (which pass, contract, free or at the desk), and
 * rolled back. Entries are spent class after class as the real booking would spend them.
 */
export async function previewCourseSignup(
  db: Db,
  studio: Studio,
  actorId: string,
  metaId: string,
  input: CourseSignupInput,
  now: Date,
): Promise<CourseSignupPlan> {
  const course = await staffCourse(db, studio, metaId, now);
  const prices = (await db('schedule_meta_pricing_options as j')
    .join('pricing_options as p', 'p.id', 'j.pricing_option_id')
    .where({ 'j.schedule_meta_id': metaId, 'p.studio_id': studio.id })
    .orderBy([{ column: 'p.price' }, { column: 'p.id' }])
    .select('p.id', 'p.name', 'p.price')) as Array<{
    id: string;
    name: CourseSignupPlan['prices'][number]['name'];
    price: number;
  }>;
  try {
    await db.transaction(async (sp) => {
      const { client, events, outcomes } = await bookCourseAsStaff(
        sp,
        studio,
        actorId,
        metaId,
        input,
        now,
        true,
      );
      const views = new Map(
        (
          await visitViews(
            sp,
            studio,
            outcomes.flatMap((o) => (o.visitId ? [o.visitId] : [])),
          )
        ).map((v) => [v.id, v]),
      );
      const plan: CourseSignupPlan = {
        course,
        client,
        classes: events.map((e, i) => {
          const o = outcomes[i]!;
          return {
            scheduleEventId: e.id,
            startsAt: new Date(e.startsAt).toISOString(),
            endsAt: new Date(e.endsAt).toISOString(),
            taken: e.taken,
            capacity: e.capacity,
            visit: o.visitId ? (views.get(o.visitId) ?? null) : null,
            refusal: o.refusal,
          };
        }),
        canConfirm: outcomes.every((o) => o.refusal === null),
        prices: prices.map((p) => ({
          pricingOptionId: p.id,
          name: p.name,
          price: p.price,
          currency: studio.currency,
        })),
      };
      throw new PreviewRollback(plan);
    });
  } catch (err) {
    if (err instanceof PreviewRollback) return err.plan;
    throw err;
  }
  throw new Error('the preview did not roll back');
}

/** Signs the client up for every class to come, in the request's transaction: all or nothing. */
export async function confirmCourseSignup(
  trx: Db,
  studio: Studio,
  actorId: string,
  metaId: string,
  input: CourseSignupInput,
  now: Date,
): Promise<{ outcome: 'booked' | 'unconfirmed'; visitIds: string[] }> {
  const { outcomes } = await bookCourseAsStaff(trx, studio, actorId, metaId, input, now, false);
  return {
    outcome: outcomes.some((o) => o.unconfirmed) ? 'unconfirmed' : 'booked',
    visitIds: outcomes.map((o) => o.visitId!),
  };
}
