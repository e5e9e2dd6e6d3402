import type { Knex } from 'knex';
import {
  BookClassArgsSchema,
  CancelBookingArgsSchema,
  CheckInArgsSchema,
  CheckInV2ArgsSchema,
  SetAttendanceArgsSchema,
  type BookClassArgs,
  type CancelBookingArgs,
  type CheckInArgs,
  type CheckInV2Args,
  type Outcome,
  type SetAttendanceArgs,
} from '../../../../shared/contracts/sync';
import { V, isCancelled } from '../../../../shared/domain/bookings';
import { AppError } from '../../../../shared/errors';
import {
  bookVisit,
  cancelVisit,
  changeEnrollmentStatus,
  standingVisit,
  type BookRequest,
} from '../../modules/bookings/index';
import { refreshPassProjection } from '../../modules/catalog/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';

/**
 * The visit commands of a front-desk station, run with the bookings module's own rules
 * (bookVisit / cancelVisit / changeEnrollmentStatus) so the station and the back office agree.
 */

/** Grace given to a station's cancellation time before it counts as late (its clock is corrected, not exact). */
export const CANCEL_TOLERANCE_MS = 2 * 60_000;

interface VisitFacts {
  id: string;
  status: number;
  payment: string;
  paidAt: Date | null;
  clientPricingOptionId: string | null;
  scheduleEventId: string;
  clientId: string;
}

async function visitById(trx: Knex, studioId: string, id: string): Promise<VisitFacts | undefined> {
  return (await trx('client_visits')
    .where({ studioId, id })
    .first(
      'id',
      'status',
      'payment',
      'paid_at',
      'client_pricing_option_id',
      'schedule_event_id',
      'client_id',
    )) as VisitFacts | undefined;
}

/**
 * The station chose the visit's id; bookVisit draws its own. The new row takes the station's id in the
 * same transaction (nothing refers to it yet), so a later cancelBooking or checkIn of that id finds it.
 */
async function adoptId(trx: Knex, drawn: string, wanted: string): Promise<void> {
  if (drawn === wanted) return;
  // Rows other modules wrote for the new visit in this transaction (e.g. its booking mail) point at
  // the drawn id: lifted out, the id changed, put back pointing at the station's id.
  const refs: { rows: Array<{ tbl: string; col: string }> } = await trx.raw(
    `select cl.relname as tbl, a.attname as col
       from pg_constraint c
       join pg_class cl on cl.oid = c.conrelid
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = 'client_visits'::regclass and cardinality(c.conkey) = 1`,
  );
  const lifted: Array<{ tbl: string; rows: Array<Record<string, unknown>> }> = [];
  for (const { tbl, col } of refs.rows) {
    const gone: { rows: Array<{ row: Record<string, unknown> }> } = await trx.raw(
      `delete from ?? where ?? = ? returning to_jsonb(??.*) as row`,
      [tbl, col, drawn, tbl],
    );
    if (gone.rows.length > 0) lifted.push({ tbl, rows: gone.rows.map((r) => ({ ...r.row, [col]: wanted })) });
  }
  await trx('client_visits').where({ id: drawn }).update({ id: wanted });
  for (const { tbl, rows } of lifted)
    await trx.raw(`insert into ?? select * from jsonb_populate_recordset(null::??, ?::jsonb)`, [
      tbl,
      tbl,
      JSON.stringify(rows),
    ]);
}

function bookingOutcome(status: number, flags: string[], visitId: string): Outcome {
  const data = { visitId, visitStatus: status };
  if (status === V.waitingList) return { status: 'waitlisted', ...(flags.length ? { flags } : {}), data };
  return flags.length > 0 ? { status: 'flagged', flags, data } : { status: 'applied', data };
}

/**
 * bookClass@1 — intent, capacity decided under the event's row lock in server receipt order. The time
 * rules read the station's corrected action time (a class that ended between the offline booking and
 * the push is still bookable by staff).
 */
