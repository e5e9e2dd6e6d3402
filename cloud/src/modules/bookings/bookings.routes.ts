import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type Router from '@koa/router';
import { type z } from 'zod';
import {
  type BookingResult,
  type EventEnrollments,
  type EventMessageResult,
  type PublicVisit,
} from '../../../../shared/contracts/api/bookings';
import {
  type ClassServiceListSchema,
  type LocationListSchema,
} from '../../../../shared/contracts/api/schedule';
import { csvDelimiterForLocale } from '../../../../shared/domain/clients';
import { can, type Ability } from '../../../../shared/policies/abilities';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { abilitiesOf } from '../../http/abilities';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio, type Membership, type Studio } from '../identity/index';
import { listClassServices, listLocations } from '../schedule/index';
import { publicSchedule } from '../schedule/index';
import { changeEnrollmentStatus } from './attendance.service';
import { bookVisit } from './book.service';
import { eventOfVisit, readEvent, settingsOf, standingVisit, updateSettings } from './booking-facts.service';
import { cancelVisit } from './cancel-and-fees.service';
import { moveWaiting, promoteOne } from './waiting-list.service';
import { enrollmentsCsv, messageAttendees } from './event-attendees-tools.service';
import { registerEnrollmentRoutes } from './enrollments.routes';
import { registerVisitPaymentRoutes } from './visit-payment.routes';
// The schedule's and sales' questions about visits are answered here (no import cycle).
import './module-hooks';
import {
  bookedVisit,
  cancellationList,
  clientSchedule,
  clientVisitList,
  enrollmentConflict,
  eventEnrollments,
  myVisit,
  myVisits,
  myWaitingList,
  visitViews,
} from './bookings-views.service';
import { BookingsApi } from '../../../../shared/contracts/http/bookings';
import { V } from '../../../../shared/domain/bookings';

type ClassServiceList = z.infer<typeof ClassServiceListSchema>;
type LocationList = z.infer<typeof LocationListSchema>;

const BOOK: Ability = 'schedule.book';
const CHECK_IN: Ability = 'schedule.checkIn';
const OVERRIDE: Ability = 'schedule.overrideRules';

async function assertCan(db: Db, membership: Membership, ability: Ability): Promise<void> {
  if (!can(await abilitiesOf(db, membership), ability))
    throw new AppError(ability === OVERRIDE ? 'visit.overrideForbidden' : 'auth.forbidden', {
      message:
        ability === OVERRIDE
          ? 'you may not override the booking rules'
          : 'you have no permission to perform this action',
    });
}

async function enrollmentsFor(db: Db, studio: Studio, membership: Membership, eventId: string, now: Date) {
  const abilities = await abilitiesOf(db, membership);
  return eventEnrollments(db, studio, eventId, now, {
    book: can(abilities, BOOK),
    checkIn: can(abilities, CHECK_IN),
    overrideRules: can(abilities, OVERRIDE),
  });
}

/** Public API keys: `x-api-key` holds the secret; only its SHA-256 is stored (`studio_apis`). */
export const API_KEY_HEADER = 'x-api-key';
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

async function studioOfApiKey(ctx: AppContext, db: Db): Promise<Studio> {
  const key = ctx.get(API_KEY_HEADER);
  const row =
    key && key.length >= 16 && key.length <= 200
      ? ((await db('studio_apis')
          .where({ keyHash: hashApiKey(key) })
          .whereNull('revoked_at')
          .first('studio_id')) as { studioId: string } | undefined)
      : undefined;
  if (!row) throw new AppError('apiKey.invalid', { message: 'missing or invalid API key' });
  const studio = await findStudio(db, row.studioId);
  if (!studio) throw new AppError('apiKey.invalid', { message: 'missing or invalid API key' });
  return studio;
}

