import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type {
  CashMovementSchema,
  CashMovementView,
  CurrentShift,
  ShiftCloseSchema,
  ShiftOpenSchema,
  ShiftView,
  StudioPos,
  StudioPosInit,
  StudioPosInputSchema,
  StudioPosList,
} from '../../../../shared/contracts/api/stations';
import { TICKET_PRINTER_OPTIONS, ticketPrinterOf } from '../../../../shared/contracts/api/ticket-printers';
import { canTakeCashOut, reconcileShift, shiftCashTotals } from '../../../../shared/domain/shifts';
import { PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';
import { readAll } from '../../db/read-all';

type Trx = Knex.Transaction;

interface PosRow {
  id: string;
  studioId: string;
  name: string;
  slug: string;
  locationId: string | null;
  locationName: string | null;
  deviceId: string | null;
  deviceName: string | null;
  deviceLastSeenAt: Date | null;
  assignedAt: Date | null;
  hasPrinter: boolean;
  ticketPrinter: unknown;
}

interface ShiftRow {
  id: string;
  studioId: string;
  posId: string;
  openedBy: string | null;
  openedAt: Date;
  float: number;
  closedBy: string | null;
  closedAt: Date | null;
  cashSales: number | null;
  cashRefunds: number | null;
  expected: number | null;
  counted: number | null;
  note: string;
  dailyReport: 'printed' | 'failed' | 'noPrinter' | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const notFound = (what: string) => new AppError('resource.notFound', { message: `${what} not found` });

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; nativeError?: { code?: string } };
  return (e.nativeError?.code ?? e.code) === '23505';
}

// ------------------------------------------------------------------------------------ stations

function selectPos(db: Db, studioId: string) {
  return db('studio_pos as p')
    .leftJoin('locations as l', 'l.id', 'p.location_id')
    .leftJoin('sync_devices as d', function () {
      this.on('d.id', '=', 'p.device_id').andOnNull('d.revoked_at');
    })
    .where('p.studio_id', studioId)
    .select(
      'p.id',
      'p.studio_id',
      'p.name',
      'p.slug',
      'p.location_id',
      'l.name as location_name',
      'd.id as device_id',
      'd.name as device_name',
      'd.last_seen_at as device_last_seen_at',
      'p.assigned_at',
      'p.ticket_printer',
      db.raw(
        'exists (select 1 from studio_fiscal_printers f where f.studio_id = p.studio_id and f.station_slug = p.slug) as has_printer',
      ),
    );
}

async function openShiftsOf(db: Db, studioId: string, posIds: string[]) {
  if (posIds.length === 0) return new Map<string, StudioPos['openShift']>();
  const rows: Array<{
    id: string;
    posId: string;
    openedAt: Date;
    firstName: string | null;
    lastName: string | null;
  }> = await db('pos_shifts as s')
    .leftJoin('users as u', 'u.id', 's.opened_by')
    .where('s.studio_id', studioId)
    .whereIn('s.pos_id', posIds)
    .whereNull('s.closed_at')
    .select('s.id', 's.pos_id', 's.opened_at', 'u.first_name', 'u.last_name');
  return new Map(
    rows.map((r) => [
      r.posId,
      { id: r.id, openedAt: iso(r.openedAt)!, openedBy: personName(r.firstName, r.lastName) },
    ]),
  );
}

const personName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

function presentPos(row: PosRow, openShift: StudioPos['openShift']): StudioPos {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    location: row.locationId ? { id: row.locationId, name: row.locationName ?? '' } : null,
    device: row.deviceId
      ? { id: row.deviceId, name: row.deviceName ?? '', lastSeenAt: iso(row.deviceLastSeenAt) }
      : null,
    assignedAt: row.deviceId ? iso(row.assignedAt) : null,
    fiscalPrinter: Boolean(row.hasPrinter),
    ticketPrinter: ticketPrinterOf(row.ticketPrinter),
    openShift,
  };
}

