import { v7 as uuidv7 } from 'uuid';
import {
  AppointmentCheckInArgsSchema,
  BookClassArgsSchema,
  CancelBookingArgsSchema,
  ChargeSaleArgsSchema,
  CheckInArgsSchema,
  CheckInV2ArgsSchema,
  CreateClientArgsSchema,
  KioskEntryArgsSchema,
  KioskEntryV2ArgsSchema,
  RecordSaleArgsSchema,
  SetAttendanceArgsSchema,
  UpdateClientArgsSchema,
  findCommand,
  type AppointmentCheckInArgs,
  type BookClassArgs,
  type CancelBookingArgs,
  type CheckInArgs,
  type CreateClientArgs,
  type KioskEntryArgs,
  type KioskEntryV2Args,
  type RecordSaleArgs,
  type SetAttendanceArgs,
  type UpdateClientArgs,
} from '../../../shared/contracts/sync';
import { V, isCancelled, nextStatus, takesPlace } from '../../../shared/domain/bookings';
import type { EffectOp, LocalStore } from './local-store';

export interface LocalCommandContext {
  store: LocalStore;
  studioId: string;
  /** Server-corrected time of the action (ISO). */
  now: string;
}

/**
 * The station's side of each command: validate with the shared schema, then compute the local effect
 * as idempotent ops. The server runs the real rules and its outcome wins at the next pull.
 */
export interface LocalCommand<A> {
  name: string;
  version: number;
  effects(args: A, ctx: LocalCommandContext): EffectOp[];
}

const createClient: LocalCommand<CreateClientArgs> = {
  name: 'createClient',
  version: 1,
  effects: (a, ctx) => [
    {
      op: 'put',
      tbl: 'clients',
      id: a.clientId,
      data: {
        id: a.clientId,
        studio_id: ctx.studioId,
        user_id: a.userId,
        first_name: a.firstName,
        last_name: a.lastName,
        email: a.emailAddress ?? null,
        phone: a.phone ?? null,
        birth_date: a.birthDate ?? null,
        sex: a.sex ?? null,
        archived_at: null,
        created_at: ctx.now,
        updated_at: ctx.now,
      },
    },
  ],
};

const FIELD_COLUMNS: Record<string, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  emailAddress: 'email',
  phone: 'phone',
  birthDate: 'birth_date',
  sex: 'sex',
};

const updateClient: LocalCommand<UpdateClientArgs> = {
  name: 'updateClient',
  version: 1,
  effects: (a, ctx) => {
    const record = ctx.store.clientByUser(a.userId);
    if (!record) return [];
    const data: Record<string, unknown> = { updated_at: ctx.now };
    for (const [field, value] of Object.entries(a.fields)) {
      if (field === 'archived') data.archived_at = null;
      else if (FIELD_COLUMNS[field]) data[FIELD_COLUMNS[field]] = value ?? null;
    }
    return [{ op: 'merge', tbl: 'clients', id: record.id, data }];
  },
};

/** Places taken and waiting on a class, as the station's cache knows them. */
function classCounts(store: LocalStore, eventId: string): { taken: number; waiting: number } {
  const rows = store.db
    .prepare(
      `select json_extract(data, '$.status') as status from rows
        where tbl = 'client_visits' and json_extract(data, '$.schedule_event_id') = ?`,
    )
    .all(eventId) as Array<{ status: number }>;
  return {
    taken: rows.filter((r) => takesPlace(r.status)).length,
    waiting: rows.filter((r) => r.status === V.waitingList).length,
  };
}

function newVisit(
  ctx: LocalCommandContext,
  a: { visitId: string; userId: string; scheduleEventId: string },
  status: number,
  extra: Record<string, unknown> = {},
): EffectOp {
  const event = ctx.store.get('schedule_events', a.scheduleEventId);
  return {
    op: 'put',
    tbl: 'client_visits',
    id: a.visitId,
    data: {
      id: a.visitId,
      studio_id: ctx.studioId,
      schedule_event_id: a.scheduleEventId,
      client_id: a.userId,
      starts_at: event?.starts_at ?? null,
      status,
      payment: 'pass',
      client_pricing_option_id: null,
      booked_by: 'staff',
      booked_at: ctx.now,
      waiting_position: null,
      checked_in_at: null,
      ...extra,
    },
  };
}

/**
 * bookClass: provisional until the pull — a place when the cache sees one (or the client is at the
 * desk), else the waiting list. The server decides in receipt order and its row replaces this one.
 */
const bookClass: LocalCommand<BookClassArgs> = {
  name: 'bookClass',
  version: 1,
  effects: (a, ctx) => {
    const event = ctx.store.get<{ id: string; capacity: number }>('schedule_events', a.scheduleEventId);
    const { taken } = classCounts(ctx.store, a.scheduleEventId);
    const full = event ? taken >= Number(event.capacity) : false;
    const status = full && !a.clientPresent && a.waitingList ? V.waitingList : V.booked;
    return [newVisit(ctx, a, status, a.payAtDesk ? { payment: 'desk' } : {})];
  },
};

