import { z } from 'zod';
import { ClientCreateInputSchema, ClientUpdateInputSchema } from '../api/clients';
import { uuid } from '../api/common';
import { ChargeSaleArgsSchema, RecordSaleArgsSchema } from './sales';

/**
 * Commands a station queues in its outbox: named and versioned (`createClient@1`). The server runs
 * them with the domain rules; a version it does not know answers 426. `kind` follows the design:
 * facts are never rejected, intents may be.
 */
export type CommandKind = 'fact' | 'factLike' | 'intent';

/** `createClient@1`: the station assigns both ids (UUIDv7) so it can use them offline at once. */
export const CreateClientArgsSchema = ClientCreateInputSchema.extend({
  /** The client's person id (the API's `{user}`). */
  userId: uuid(),
  /** The studio's record of the client (the membership's id). */
  clientId: uuid(),
});
export type CreateClientArgs = z.infer<typeof CreateClientArgsSchema>;

/** `updateClient@1`: the fields the staff changed, each applied last-writer-wins in server order. */
export const UpdateClientArgsSchema = z.strictObject({
  userId: uuid(),
  fields: ClientUpdateInputSchema.refine((f) => Object.keys(f).length > 0, {
    message: 'change at least one field',
  }),
});
export type UpdateClientArgs = z.infer<typeof UpdateClientArgsSchema>;

/**
 * `bookClass@1` (intent): the station chose the visit's id. Capacity is decided by the server in
 * receipt order: a free place books; a full class puts the client on the waiting list when
 * `waitingList`; a client standing at the desk (`clientPresent`) is booked anyway and flagged
 * overbooked; otherwise rejected.
 */
export const BookClassArgsSchema = z.strictObject({
  visitId: uuid(),
  /** The client's person id. */
  userId: uuid(),
  scheduleEventId: uuid(),
  waitingList: z.boolean().default(true),
  clientPresent: z.boolean().default(false),
  /** Pay at the desk instead of with a pass. */
  payAtDesk: z.boolean().optional(),
  clientPricingOptionId: uuid().optional(),
  /**
   * The client booked themselves at a kiosk (desktop kiosk offline): the online self-booking rules
   * bind (bookable online, booking window), not the staff ones.
   */
  selfBooking: z.boolean().optional(),
});
export type BookClassArgs = z.infer<typeof BookClassArgsSchema>;

/** `cancelBooking@1` (intent, idempotent): late or early by the station's corrected time, with a tolerance. */
export const CancelBookingArgsSchema = z.strictObject({
  visitId: uuid(),
  /** False: staff waive the late-cancellation fee. */
  chargeFee: z.boolean().default(true),
});
export type CancelBookingArgs = z.infer<typeof CancelBookingArgsSchema>;

/**
 * `checkIn@1` (fact): the client came in for this class. Never rejected: a booking is made if there is
 * none (the pass the catalog's rule picks at the class time), and with no pass the visit stays,
 * unpaid at the desk, flagged `uncovered`.
 */
export const CheckInArgsSchema = z.strictObject({
  /** The visit's id: the booked visit's, or a new one the station chose. */
  visitId: uuid(),
  userId: uuid(),
  scheduleEventId: uuid(),
});
export type CheckInArgs = z.infer<typeof CheckInArgsSchema>;

/**
 * `checkIn@2` = `checkIn@1` + the pass the station counted the check-in on (the kiosk prints it on
 * the slip with the entries left). With `checkIn@1` the cloud picks the pass by the catalog's rule
 * and may pick another than the slip said; `@2` books a new visit on the named pass when it still
 * covers the class, else falls back to `@1`'s rule. Null: the station counted none (as `@1`). The
 * cloud keeps accepting `@1` (desks of the previous release queue it).
 */
export const CheckInV2ArgsSchema = CheckInArgsSchema.extend({
  clientPricingOptionId: uuid().nullable(),
});
export type CheckInV2Args = z.infer<typeof CheckInV2ArgsSchema>;

/**
 * `kioskEntry@1` (fact): a client came in at the door of a desktop kiosk with an entry pass while the
 * cloud was away (no class; the cloud's `kiosk_check_ins` row of kind `entry`, under the station's
 * id). Never rejected: the server picks the pass with the kiosk's entry rule at the entry's time;
 * none left → recorded anyway and flagged `uncovered`. `lock`: `station` when the station opens its
 * kiosk's door itself after recording the entry (durable before the door), `none` without a lock.
 */