export async function listPos(db: Db, studio: Studio): Promise<StudioPosList> {
  // A studio has a handful of tills: one page, no cursor.
  const rows: PosRow[] = await selectPos(db, studio.id).orderBy('p.name').orderBy('p.id').limit(500);
  const open = await openShiftsOf(
    db,
    studio.id,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => presentPos(r, open.get(r.id) ?? null)), next: null };
}

export async function getPos(db: Db, studio: Studio, posId: string): Promise<StudioPos> {
  const row: PosRow | undefined = await selectPos(db, studio.id).where('p.id', posId).first();
  if (!row) throw notFound('studio pos');
  const open = await openShiftsOf(db, studio.id, [row.id]);
  return presentPos(row, open.get(row.id) ?? null);
}

export async function posInit(db: Db, studio: Studio): Promise<StudioPosInit> {
  const [locations, devices] = await readAll(db, [
    () =>
      db('locations').where({ studioId: studio.id }).orderBy('name').select('id', 'name') as Promise<
        Array<{ id: string; name: string }>
      >,
    () =>
      db('sync_devices as d')
        .leftJoin('studio_pos as p', 'p.device_id', 'd.id')
        .where('d.studio_id', studio.id)
        .whereNull('d.revoked_at')
        .orderBy('d.name')
        .select('d.id', 'd.name', 'd.last_seen_at', 'p.id as pos_id') as Promise<
        Array<{ id: string; name: string; lastSeenAt: Date | null; posId: string | null }>
      >,
  ]);
  return {
    currency: studio.currency,
    locations,
    devices: devices.map((d) => ({ ...d, lastSeenAt: iso(d.lastSeenAt) })),
    ticketPrinter: TICKET_PRINTER_OPTIONS,
  };
}

async function assertLocation(db: Db, studioId: string, locationId: string | null | undefined) {
  if (!locationId) return;
  const found = await db('locations').where({ studioId, id: locationId }).first('id');
  if (!found) throw notFound('location');
}