const cancelBooking: LocalCommand<CancelBookingArgs> = {
  name: 'cancelBooking',
  version: 1,
  effects: (a, ctx) => {
    const visit = ctx.store.get<{ id: string; status: number }>('client_visits', a.visitId);
    if (!visit || isCancelled(visit.status)) return [];
    return [
      {
        op: 'merge',
        tbl: 'client_visits',
        id: a.visitId,
        data: { status: V.earlyCancel, cancelled_at: ctx.now, waiting_position: null },
      },
    ];
  },
};

/**
 * checkIn: the visit named (booked earlier) becomes present; otherwise a new present visit — with
 * `@2`, on the pass the station counted (the cloud confirms or picks again when the pull comes).
 */
const checkIn: LocalCommand<CheckInArgs & { clientPricingOptionId?: string | null }> = {
  name: 'checkIn',
  version: 2,
  effects: (a, ctx) => {
    const visit = ctx.store.get<{ id: string; status: number }>('client_visits', a.visitId);
    if (visit && !isCancelled(visit.status))
      return [
        {
          op: 'merge',
          tbl: 'client_visits',
          id: a.visitId,
          data: { status: V.present, checked_in_at: ctx.now, waiting_position: null },
        },
      ];
    return [
      newVisit(ctx, a, V.present, {
        checked_in_at: ctx.now,
        ...(a.clientPricingOptionId ? { client_pricing_option_id: a.clientPricingOptionId } : {}),
      }),
    ];
  },
};

/**
 * setAttendance: absent, or reset to booked (unconfirmed when unpaid at the desk), by the same
 * transition table the cloud uses; a move the table refuses changes nothing here (the cloud will
 * reject it and the desk shows that).
 */
const setAttendance: LocalCommand<SetAttendanceArgs> = {
  name: 'setAttendance',
  version: 1,
  effects: (a, ctx) => {
    const visit = ctx.store.get<{ id: string; status: number; payment?: string; paid_at?: string | null }>(
      'client_visits',
      a.visitId,
    );
    if (!visit) return [];
    const paid = visit.payment !== 'desk' || Boolean(visit.paid_at);
    const next = nextStatus(visit.status as never, a.action, 'staff', paid);
    if (!next.ok) return [];
    return [
      {
        op: 'merge',
        tbl: 'client_visits',
        id: a.visitId,
        data:
          a.action === 'reset'
            ? { status: next.status, checked_in_at: null, attendance_marked_at: null }
            : { status: next.status, attendance_marked_at: ctx.now },
      },
    ];
  },
};

/**
 * recordSale: the sale itself is kept in `local_sales` (desktop/main/station/sales.ts writes it in the
 * same transaction); the cache gets what the desk needs at once — each pass sold, provisional (its
 * id is the station's; the server's pass replaces it at the pull that confirms the sale).
 */
const recordSale: LocalCommand<RecordSaleArgs> = {
  name: 'recordSale',
  version: 1,
  effects: (a, ctx) =>
    a.lines.flatMap((line) => {
      if (line.type !== 'pricingOption' || !a.clientId) return [];
      const option = ctx.store.get<{ id: string; entries?: number | null }>('pricing_options', line.id);
      return Array.from({ length: line.quantity }, (): EffectOp => {
        const id = uuidv7();
        return {
          op: 'put',
          tbl: 'client_pricing_options',
          id,
          data: {
            id,
            studio_id: ctx.studioId,
            client_id: a.clientId,
            pricing_option_id: line.id,
            status: 1,
            entries: option?.entries ?? null,
            price_paid: line.unitPrice,
            activated_at: null,
            expires_at: null,
            sold_at: ctx.now,
            created_at: ctx.now,
            provisional: true,
            sale_id: a.saleId,
          },
        };
      });
    }),
};

/**
 * kioskEntry: a client let in at the kiosk's door (desktop/main/kiosk). Nothing in the mirror: the
 * cloud's entry rows are not mirrored, and the offline entry rule lets in only unlimited passes,
 * which an entry does not spend. The outbox row is the fact.
 */
const kioskEntry: LocalCommand<KioskEntryArgs> = {
  name: 'kioskEntry',
  version: 1,
  effects: () => [],
};

/**
 * kioskEntry@2: a client let in at the kiosk's door into an entry service (issue 22). The mirror gets
 * the `client_entries` row at once, so the next client sees the place one fuller and this client one
 * entry further into the day's limit; its pass is left empty (the cloud picks it — until then the
 * entry is charged against the client's counted passes like an unconfirmed check-in).
 */