export const KioskEntryArgsSchema = z.strictObject({
  entryId: uuid(),
  kioskId: uuid(),
  userId: uuid(),
  lock: z.enum(['station', 'none']).default('none'),
});
export type KioskEntryArgs = z.infer<typeof KioskEntryArgsSchema>;

/**
 * `kioskEntry@2` (fact): a client let in at a desktop kiosk's door into an **entry service** (issue
 * 22: open gym, sauna) while the cloud was away. `entryId` becomes the `client_entries` row's id (and
 * the kiosk check-in's): a replay finds it. The station decided with the mirrored limits and passes;
 * the cloud records the entry at its corrected time whatever happened meanwhile and flags it for the
 * desk when its own rule would have refused (a limit, no pass).
 */
export const KioskEntryV2ArgsSchema = KioskEntryArgsSchema.extend({ entryServiceId: uuid() });
export type KioskEntryV2Args = z.infer<typeof KioskEntryV2ArgsSchema>;

/**
 * `appointmentCheckIn@1` (fact): staff checked a client in for a one-to-one appointment (issue 21) at
 * the desk, maybe while the cloud was away. The cloud marks the appointment present at the corrected
 * time, once (an appointment already present answers applied again); one that is no longer held
 * (cancelled, called off, rejected, expired) or not yet confirmed is left as it is and flagged for the
 * desk (`appointmentNotHeld`) rather than checked in silently.
 */
export const AppointmentCheckInArgsSchema = z.strictObject({ clientAppointmentId: uuid() });
export type AppointmentCheckInArgs = z.infer<typeof AppointmentCheckInArgsSchema>;

/**
 * `setAttendance@1` (intent): staff mark a booked client absent, or reset a present/absent mark back
 * to booked (the attendee list's "absent" and "reset"). The bookings module's rules decide at the
 * station's corrected action time; a visit the rules refuse (cancelled meanwhile, class not started)
 * is rejected and shown to the desk. "present" is `checkIn@1` (a fact), "cancel" `cancelBooking@1`.
 */
export const SetAttendanceArgsSchema = z.strictObject({
  visitId: uuid(),
  action: z.enum(['absent', 'reset']),
  /** Absent: record the studio's no-show fee (default) or waive it. */
  chargeFee: z.boolean().default(true),
});
export type SetAttendanceArgs = z.infer<typeof SetAttendanceArgsSchema>;

export interface CommandDescriptor {
  name: string;
  version: number;
  kind: CommandKind;
  args: z.ZodType;
}

/** Commands the server runs today. The desk validates with the same schemas before queuing. */
export const SYNC_COMMANDS: readonly CommandDescriptor[] = [
  { name: 'createClient', version: 1, kind: 'factLike', args: CreateClientArgsSchema },
  { name: 'updateClient', version: 1, kind: 'intent', args: UpdateClientArgsSchema },
  { name: 'bookClass', version: 1, kind: 'intent', args: BookClassArgsSchema },
  { name: 'cancelBooking', version: 1, kind: 'intent', args: CancelBookingArgsSchema },
  { name: 'checkIn', version: 1, kind: 'fact', args: CheckInArgsSchema },
  { name: 'checkIn', version: 2, kind: 'fact', args: CheckInV2ArgsSchema },
  { name: 'setAttendance', version: 1, kind: 'intent', args: SetAttendanceArgsSchema },
  { name: 'recordSale', version: 1, kind: 'fact', args: RecordSaleArgsSchema },
  { name: 'chargeSale', version: 1, kind: 'intent', args: ChargeSaleArgsSchema },
  { name: 'kioskEntry', version: 1, kind: 'fact', args: KioskEntryArgsSchema },
  { name: 'kioskEntry', version: 2, kind: 'fact', args: KioskEntryV2ArgsSchema },
  { name: 'appointmentCheckIn', version: 1, kind: 'fact', args: AppointmentCheckInArgsSchema },
];

export const commandKey = (name: string, version: number) => `${name}@${version}`;

export function findCommand(name: string, version: number): CommandDescriptor | undefined {
  return SYNC_COMMANDS.find((c) => c.name === name && c.version === version);
}
