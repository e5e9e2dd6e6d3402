import {
  AppointmentCheckInArgsSchema,
  type AppointmentCheckInArgs,
  type Outcome,
} from '../../../../shared/contracts/sync';
import { queueCalendarPush, staffDecide } from '../../modules/appointments/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';

/**
 * appointmentCheckIn@1 — fact: a client checked in at the desk for a one-to-one appointment (issue
 * 21), maybe while the cloud was away. Run with the appointments module's own staff decision
 * (`staffDecide(…, 'present')`, as the back office's check-in button) at the corrected time, so a
 * client marked absent meanwhile gets the no-show fee voided as online.
 *
 * - Exactly once: the push's mutation id first; then the appointment itself — already present (a
 *   resend under another mutation id, another station) answers `applied` with `alreadyPresent`.
 * - The world moved on: an appointment no longer held (cancelled, late cancelled, called off,
 *   rejected, expired) or still waiting (pending, reserved) is left as it is — a check-in would
 *   revive a slot another client may hold now — and flagged `appointmentNotHeld` for the desk, with
 *   the status found and the time of the check-in.
 * - Unknown appointment id (never in this studio): a fact the rules cannot record → quarantined by
 *   the push (kept for review).
 */
async function appointmentCheckInCommand(ctx: CommandContext<AppointmentCheckInArgs>): Promise<Outcome> {
  const { trx, studio, args } = ctx;
  const flags = [...ctx.clockFlags];
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');
  const row: { id: string; status: string; memberId: string; clientId: string | null } | undefined =
    await trx('client_appointments')
      .where({ studioId: studio.id, id: args.clientAppointmentId })
      .forUpdate()
      .first('id', 'status', 'member_id', 'client_id');
  if (!row) throw new Error(`appointment ${args.clientAppointmentId} not found`);
  const outcome = (status: string, extra: Record<string, unknown> = {}): Outcome => ({
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: { clientAppointmentId: row.id, appointmentStatus: status, ...extra },
  });
  if (row.status === 'present') return outcome('present', { alreadyPresent: true });
  if (row.status !== 'booked' && row.status !== 'absent') {
    flags.push('appointmentNotHeld');
    await ctx.flag(
      'appointmentNotHeld',
      { table: 'client_appointments', id: row.id },
      { userId: row.clientId, status: row.status, checkedInAt: ctx.occurredAt.toISOString() },
    );
    return outcome(row.status);
  }
  const updated = await staffDecide(
    trx,
    studio,
    row.id,
    'present',
    ctx.actorId ?? ctx.device.registeredBy ?? '',
    '',
    ctx.occurredAt,
  );
  await queueCalendarPush(trx, studio.id, [updated.memberId, updated.clientId]);
  return outcome(updated.status);
}

registerCommand({
  name: 'appointmentCheckIn',
  version: 1,
  kind: 'fact',
  ability: 'schedule.checkIn',
  args: AppointmentCheckInArgsSchema,
  references: (a) => [{ kind: 'clientAppointment', id: a.clientAppointmentId, field: 'clientAppointmentId' }],
  handle: appointmentCheckInCommand,
});