const kioskServiceEntry: LocalCommand<KioskEntryV2Args> = {
  name: 'kioskEntry',
  version: 2,
  effects: (a, ctx) => {
    const service = ctx.store.get<{ id: string; stay_minutes?: number }>('entry_services', a.entryServiceId);
    const stay = Number(service?.stay_minutes ?? 120);
    return [
      {
        op: 'put',
        tbl: 'client_entries',
        id: a.entryId,
        data: {
          id: a.entryId,
          studio_id: ctx.studioId,
          entry_service_id: a.entryServiceId,
          client_id: a.userId,
          entered_at: ctx.now,
          leaves_at: new Date(Date.parse(ctx.now) + stay * 60_000).toISOString(),
          client_pricing_option_id: null,
          source: 'kiosk',
          enrolled_by_user_id: null,
          kiosk_id: a.kioskId,
          created_at: ctx.now,
        },
      },
    ];
  },
};

/**
 * appointmentCheckIn@1: the client of a one-to-one appointment checked in at the desk (issue 21). A
 * booked (or absent) appointment of the mirror is present at once; any other status is left alone
 * (the cloud flags it for the desk).
 */
const appointmentCheckIn: LocalCommand<AppointmentCheckInArgs> = {
  name: 'appointmentCheckIn',
  version: 1,
  effects: (a, ctx) => {
    const row = ctx.store.get<{ id: string; status: string }>('client_appointments', a.clientAppointmentId);
    if (!row || (row.status !== 'booked' && row.status !== 'absent')) return [];
    return [
      {
        op: 'merge',
        tbl: 'client_appointments',
        id: row.id,
        data: { status: 'present', checked_in_at: ctx.now, held_until: null, updated_at: ctx.now },
      },
    ];
  },
};

/**
 * chargeSale: no local effect — the station prints only once the cloud applied it (wallet, voucher,
 * contracts are the cloud's), and the passes it made arrive with the pull that follows.
 */
const chargeSale: LocalCommand<unknown> = { name: 'chargeSale', version: 1, effects: () => [] };

const LOCAL_COMMANDS = new Map<string, { command: LocalCommand<never>; parse: (args: unknown) => unknown }>([
  [
    'chargeSale@1',
    { command: chargeSale as LocalCommand<never>, parse: (x) => ChargeSaleArgsSchema.parse(x) },
  ],
  [
    'createClient@1',
    { command: createClient as LocalCommand<never>, parse: (x) => CreateClientArgsSchema.parse(x) },
  ],
  [
    'updateClient@1',
    { command: updateClient as LocalCommand<never>, parse: (x) => UpdateClientArgsSchema.parse(x) },
  ],
  ['bookClass@1', { command: bookClass as LocalCommand<never>, parse: (x) => BookClassArgsSchema.parse(x) }],
  [
    'cancelBooking@1',
    { command: cancelBooking as LocalCommand<never>, parse: (x) => CancelBookingArgsSchema.parse(x) },
  ],
  ['checkIn@1', { command: checkIn as LocalCommand<never>, parse: (x) => CheckInArgsSchema.parse(x) }],
  ['checkIn@2', { command: checkIn as LocalCommand<never>, parse: (x) => CheckInV2ArgsSchema.parse(x) }],
  [
    'setAttendance@1',
    { command: setAttendance as LocalCommand<never>, parse: (x) => SetAttendanceArgsSchema.parse(x) },
  ],
  [
    'recordSale@1',
    { command: recordSale as LocalCommand<never>, parse: (x) => RecordSaleArgsSchema.parse(x) },
  ],
  [
    'kioskEntry@1',
    { command: kioskEntry as LocalCommand<never>, parse: (x) => KioskEntryArgsSchema.parse(x) },
  ],
  [
    'kioskEntry@2',
    {
      command: kioskServiceEntry as LocalCommand<never>,
      parse: (x) => KioskEntryV2ArgsSchema.parse(x),
    },
  ],
  [
    'appointmentCheckIn@1',
    {
      command: appointmentCheckIn as LocalCommand<never>,
      parse: (x) => AppointmentCheckInArgsSchema.parse(x),
    },
  ],
]);

/** Validates the arguments (zod: throws with every bad field) and computes the local effect. */
export function localEffects(
  name: string,
  version: number,
  args: unknown,
  ctx: LocalCommandContext,
): { args: Record<string, unknown>; effects: EffectOp[]; isFact: boolean } {
  const entry = LOCAL_COMMANDS.get(`${name}@${version}`);
  const descriptor = findCommand(name, version);
  if (!entry || !descriptor) throw new Error(`unknown command ${name}@${version}`);
  const parsed = entry.parse(args) as Record<string, unknown>;
  return {
    args: parsed,
    effects: entry.command.effects(parsed as never, ctx),
    isFact: descriptor.kind === 'fact',
  };
}