async function bookClassCommand(ctx: CommandContext<BookClassArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  if (!ctx.actorAllowed)
    throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  const flags = [...ctx.clockFlags];
  const existing = await visitById(trx, studio.id, args.visitId);
  if (existing) {
    if (existing.clientId !== args.userId || existing.scheduleEventId !== args.scheduleEventId)
      throw new AppError('resource.conflict', { message: 'this visit id belongs to another booking' });
    return bookingOutcome(existing.status, flags, existing.id);
  }
  const request: BookRequest = {
    // A kiosk's offline booking is the client's own: the online rules bind, as at the kiosk online.
    actor: args.selfBooking ? 'self' : 'staff',
    actorUserId: args.selfBooking ? null : ctx.actorId,
    clientId: args.userId,
    eventId: args.scheduleEventId,
    override: false,
    waitingListWanted: args.waitingList,
    ...(args.clientPricingOptionId ? { passId: args.clientPricingOptionId } : {}),
    ...(args.payAtDesk ? { payAtDesk: true } : {}),
  };
  let booked: { visitId: string };
  try {
    booked = await bookVisit(trx, studio, request, ctx.occurredAt);
  } catch (err) {
    // The client stands at the desk and the class is full: staff book them anyway, flagged overbooked.
    if (!(err instanceof AppError) || err.key !== 'visit.classFull' || !args.clientPresent) throw err;
    booked = await bookVisit(trx, studio, { ...request, override: true }, ctx.occurredAt);
    flags.push('overbooked');
    await ctx.flag(
      'overbooked',
      { table: 'client_visits', id: args.visitId },
      {
        scheduleEventId: args.scheduleEventId,
      },
    );
  }
  await adoptId(trx, booked.visitId, args.visitId);
  const row = (await visitById(trx, studio.id, args.visitId))!;
  return bookingOutcome(row.status, flags, row.id);
}

/**
 * cancelBooking@1 — intent, idempotent: a visit already cancelled answers applied again. Early or late
 * is decided at the station's corrected action time less a small tolerance, not at receipt: a client
 * who cancelled in time while the desk was offline is not charged.
 */
async function cancelBookingCommand(ctx: CommandContext<CancelBookingArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  if (!ctx.actorAllowed)
    throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  const visit = await visitById(trx, studio.id, args.visitId);
  if (!visit) throw AppError.notFound('visit');
  if (isCancelled(visit.status))
    return {
      status: 'applied',
      data: { visitId: visit.id, visitStatus: visit.status, alreadyCancelled: true },
    };
  const at = new Date(ctx.occurredAt.getTime() - CANCEL_TOLERANCE_MS);
  const done = await cancelVisit(trx, studio, visit.id, 'staff', ctx.actorId, at, {
    chargeFee: args.chargeFee,
  });
  const after = (await visitById(trx, studio.id, visit.id))!;
  const flags = [...ctx.clockFlags];
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: { visitId: visit.id, visitStatus: after.status, cancel: done.outcome },
  };
}

/**
 * checkIn@1 — fact, never rejected. The visit named, else the client's standing visit on the class,
 * else a new visit booked by staff over capacity (the person is in the room) with the pass the
 * catalog's rule picks at the class time; with no pass it stays unpaid at the desk, flagged
 * `uncovered` (a receivable for the desk). Attendance the rules would refuse (too early, a waiting-list
 * visit) is recorded anyway and flagged `attendanceForced`.
 */