export async function createPos(
  trx: Trx,
  studio: Studio,
  input: z.output<typeof StudioPosInputSchema>,
  now: Date,
): Promise<StudioPos> {
  await assertLocation(trx, studio.id, input.locationId);
  const id = uuidv7();
  try {
    // A savepoint, so a clash leaves the request's transaction usable for the error answer.
    await trx.transaction(async (sp) =>
      sp('studio_pos').insert({
        id,
        studioId: studio.id,
        name: input.name,
        slug: input.slug,
        locationId: input.locationId ?? null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('studioPos.slugTaken', {
        message: 'another POS has this station slug',
        fields: { slug: ['taken'] },
      });
    throw err;
  }
  return getPos(trx, studio, id);
}

async function lockPos(trx: Trx, studioId: string, posId: string) {
  const row: { id: string; slug: string; name: string } | undefined = await trx('studio_pos')
    .where({ studioId, id: posId })
    .forUpdate()
    .first();
  if (!row) throw notFound('studio pos');
  return row;
}

/** Puts the POS on a desktop station. A device runs one POS: moving it frees the one it ran. */
export async function assignPos(
  trx: Trx,
  studio: Studio,
  posId: string,
  deviceId: string,
  now: Date,
): Promise<StudioPos> {
  await lockPos(trx, studio.id, posId);
  const device = await trx('sync_devices')
    .where({ studioId: studio.id, id: deviceId })
    .whereNull('revokedAt')
    .first('id');
  if (!device) throw notFound('device');
  await trx('studio_pos')
    .where({ studioId: studio.id, deviceId })
    .whereNot({ id: posId })
    .update({ deviceId: null, assignedAt: null, updatedAt: now });
  await trx('studio_pos')
    .where({ studioId: studio.id, id: posId })
    .update({ deviceId, assignedAt: now, updatedAt: now });
  return getPos(trx, studio, posId);
}

export async function unassignPos(trx: Trx, studio: Studio, posId: string, now: Date): Promise<StudioPos> {
  await lockPos(trx, studio.id, posId);
  await trx('studio_pos')
    .where({ studioId: studio.id, id: posId })
    .update({ deviceId: null, assignedAt: null, updatedAt: now });
  return getPos(trx, studio, posId);
}

// ------------------------------------------------------------------------------------ shifts

/**
 * The moment a step happened: the station's own time when it replays what it did offline, never
 * later than the server's now nor before `floor` (the shift's opening).
 */
function when(at: string | undefined, now: Date, floor?: Date): Date {
  if (!at) return now;
  const t = new Date(at);
  if (t > now) return now;
  if (floor && t < floor) return new Date(floor);
  return t;
}

/** What the POS's sales and refunds put into (or took from) the drawer between two moments. */
async function salesFigures(db: Db, studioId: string, slug: string, from: Date, to: Date | null) {
  const window = (q: Knex.QueryBuilder, column: string) => {
    q.where(column, '>=', from);
    if (to) q.where(column, '<', to);
    return q;
  };
  const salesQuery = db('retail_sales as s')
    .join('retail_sale_orders as so', 'so.sale_id', 's.id')
    .join('client_order_payments as p', 'p.order_id', 'so.order_id')
    .where({ 's.studio_id': studioId, 's.station_slug': slug, 'p.status': 'succeeded' })
    .groupBy('p.method')
    .select('p.method', db.raw('sum(p.amount)::int as amount'));
  const countQuery = db('retail_sales as s')
    .where({ 's.studio_id': studioId, 's.station_slug': slug })
    .count({ n: '*' });
  const refundsQuery = db('client_order_refunds as r')
    .join('client_order_payments as p', 'p.id', 'r.payment_id')
    .join('retail_sale_orders as so', 'so.order_id', 'r.order_id')
    .join('retail_sales as s', 's.id', 'so.sale_id')
    .where({
      'r.studio_id': studioId,
      's.station_slug': slug,
      'r.status': 'success',
      'p.method': PaymentMethod.cash,
    })
    .sum({ amount: 'r.amount' });
  const [byMethod, count, refunds] = await readAll(db, [
    () => window(salesQuery, 's.created_at') as unknown as Promise<Array<{ method: number; amount: number }>>,
    () => window(countQuery, 's.created_at') as unknown as Promise<Array<{ n: number }>>,
    () =>
      window(refundsQuery, 'r.created_at') as unknown as Promise<Array<{ amount: number | string | null }>>,
  ]);
  const methods = byMethod
    .map((m) => ({ method: Number(m.method), amount: Number(m.amount) }))
    .sort((a, b) => a.method - b.method);
  return {
    sales: Number(count[0]?.n ?? 0),
    byMethod: methods,
    cashSales: methods.find((m) => m.method === PaymentMethod.cash)?.amount ?? 0,
    cashRefunds: Number(refunds[0]?.amount ?? 0),
  };
}

async function movementsOf(db: Db, shiftId: string): Promise<CashMovementView[]> {
  const rows: Array<{
    id: string;
    kind: 'in' | 'out';
    amount: number;
    reason: string;
    createdAt: Date;
    firstName: string | null;
    lastName: string | null;
  }> = await db('pos_shift_cash_movements as m')
    .leftJoin('users as u', 'u.id', 'm.created_by')
    .where('m.shift_id', shiftId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .select('m.id', 'm.kind', 'm.amount', 'm.reason', 'm.created_at', 'u.first_name', 'u.last_name');
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: r.amount,
    reason: r.reason,
    at: iso(r.createdAt)!,
    by: personName(r.firstName, r.lastName),
  }));
}

async function namesOf(db: Db, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows: Array<{ id: string; firstName: string; lastName: string }> = await db('users')
    .whereIn('id', wanted)
    .select('id', 'first_name', 'last_name');
  return new Map(rows.map((r) => [r.id, personName(r.firstName, r.lastName)]));
}

async function presentShift(
  db: Db,
  studio: Studio,
  pos: { slug: string; name: string },
  row: ShiftRow,
): Promise<ShiftView> {
  const [figures, movements, names] = await readAll(db, [
    () => salesFigures(db, studio.id, pos.slug, row.openedAt, row.closedAt),
    () => movementsOf(db, row.id),
    () => namesOf(db, [row.openedBy, row.closedBy]),
  ]);
  const closed = row.closedAt !== null;
  // A closed shift shows what the cashier counted against (its snapshot); an open one, the live sum.
  const cashSales = closed ? (row.cashSales ?? 0) : figures.cashSales;
  const cashRefunds = closed ? (row.cashRefunds ?? 0) : figures.cashRefunds;
  const totals = shiftCashTotals({ float: row.float, cashSales, cashRefunds, movements });
  const expected = closed ? (row.expected ?? totals.expected) : totals.expected;
  return {
    id: row.id,
    posId: row.posId,
    posName: pos.name,
    status: closed ? 'closed' : 'open',
    currency: studio.currency,
    openedAt: iso(row.openedAt)!,
    openedBy: (row.openedBy && names.get(row.openedBy)) ?? '',
    closedAt: iso(row.closedAt),
    closedBy: row.closedBy ? (names.get(row.closedBy) ?? '') : null,
    float: row.float,
    cashSales,
    cashRefunds,
    cashIn: totals.cashIn,
    cashOut: totals.cashOut,
    expected,
    counted: row.counted,
    difference: row.counted === null ? null : row.counted - expected,
    lateCashSales: closed ? figures.cashSales - (row.cashSales ?? 0) : 0,
    sales: figures.sales,
    byMethod: figures.byMethod,
    movements,
    note: row.note,
    dailyReport: row.dailyReport,
  };
}

async function loadShift(db: Db, studioId: string, posId: string, shiftId: string, lock = false) {
  const q = db('pos_shifts').where({ studioId, posId, id: shiftId });
  const row = (await (lock ? q.forUpdate() : q).first()) as ShiftRow | undefined;
  if (!row) throw notFound('shift');
  return row;
}

export async function currentShift(db: Db, studio: Studio, posId: string): Promise<CurrentShift> {
  const pos: { slug: string; name: string } | undefined = await db('studio_pos')
    .where({ studioId: studio.id, id: posId })
    .first();
  if (!pos) throw notFound('studio pos');
  const row = (await db('pos_shifts').where({ studioId: studio.id, posId }).whereNull('closedAt').first()) as
    ShiftRow | undefined;
  return { shift: row ? await presentShift(db, studio, pos, row) : null };
}

export async function getShift(db: Db, studio: Studio, posId: string, shiftId: string): Promise<ShiftView> {
  const pos: { slug: string; name: string } | undefined = await db('studio_pos')
    .where({ studioId: studio.id, id: posId })
    .first();
  if (!pos) throw notFound('studio pos');
  return presentShift(db, studio, pos, await loadShift(db, studio.id, posId, shiftId));
}

/**
 * Opens a shift with its float. The same id again (a station replaying what it did offline) answers
 * the shift it opened; a different shift while one is open is refused.
 */
export async function openShift(
  trx: Trx,
  studio: Studio,
  posId: string,
  input: z.output<typeof ShiftOpenSchema>,
  staffId: string,
  now: Date,
): Promise<ShiftView> {
  const pos = await lockPos(trx, studio.id, posId);
  if (input.id) {
    const same = (await trx('pos_shifts').where({ id: input.id }).first()) as ShiftRow | undefined;
    if (same) {
      if (same.studioId !== studio.id || same.posId !== posId) throw notFound('shift');
      return presentShift(trx, studio, pos, same);
    }
  }
  const open = await trx('pos_shifts')
    .where({ studioId: studio.id, posId })
    .whereNull('closedAt')
    .first('id');
  if (open)
    throw new AppError('shift.alreadyOpen', { message: 'this POS has an open shift; close it first' });
  const id = input.id ?? uuidv7();
  await trx('pos_shifts').insert({
    id,
    studioId: studio.id,
    posId,
    openedBy: staffId,
    openedAt: when(input.openedAt, now, new Date(now.getTime() - 7 * 24 * 3_600_000)),
    float: input.float,
  });
  return presentShift(trx, studio, pos, await loadShift(trx, studio.id, posId, id));
}

export async function addCashMovement(
  trx: Trx,
  studio: Studio,
  posId: string,
  shiftId: string,
  input: z.output<typeof CashMovementSchema>,
  staffId: string,
  now: Date,
): Promise<ShiftView> {
  const pos = await lockPos(trx, studio.id, posId);
  const shift = await loadShift(trx, studio.id, posId, shiftId, true);
  if (input.id) {
    const same: { shiftId: string } | undefined = await trx('pos_shift_cash_movements')
      .where({ id: input.id })
      .first();
    if (same) {
      if (same.shiftId !== shiftId) throw notFound('cash movement');
      return presentShift(trx, studio, pos, shift);
    }
  }
  if (shift.closedAt) throw new AppError('shift.closed', { message: 'the shift is closed' });
  if (input.kind === 'out') {
    const [figures, movements] = await readAll(trx, [
      () => salesFigures(trx, studio.id, pos.slug, shift.openedAt, null),
      () => movementsOf(trx, shiftId),
    ]);
    if (!canTakeCashOut({ float: shift.float, ...figures, movements }, input.amount))
      throw new AppError('shift.notEnoughCash', {
        message: 'the drawer does not hold that much',
        fields: { amount: ['notEnoughCash'] },
      });
  }
  await trx('pos_shift_cash_movements').insert({
    id: input.id ?? uuidv7(),
    studioId: studio.id,
    shiftId,
    kind: input.kind,
    amount: input.amount,
    reason: input.reason ?? '',
    createdBy: staffId,
    createdAt: when(input.at, now, shift.openedAt),
  });
  return presentShift(trx, studio, pos, shift);
}

/**
 * Closes the shift against the counted cash. The expected amount is computed here, at close, from the
 * sales the cloud holds; the sums are kept on the row so the close reads the same later. Closing a
 * closed shift again with the same count answers it (a replay); another count is refused.
 */
export async function closeShift(
  trx: Trx,
  studio: Studio,
  posId: string,
  shiftId: string,
  input: z.output<typeof ShiftCloseSchema>,
  staffId: string,
  now: Date,
): Promise<ShiftView> {
  const pos = await lockPos(trx, studio.id, posId);
  const shift = await loadShift(trx, studio.id, posId, shiftId, true);
  if (shift.closedAt) {
    if (shift.counted === input.counted) return presentShift(trx, studio, pos, shift);
    throw new AppError('shift.closed', { message: 'the shift is closed' });
  }
  const closedAt = when(input.closedAt, now, shift.openedAt);
  const [figures, movements] = await readAll(trx, [
    () => salesFigures(trx, studio.id, pos.slug, shift.openedAt, closedAt),
    () => movementsOf(trx, shiftId),
  ]);
  const result = reconcileShift(
    { float: shift.float, cashSales: figures.cashSales, cashRefunds: figures.cashRefunds, movements },
    input.counted,
  );
  await trx('pos_shifts')
    .where({ id: shiftId })
    .update({
      closedAt,
      closedBy: staffId,
      cashSales: result.cashSales,
      cashRefunds: result.cashRefunds,
      expected: result.expected,
      counted: result.counted,
      note: input.note ?? '',
      dailyReport: input.dailyReport ?? null,
    });
  return presentShift(trx, studio, pos, await loadShift(trx, studio.id, posId, shiftId));
}