async function publicVisit(db: Db, studioId: string, visitId: string, outcome: PublicVisit['outcome']) {
  const row = (await db('client_visits as v')
    .where({ 'v.studio_id': studioId, 'v.id': visitId })
    .first(
      'v.id',
      'v.schedule_event_id',
      'v.client_id',
      'v.status',
      db.raw(`case when v.status = ${V.waitingList} then (
        select count(*)::int from client_visits w where w.schedule_event_id = v.schedule_event_id
           and w.status = ${V.waitingList} and (w.waiting_position, w.id) <= (v.waiting_position, v.id)) end as waiting_rank`),
    )) as {
    id: string;
    scheduleEventId: string;
    clientId: string;
    status: number;
    waitingRank: number | null;
  };
  return {
    id: row.id,
    scheduleEventId: row.scheduleEventId,
    userId: row.clientId,
    status: row.status as PublicVisit['status'],
    waitingPosition: row.waitingRank === null ? null : Number(row.waitingRank),
    outcome,
  };
}

/**
 * Bookings (spec §7): staff enrolment, attendance and the waiting list; the front office's booking,
 * cancelling, waiting list and "my visits"; the public API's classroom book and cancel.
 */
export function registerBookingRoutes(router: Router<AppState, AppCustom>): void {
  // Courses and client enrollments (reconcile, make unpaid, unlock, waiting time).
  registerEnrollmentRoutes(router);
  // The front office paying a visit owed at the desk (pay options, pay with a held pass).
  registerVisitPaymentRoutes(router);
  // ------------------------------------------------------------------ back office
  defineRoute(router, {
    ...BookingsApi.postScheduleEventEnrollmentEnroll,
    handle: async ({ db, studio, membership, params, body, auth, deps }): Promise<BookingResult> => {
      if (body.override) await assertCan(db, membership, OVERRIDE);
      const now = deps.clock.now();
      const result = await bookVisit(
        db,
        studio,
        {
          actor: 'staff',
          actorUserId: auth.user.id,
          clientId: body.clientId,
          eventId: params.scheduleEvent,
          override: body.override,
          waitingListWanted: body.waitingList,
          passId: body.clientPricingOptionId,
          payAtDesk: body.payAtDesk,
        },
        now,
      );
      return { outcome: result.outcome, visit: await myVisit(db, studio, result.visitId, now) };
    },
  });
  defineRoute(router, {
    ...BookingsApi.getScheduleEventEnrollmentsInit,
    handle: ({ db, studio, membership, params, deps }) =>
      enrollmentsFor(db, studio, membership, params.scheduleEvent, deps.clock.now()),
  });
  defineRoute(router, {
    ...BookingsApi.getScheduleEventsClientVisits,
    handle: ({ db, studio, membership, params, deps }) =>
      enrollmentsFor(db, studio, membership, params.referenceId, deps.clock.now()),
  });
  /** The attendee list as a CSV download (spec §7 `enrollments/export`). */
  defineRoute(router, {
    ...BookingsApi.postScheduleEventEnrollmentsExport,
    handle: async ({ db, ctx, studio, params, body, deps }): Promise<Readable> => {
      const delimiter = body.delimiter ?? csvDelimiterForLocale(studio.defaultLocale);
      const csv = await enrollmentsCsv(db, studio, params.scheduleEvent, delimiter, deps.clock.now());
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="${csv.filename}"`);
      return csv.body;
    },
  });
  /** A message to everyone on the class: in-app notification and e-mail (spec §7 `enrollments/send-notification`). */
  defineRoute(router, {
    ...BookingsApi.postScheduleEventEnrollmentsSendNotification,
    handle: async ({ db, studio, params, body }): Promise<EventMessageResult> => ({
      notified: await messageAttendees(
        db,
        studio,
        params.scheduleEvent,
        body.message,
        body.includeWaitingList,
      ),
    }),
  });
  /** Cancelled bookings of a range of days (spec §7 `schedule-event-cancellation/collection`). */
  defineRoute(router, {
    ...BookingsApi.getScheduleEventCancellationCollection,
    handle: ({ db, studio, query }) => cancellationList(db, studio, query),
  });
  defineRoute(router, {
    ...BookingsApi.postScheduleEventCheckIn,
    handle: async ({ db, studio, membership, params, body, auth, deps }) => {
      const now = deps.clock.now();
      if (body.override) await assertCan(db, membership, OVERRIDE);
      await readEvent(db, studio.id, params.scheduleEvent);
      let visit = await standingVisit(db, studio.id, params.scheduleEvent, body.clientId);
      if (!visit) {
        if (!body.enrollIfMissing)
          throw new AppError('visit.statusNotAllowed', {
            message: 'not booked on this class',
            fields: { clientId: ['not booked on this class'] },
          });
        await assertCan(db, membership, BOOK);
        const booked = await bookVisit(
          db,
          studio,
          {
            actor: 'staff',
            actorUserId: auth.user.id,
            clientId: body.clientId,
            eventId: params.scheduleEvent,
            override: body.override,
            waitingListWanted: false,
          },
          now,
        );
        visit = { id: booked.visitId, status: 0 };
      } else if (visit.status === 8) {
        await assertCan(db, membership, BOOK);
        await promoteOne(db, studio, params.scheduleEvent, visit.id, body.override, now);
      }
      await changeEnrollmentStatus(db, studio, [visit.id], 'present', auth.user.id, true, now);
      return (await visitViews(db, studio, [visit.id]))[0]!;
    },
  });
  defineRoute(router, {
    ...BookingsApi.postScheduleEventWaitingListPromote,
    handle: async ({ db, studio, membership, params, body, deps }): Promise<EventEnrollments> => {
      if (body.override) await assertCan(db, membership, OVERRIDE);
      const now = deps.clock.now();
      await promoteOne(db, studio, params.scheduleEvent, body.clientVisitId, body.override, now);
      return enrollmentsFor(db, studio, membership, params.scheduleEvent, now);
    },
  });
  defineRoute(router, {
    ...BookingsApi.postScheduleEventWaitingListMove,
    handle: async ({ db, studio, membership, params, body, deps }): Promise<EventEnrollments> => {
      await moveWaiting(db, studio, params.scheduleEvent, body.clientVisitId, body.position);
      return enrollmentsFor(db, studio, membership, params.scheduleEvent, deps.clock.now());
    },
  });
  defineRoute(router, {
    ...BookingsApi.postClientEnrollmentStatus,
    handle: async ({ db, studio, membership, body, auth, deps }) => {
      await assertCan(db, membership, body.action === 'cancel' ? BOOK : CHECK_IN);
      await changeEnrollmentStatus(
        db,
        studio,
        body.clientVisitIds,
        body.action,
        auth.user.id,
        body.chargeFee,
        deps.clock.now(),
      );
      return { items: await visitViews(db, studio, body.clientVisitIds), next: null };
    },
  });
  defineRoute(router, {
    ...BookingsApi.getEnrollmentConflict,
    handle: ({ db, studio, query }) => enrollmentConflict(db, studio, query.clientId, query.scheduleEventId),
  });
  defineRoute(router, {
    ...BookingsApi.getClientClientVisitCollection,
    handle: ({ db, studio, params, query, deps }) =>
      clientVisitList(db, studio, params.user, query, deps.clock.now()),
  });
  defineRoute(router, {
    ...BookingsApi.getSettingsBooking,
    handle: ({ db, studio }) => settingsOf(db, studio),
  });
  defineRoute(router, {
    ...BookingsApi.patchSettingsBooking,
    handle: ({ db, studio, body }) => updateSettings(db, studio, body),
  });

  // ------------------------------------------------------------------ front office (signed-in client)
  defineRoute(router, {
    ...BookingsApi.postBookingClassroomBook,
    handle: ({ db, studio, body, auth, deps }) =>
      bookVisit(
        db,
        studio,
        {
          actor: 'self',
          actorUserId: auth.user.id,
          clientId: auth.user.id,
          eventId: body.scheduleEventId,
          override: false,
          waitingListWanted: body.waitingList,
        },
        deps.clock.now(),
      ),
    // Put together from what the booking read and wrote (`bookedVisit`): no read after the commit.
    present: async (result, { db, studio, deps }): Promise<BookingResult> => ({
      outcome: result.outcome,
      visit: await bookedVisit(db, studio, result, deps.clock.now()),
    }),
  });
  defineRoute(router, {
    ...BookingsApi.postBookingClassroomCancel,
    handle: async ({ db, studio, body, auth, deps }): Promise<BookingResult> => {
      const now = deps.clock.now();
      const result = await cancelVisit(db, studio, body.clientVisitId, 'self', auth.user.id, now, {
        clientId: auth.user.id,
      });
      return { outcome: result.outcome, visit: await myVisit(db, studio, result.visitId, now) };
    },
  });
  defineRoute(router, {
    ...BookingsApi.postBookingSchedule,
    handle: ({ db, studio, body, auth, deps }) =>
      clientSchedule(db, studio, auth.user.id, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...BookingsApi.postWaitinglist,
    handle: async ({ db, studio, body, auth, deps }) => {
      const now = deps.clock.now();
      if (body.action === 'join') {
        const result = await bookVisit(
          db,
          studio,
          {
            actor: 'self',
            actorUserId: auth.user.id,
            clientId: auth.user.id,
            eventId: body.scheduleEventId,
            override: false,
            waitingListWanted: true,
          },
          now,
        );
        // Joining a class with a free place simply books it (nobody waits for a free place).
        void result;
      } else if (body.action === 'leave') {
        await readEvent(db, studio.id, body.scheduleEventId);
        const visit = await standingVisit(db, studio.id, body.scheduleEventId, auth.user.id);
        if (!visit || visit.status !== 8)
          throw new AppError('visit.notWaiting', {
            message: 'not on the waiting list',
            fields: { scheduleEventId: ['not on the waiting list'] },
          });
        await cancelVisit(db, studio, visit.id, 'self', auth.user.id, now, { clientId: auth.user.id });
      }
      return myWaitingList(db, studio, auth.user.id, now);
    },
  });
  defineRoute(router, {
    ...BookingsApi.postClientVisitsInit,
    handle: ({ db, studio, body, auth, deps }) => myVisits(db, studio, auth.user.id, body, deps.clock.now()),
  });

  // ------------------------------------------------------------------ public API (API key)
  // Reading for a partner's site: the timetable (GET with a query or POST with a body, as §7 lists
  // both), the class services and locations it filters by, and one client's visits.
  defineRoute(router, {
    ...BookingsApi.getPublicSchedule,
    handle: async ({ db, ctx, query }) => publicSchedule(db, await studioOfApiKey(ctx, db), query),
  });
  defineRoute(router, {
    ...BookingsApi.postPublicSchedule,
    handle: async ({ db, ctx, body }) => publicSchedule(db, await studioOfApiKey(ctx, db), body),
  });
  defineRoute(router, {
    ...BookingsApi.getPublicClassServiceAll,
    handle: async ({ db, ctx }): Promise<ClassServiceList> => ({
      items: await listClassServices(db, await studioOfApiKey(ctx, db)),
      next: null,
    }),
  });
  defineRoute(router, {
    ...BookingsApi.getPublicLocationAll,
    handle: async ({ db, ctx }): Promise<LocationList> => ({
      items: await listLocations(db, await studioOfApiKey(ctx, db)),
      next: null,
    }),
  });
  defineRoute(router, {
    ...BookingsApi.getPublicClientVisits,
    handle: async ({ db, ctx, params, query, deps }) =>
      clientVisitList(db, await studioOfApiKey(ctx, db), params.user, query, deps.clock.now()),
  });
  defineRoute(router, {
    ...BookingsApi.postPublicClassroomBook,
    handle: async ({ db, ctx, body, deps }): Promise<PublicVisit> => {
      const studio = await studioOfApiKey(ctx, db);
      const now = deps.clock.now();
      const result = await bookVisit(
        db,
        studio,
        {
          actor: 'api',
          actorUserId: null,
          clientId: body.userId,
          eventId: body.scheduleEventId,
          override: false,
          waitingListWanted: body.waitingList,
        },
        now,
      );
      return publicVisit(db, studio.id, result.visitId, result.outcome);
    },
  });
  defineRoute(router, {
    ...BookingsApi.postPublicClassroomCancel,
    handle: async ({ db, ctx, body, deps }): Promise<PublicVisit> => {
      const studio = await studioOfApiKey(ctx, db);
      await eventOfVisit(db, studio.id, body.clientVisitId);
      const result = await cancelVisit(db, studio, body.clientVisitId, 'api', null, deps.clock.now());
      return publicVisit(db, studio.id, result.visitId, result.outcome);
    },
  });
}