async function checkInCommand(ctx: CommandContext<CheckInArgs | CheckInV2Args>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  const flags = [...ctx.clockFlags];
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');
  let visit = await visitById(trx, studio.id, args.visitId);
  if (visit && (visit.clientId !== args.userId || visit.scheduleEventId !== args.scheduleEventId))
    throw new AppError('resource.conflict', { message: 'this visit id belongs to another booking' });
  if (!visit) {
    const standing = await standingVisit(trx, studio.id, args.scheduleEventId, args.userId);
    if (standing) visit = await visitById(trx, studio.id, standing.id);
  }
  if (!visit || isCancelled(visit.status)) {
    const request: BookRequest = {
      actor: 'staff',
      actorUserId: ctx.actorId,
      clientId: args.userId,
      eventId: args.scheduleEventId,
      override: true,
      waitingListWanted: false,
    };
    let booked: { visitId: string } | null = null;
    // checkIn@2: the pass the station counted it on, while it still covers the class; else @1's rule.
    const passId = 'clientPricingOptionId' in args ? args.clientPricingOptionId : null;
    if (passId) {
      try {
        booked = await trx.transaction((sp) => bookVisit(sp, studio, { ...request, passId }, ctx.occurredAt));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    try {
      booked ??= await bookVisit(trx, studio, request, ctx.occurredAt);
    } catch (err) {
      if (!(err instanceof AppError) || err.key !== 'visit.noPass') throw err;
      booked = await bookVisit(trx, studio, { ...request, payAtDesk: true }, ctx.occurredAt);
    }
    // A cancelled visit under the station's id cannot be re-used: the new one keeps its drawn id.
    if (!visit) await adoptId(trx, booked.visitId, args.visitId);
    visit = (await visitById(trx, studio.id, visit ? booked.visitId : args.visitId))!;
  }
  if (visit.status !== V.present) {
    try {
      await trx.transaction((sp) =>
        changeEnrollmentStatus(sp, studio, [visit.id], 'present', ctx.actorId ?? '', false, ctx.occurredAt),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await trx('client_visits').where({ id: visit.id }).update({
        status: V.present,
        waitingPosition: null,
        checkedInAt: ctx.occurredAt,
        attendanceMarkedAt: ctx.occurredAt,
        updatedAt: trx.fn.now(),
      });
      if (visit.clientPricingOptionId)
        await refreshPassProjection(trx, studio, visit.clientPricingOptionId, ctx.occurredAt);
      flags.push('attendanceForced');
      await ctx.flag('attendanceForced', { table: 'client_visits', id: visit.id }, { reason: err.key });
    }
  }
  const after = (await visitById(trx, studio.id, visit.id))!;
  if (after.payment === 'desk' && after.paidAt === null) {
    flags.push('uncovered');
    await ctx.flag(
      'uncovered',
      { table: 'client_visits', id: after.id },
      {
        userId: args.userId,
        scheduleEventId: args.scheduleEventId,
      },
    );
  }
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: {
      visitId: after.id,
      visitStatus: after.status,
      clientPricingOptionId: after.clientPricingOptionId,
    },
  };
}

/**
 * setAttendance@1 — intent: absent or reset through the bookings module's `changeEnrollmentStatus`
 * at the station's corrected action time (fees and pass entries as the back office's own buttons).
 * A visit the rules refuse now (cancelled meanwhile, class not started yet) is rejected with the
 * bookings error, and the desk shows it.
 */
async function setAttendanceCommand(ctx: CommandContext<SetAttendanceArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  if (!ctx.actorAllowed)
    throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  const visit = await visitById(trx, studio.id, args.visitId);
  if (!visit) throw AppError.notFound('visit');
  await trx.transaction((sp) =>
    changeEnrollmentStatus(
      sp,
      studio,
      [visit.id],
      args.action,
      ctx.actorId ?? '',
      args.chargeFee,
      ctx.occurredAt,
    ),
  );
  const after = (await visitById(trx, studio.id, visit.id))!;
  const flags = [...ctx.clockFlags];
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: { visitId: visit.id, visitStatus: after.status },
  };
}

registerCommand({
  name: 'setAttendance',
  version: 1,
  kind: 'intent',
  ability: 'schedule.checkIn',
  args: SetAttendanceArgsSchema,
  references: (a) => [{ kind: 'visit', id: a.visitId, field: 'visitId' }],
  handle: setAttendanceCommand,
});
registerCommand({
  name: 'bookClass',
  version: 1,
  kind: 'intent',
  ability: 'schedule.book',
  args: BookClassArgsSchema,
  references: (a) => [
    { kind: 'visit', id: a.visitId, field: 'visitId' },
    { kind: 'client', id: a.userId, field: 'userId' },
    { kind: 'scheduleEvent', id: a.scheduleEventId, field: 'scheduleEventId' },
    { kind: 'pass', id: a.clientPricingOptionId, field: 'clientPricingOptionId' },
  ],
  handle: bookClassCommand,
});
registerCommand({
  name: 'cancelBooking',
  version: 1,
  kind: 'intent',
  ability: 'schedule.book',
  args: CancelBookingArgsSchema,
  references: (a) => [{ kind: 'visit', id: a.visitId, field: 'visitId' }],
  handle: cancelBookingCommand,
});
registerCommand({
  name: 'checkIn',
  version: 1,
  kind: 'fact',
  ability: 'schedule.checkIn',
  args: CheckInArgsSchema,
  references: (a) => [
    { kind: 'visit', id: a.visitId, field: 'visitId' },
    { kind: 'client', id: a.userId, field: 'userId' },
    { kind: 'scheduleEvent', id: a.scheduleEventId, field: 'scheduleEventId' },
  ],
  handle: checkInCommand,
});
// checkIn@2 (the pass the station counted) beside @1, which desks of the previous release still queue.
registerCommand<CheckInV2Args>({
  name: 'checkIn',
  version: 2,
  kind: 'fact',
  ability: 'schedule.checkIn',
  args: CheckInV2ArgsSchema,
  references: (a) => [
    { kind: 'visit', id: a.visitId, field: 'visitId' },
    { kind: 'client', id: a.userId, field: 'userId' },
    { kind: 'scheduleEvent', id: a.scheduleEventId, field: 'scheduleEventId' },
    { kind: 'pass', id: a.clientPricingOptionId, field: 'clientPricingOptionId' },
  ],
  handle: checkInCommand,
});
