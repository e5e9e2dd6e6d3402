import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type {
  ClientContractDetail,
  ClientContractPatch,
  ClientContractView,
} from '../../../../shared/contracts/api/contracts';
import {
  buildSchedule,
  OPEN_ENDED_HORIZON,
  periodIndexOn,
  periodInstalments,
  planResume,
  planSuspension,
  planTermination,
  type ContractPeriod,
  type ContractTerms,
  type PlannedInstalment,
  type ScheduledInstalment,
} from '../../../../shared/domain/contracts';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import {
  mapLocaleText,
  resolveLocaleText,
  type LocaleText,
} from '../../../../shared/domain/locale-text/locale-text';
import type { ContractActivationType } from '../../../../shared/enums/pricing-options';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { createOrder } from '../sales/index';
import { dateOnly } from '../catalog/index';
import { contractRow } from './contracts.service';
import {
  presentClientContract,
  presentEvent,
  type ClientContractRow,
  type EventRow,
  type InstalmentRow,
  type SuspensionRow,
} from './contracts.presenter';
import { readAll } from '../../db/read-all';
import { emitWebhookEvent } from '../../webhooks/emit';

export type Via = 'staff' | 'client' | 'api' | 'job';
export interface Actor {
  userId: string | null;
  via: Via;
}

const termsOf = (row: ClientContractRow): ContractTerms => ({
  price: row.price,
  period: periodOf(row),
  durationPeriods: row.durationPeriods,
  activationType: row.activationType as ContractActivationType,
  proRata: row.proRata,
  signUpFee: row.signUpFee,
  noticePeriods: row.noticePeriods,
});
const periodOf = (row: Pick<ClientContractRow, 'periodUnit' | 'periodLength'>): ContractPeriod => ({
  unit: row.periodUnit,
  length: row.periodLength,
});

async function logEvent(
  trx: Db,
  row: Pick<ClientContractRow, 'id' | 'studioId'>,
  actor: Actor,
  kind: EventRow['kind'],
  payload: Record<string, unknown>,
  note = '',
): Promise<void> {
  await trx('client_contract_events').insert({
    id: uuidv7(),
    studioId: row.studioId,
    clientContractId: row.id,
    kind,
    payload: JSON.stringify(payload),
    note,
    actorId: actor.userId,
    via: actor.via,
  });
}

function instalmentColumns(
  studioId: string,
  clientContractId: string,
  i: PlannedInstalment,
  status = 'scheduled',
) {
  return {
    id: uuidv7(),
    studioId,
    clientContractId,
    kind: i.kind,
    periodIndex: i.periodIndex,
    periodStartsOn: i.periodStartsOn,
    periodEndsOn: i.periodEndsOn,
    dueOn: i.dueOn,
    amount: i.amount,
    status,
  };
}

// ------------------------------------------------------------------------------------ reading

async function clientContractRow(
  db: Db,
  studioId: string,
  id: string,
  lock = false,
): Promise<ClientContractRow> {
  const query = db('client_contracts').where({ studioId, id }).first();
  if (lock) query.forUpdate();
  const row = (await query) as ClientContractRow | undefined;
  if (!row) throw AppError.notFound('client contract');
  return row;
}

async function instalmentsOf(db: Db, ids: string[]): Promise<Map<string, InstalmentRow[]>> {
  const map = new Map<string, InstalmentRow[]>();
  if (ids.length === 0) return map;
  const rows = (await db('client_contract_instalments as i')
    .leftJoin('client_orders as o', 'o.id', 'i.order_id')
    .whereIn('i.client_contract_id', ids)
    .orderByRaw('i.due_on, i.period_index nulls first, i.id')
    .select('i.*', 'o.status as order_status')) as InstalmentRow[];
  for (const row of rows) map.set(row.clientContractId, [...(map.get(row.clientContractId) ?? []), row]);
  return map;
}

async function suspensionsOf(db: Db, ids: string[]): Promise<Map<string, SuspensionRow[]>> {
  const map = new Map<string, SuspensionRow[]>();
  if (ids.length === 0) return map;
  const rows = await db('client_contract_suspensions')
    .whereIn('client_contract_id', ids)
    .orderBy([{ column: 'starts_on' }, { column: 'id' }]);
  for (const row of rows) map.set(row.clientContractId, [...(map.get(row.clientContractId) ?? []), row]);
  return map;
}

async function present(
  db: Db,
  studio: Studio,
  rows: ClientContractRow[],
  now: Date,
): Promise<ClientContractView[]> {
  const ids = rows.map((r) => r.id);
  const [instalments, suspensions] = await readAll(db, [
    () => instalmentsOf(db, ids),
    () => suspensionsOf(db, ids),
  ]);
  const today = localDateOf(now, studio.timeZone);
  return rows.map((r) =>
    presentClientContract(r, instalments.get(r.id) ?? [], suspensions.get(r.id) ?? [], today),
  );
}

async function assertClient(db: Db, studioId: string, clientId: string): Promise<void> {
  const found = await db('memberships').where({ studioId, userId: clientId, isClient: true }).first('id');
  if (!found) throw AppError.notFound('client');
}

export async function listClientContracts(
  db: Db,
  studio: Studio,
  clientId: string,
  now: Date,
): Promise<ClientContractView[]> {
  await assertClient(db, studio.id, clientId);
  const rows = (await db('client_contracts')
    .where({ studioId: studio.id, clientId })
    .orderBy([
      { column: 'sold_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(200)) as ClientContractRow[];
  return present(db, studio, rows, now);
}

export async function getClientContract(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
): Promise<ClientContractView> {
  const [view] = await present(db, studio, [await clientContractRow(db, studio.id, id)], now);
  return view!;
}

export async function clientContractDetail(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
): Promise<ClientContractDetail> {
  const clientContract = await getClientContract(db, studio, id, now);
  const events = (await db('client_contract_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .where({ 'e.studio_id': studio.id, 'e.client_contract_id': id })
    .orderBy([
      { column: 'e.created_at', order: 'desc' },
      { column: 'e.id', order: 'desc' },
    ])
    .limit(500)
    .select('e.*', 'u.first_name as actor_first_name', 'u.last_name as actor_last_name')) as EventRow[];
  return { clientContract, events: events.map(presentEvent) };
}

// ---------------------------------------------------------------------------------------- sale

/**
 * Sells a contract to a client: the client contract with a snapshot of the terms, its instalment
 * schedule, an audit row — and the orders of whatever is due on the sale day (sign-up fee, pro-rata
 * part, first period), so the desk can take the payment at once.
 */
export async function sellContract(
  trx: Db,
  studio: Studio,
  actor: Actor,
  clientId: string,
  contractId: string,
  channel: 'desk' | 'online' | 'api',
  now: Date,
  note = '',
  options: { paidByOrderId?: string } = {},
): Promise<ClientContractView> {
  await assertClient(trx, studio.id, clientId);
  const contract = await contractRow(trx, studio.id, contractId);
  const sellable =
    contract.archivedAt === null && (channel === 'desk' ? contract.sellAtDesk : contract.sellOnline);
  if (!sellable)
    throw new AppError('contract.notForSale', {
      message: 'this contract is not for sale here',
      fields: { contractId: ['this contract is not for sale here'] },
    });
  const soldOn = localDateOf(now, studio.timeZone);
  const terms: ContractTerms = {
    price: contract.price,
    period: { unit: contract.periodUnit, length: contract.periodLength },
    durationPeriods: contract.durationPeriods,
    activationType: contract.activationType as ContractActivationType,
    proRata: contract.proRata,
    signUpFee: contract.signUpFee,
    noticePeriods: contract.noticePeriods,
  };
  const { start, instalments } = buildSchedule(terms, soldOn);
  const id = uuidv7();
  await trx('client_contracts').insert({
    id,
    studioId: studio.id,
    clientId,
    contractId: contract.id,
    channel,
    soldAt: now,
    soldBy: actor.userId,
    name: JSON.stringify(contract.name),
    price: contract.price,
    periodUnit: contract.periodUnit,
    periodLength: contract.periodLength,
    durationPeriods: contract.durationPeriods,
    activationType: contract.activationType,
    proRata: contract.proRata,
    noticePeriods: contract.noticePeriods,
    signUpFee: contract.signUpFee,
    serviceTypes: JSON.stringify(contract.serviceTypes),
    restrictions: JSON.stringify(contract.restrictions ?? {}),
    taxRateBp: contract.taxId ? contract.joinedTaxRateBp : null,
    currency: studio.currency,
    anchorOn: start.anchor,
    entitledFrom: start.entitledFrom,
    endsOn: start.endsOn,
  });
  if (instalments.length)
    await trx('client_contract_instalments').insert(
      instalments.map((i) => instalmentColumns(studio.id, id, i)),
    );
  await logEvent(
    trx,
    { id, studioId: studio.id },
    actor,
    'sold',
    { contractId: contract.id, channel, instalments: instalments.length },
    note,
  );
  // Bought online: the checkout's order (already paid) pays whatever is due on the sale day.
  if (options.paidByOrderId)
    await trx('client_contract_instalments')
      .where({ clientContractId: id })
      .where('due_on', '<=', soldOn)
      .update({ status: 'ordered', orderId: options.paidByOrderId, updatedAt: trx.fn.now() });
  await orderDueInstalments(trx, studio, id, now);
  await emitWebhookEvent(
    trx,
    studio.id,
    'contract.signed',
    { clientContractId: id, contractId, userId: clientId, channel },
    now,
  );
  return getClientContract(trx, studio, id, now);
}

// ----------------------------------------------------------------------- terminate / suspend / resume

const scheduled = (rows: InstalmentRow[]): ScheduledInstalment[] =>
  rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    periodIndex: r.periodIndex,
    periodStartsOn: dateOnly(r.periodStartsOn),
    periodEndsOn: dateOnly(r.periodEndsOn),
    dueOn: dateOnly(r.dueOn)!,
    amount: r.amount,
    status: r.status,
  }));

export async function changeClientContract(
  trx: Db,
  studio: Studio,
  actor: Actor,
  id: string,
  patch: ClientContractPatch,
  now: Date,
): Promise<ClientContractView> {
  const row = await clientContractRow(trx, studio.id, id, true);
  const today = localDateOf(now, studio.timeZone);
  const endsOn = dateOnly(row.endsOn);
  if (endsOn !== null && endsOn < today)
    throw new AppError('clientContract.ended', { message: 'this contract has ended' });
  const instalments = scheduled(
    (await trx('client_contract_instalments').where({ clientContractId: id }).forUpdate()) as InstalmentRow[],
  );
  const open = await trx('client_contract_suspensions')
    .where({ clientContractId: id })
    .whereNull('ends_on')
    .first();
  const anchor = dateOnly(row.anchorOn)!;
  const period = periodOf(row);
  const note = patch.note ?? '';

  if (patch.action === 'terminate') {
    if (row.terminatedAt !== null)
      throw new AppError('clientContract.alreadyTerminated', {
        message: 'this contract is already terminated',
      });
    const requestedOn = patch.requestedOn ?? today;
    if (requestedOn > today) throw AppError.invalid({ requestedOn: ['must not be in the future'] });
    const notice = patch.noticePeriods ?? row.noticePeriods;
    const plan = planTermination({
      anchor,
      period,
      instalments,
      requestedOn,
      noticePeriods: notice,
      fixedDuration: row.durationPeriods !== null,
      suspendedFrom: open ? dateOnly(open.startsOn) : null,
    });
    if (plan.cancel.length)
      await trx('client_contract_instalments')
        .whereIn('id', plan.cancel)
        .update({ status: 'cancelled', updatedAt: trx.fn.now() });
    if (open)
      await trx('client_contract_suspensions')
        .where({ id: open.id })
        .update({
          endsOn: plan.endsOn < dateOnly(open.startsOn)! ? dateOnly(open.startsOn) : plan.endsOn,
          updatedAt: trx.fn.now(),
        });
    await trx('client_contracts').where({ id }).update({
      terminatedAt: now,
      terminatedBy: actor.userId,
      terminationRequestedOn: requestedOn,
      endsOn: plan.endsOn,
      updatedAt: trx.fn.now(),
    });
    await logEvent(
      trx,
      row,
      actor,
      'terminated',
      { requestedOn, noticePeriods: notice, endsOn: plan.endsOn, cancelled: plan.cancel.length },
      note,
    );
  } else if (patch.action === 'suspend') {
    if (row.terminatedAt !== null)
      throw new AppError('clientContract.alreadyTerminated', { message: 'this contract is terminated' });
    if (open)
      throw new AppError('clientContract.alreadySuspended', {
        message: 'this contract is already suspended',
      });
    const from = patch.from ?? today;
    if (from < today) throw AppError.invalid({ from: ['must not be in the past'] });
    const plan = planSuspension(instalments, from);
    if (!plan.ok)
      throw new AppError('clientContract.nothingToSuspend', {
        message: 'no instalment is left to suspend',
      });
    await trx('client_contract_instalments')
      .whereIn('id', plan.suspend)
      .update({ status: 'suspended', updatedAt: trx.fn.now() });
    await trx('client_contract_suspensions').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientContractId: id,
      startsOn: plan.startsOn,
      createdBy: actor.userId,
    });
    await logEvent(
      trx,
      row,
      actor,
      'suspended',
      { from, startsOn: plan.startsOn, instalments: plan.suspend.length },
      note,
    );
  } else {
    if (!open)
      throw new AppError('clientContract.notSuspended', { message: 'this contract is not suspended' });
    const on = patch.on ?? today;
    if (on < today) throw AppError.invalid({ on: ['must not be in the past'] });
    const plan = planResume({
      anchor,
      period,
      instalments,
      suspensionStartsOn: dateOnly(open.startsOn)!,
      resumeOn: on,
      fixedDuration: row.durationPeriods !== null,
    });
    if ('ok' in plan)
      throw new AppError('clientContract.notSuspended', { message: 'this contract is not suspended' });
    // Two passes: move rows out of the way first so the (contract, period) unique index never clashes.
    for (const m of plan.moved)
      await trx('client_contract_instalments')
        .where({ id: m.id })
        .update({ periodIndex: -1000 - m.periodIndex! });
    for (const m of plan.moved)
      await trx('client_contract_instalments').where({ id: m.id }).update({
        periodIndex: m.periodIndex,
        periodStartsOn: m.periodStartsOn,
        periodEndsOn: m.periodEndsOn,
        dueOn: m.dueOn,
        status: 'scheduled',
        updatedAt: trx.fn.now(),
      });
    await trx('client_contract_suspensions').where({ id: open.id }).update({
      endsOn: plan.suspensionEndsOn,
      shiftPeriods: plan.shiftPeriods,
      resumedBy: actor.userId,
      resumedAt: now,
      updatedAt: trx.fn.now(),
    });
    if (plan.endsOn !== null)
      await trx('client_contracts').where({ id }).update({ endsOn: plan.endsOn, updatedAt: trx.fn.now() });
    await logEvent(
      trx,
      row,
      actor,
      'resumed',
      { on, suspensionEndsOn: plan.suspensionEndsOn, shiftPeriods: plan.shiftPeriods },
      note,
    );
    await orderDueInstalments(trx, studio, id, now);
  }
  if (patch.action === 'terminate' || patch.action === 'suspend') {
    const after = await trx('client_contracts').where({ id }).first('endsOn');
    await emitWebhookEvent(
      trx,
      studio.id,
      patch.action === 'terminate' ? 'contract.ended' : 'contract.suspended',
      { clientContractId: id, userId: row.clientId, endsOn: dateOnly(after?.endsOn ?? null) },
      now,
    );
  }
  return getClientContract(trx, studio, id, now);
}

// -------------------------------------------------------------------------------- instalments due

interface DueRow extends InstalmentRow {
  studioId: string;
  clientId: string;
  name: LocaleText;
  taxRateBp: number | null;
  defaultLocale: string;
}

/** The same in every language the contract is named in (issue 25: each viewer reads theirs). */
function lineTexts(row: DueRow): LocaleText {
  return mapLocaleText(row.name, (name, locale) =>
    row.kind === 'signUpFee'
      ? `${name} — ${locale.startsWith('pl') ? 'opłata wpisowa' : 'sign-up fee'}`
      : `${name} ${dateOnly(row.periodStartsOn)} – ${dateOnly(row.periodEndsOn)}`,
  );
}

/** The order line's name: the contract and the days it pays for, in the studio's language. */
function lineName(row: DueRow): string {
  const name = resolveLocaleText(row.name, null, row.defaultLocale);
  const pl = row.defaultLocale === 'pl';
  if (row.kind === 'signUpFee') return `${name} — ${pl ? 'opłata wpisowa' : 'sign-up fee'}`;
  return `${name} ${dateOnly(row.periodStartsOn)} – ${dateOnly(row.periodEndsOn)}`;
}

/**
 * Turns one due instalment into an order through the sales module, once: the instalment row is
 * locked, skipped unless still scheduled or due, and the order factory is idempotent per instalment
 * id (source `contract_instalment`), so a second run — or two runners at once — never makes a second
 * order.
 */
async function orderInstalment(trx: Knex.Transaction, instalmentId: string, today: string): Promise<boolean> {
  const row = (await trx('client_contract_instalments as i')
    .join('client_contracts as cc', 'cc.id', 'i.client_contract_id')
    .join('studios as s', 's.id', 'cc.studio_id')
    .where('i.id', instalmentId)
    .whereIn('i.status', ['scheduled', 'due'])
    .where('i.due_on', '<=', today)
    .forUpdate('i')
    .first('i.*', 'cc.studio_id', 'cc.client_id', 'cc.name', 'cc.tax_rate_bp', 's.default_locale')) as
    DueRow | undefined;
  if (!row) return false;
  await trx('client_contract_instalments')
    .where({ id: row.id })
    .update({ status: 'due', updatedAt: trx.fn.now() });
  const order = await createOrder(trx, {
    studioId: row.studioId,
    clientId: row.clientId,
    source: 'contract_instalment',
    sourceId: row.id,
    lines: [
      {
        kind: 'contract_instalment',
        refId: row.id,
        name: lineName(row),
        nameTexts: lineTexts(row),
        quantity: 1,
        unitPriceMinor: row.amount,
        vatRate: row.taxRateBp === null ? 'exempt' : String(row.taxRateBp),
      },
    ],
  });
  await trx('client_contract_instalments')
    .where({ id: row.id })
    .update({ status: 'ordered', orderId: order.id, updatedAt: trx.fn.now() });
  await logEvent(
    trx,
    { id: row.clientContractId, studioId: row.studioId },
    { userId: null, via: 'job' },
    'instalmentOrdered',
    { instalmentId: row.id, orderId: order.id, amount: row.amount, dueOn: dateOnly(row.dueOn) },
  );
  return true;
}

/** Orders what is due today of one client contract (inside the caller's transaction). */
async function orderDueInstalments(trx: Db, studio: Studio, clientContractId: string, now: Date) {
  const today = localDateOf(now, studio.timeZone);
  const due = await trx('client_contract_instalments')
    .where({ clientContractId })
    .whereIn('status', ['scheduled', 'due'])
    .where('due_on', '<=', today)
    .orderBy([{ column: 'due_on' }, { column: 'id' }])
    .select('id');
  // Mutating routes run in a transaction (defineRoute): `trx` is one here.
  for (const { id } of due) await orderInstalment(trx as Knex.Transaction, id, today);
}

/**
 * Keeps an open-ended contract planned `OPEN_ENDED_HORIZON` periods ahead of today (periods after an
 * open suspension are added suspended).
 */
async function extendOpenEndedSchedules(knex: Knex, now: Date): Promise<number> {
  const rows = (await knex('client_contracts as cc')
    .join('studios as s', 's.id', 'cc.studio_id')
    .whereNull('cc.duration_periods')
    .whereNull('cc.terminated_at')
    .select('cc.*', 's.time_zone as studio_time_zone')
    .select(
      knex.raw(
        `(select max(period_index) from client_contract_instalments i where i.client_contract_id = cc.id and i.kind = 'period') as max_period_index`,
      ),
    )) as Array<ClientContractRow & { studioTimeZone: string; maxPeriodIndex: number | null }>;
  let added = 0;
  for (const row of rows) {
    const today = localDateOf(now, row.studioTimeZone);
    const anchor = dateOnly(row.anchorOn)!;
    const wanted = Math.max(periodIndexOn(anchor, periodOf(row), today), 0) + OPEN_ENDED_HORIZON - 1;
    const from = (row.maxPeriodIndex ?? -1) + 1;
    if (from > wanted) continue;
    await knex.transaction(async (trx) => {
      const locked = await clientContractRow(trx, row.studioId, row.id, true);
      if (locked.terminatedAt !== null) return;
      const max = (await trx('client_contract_instalments')
        .where({ clientContractId: row.id, kind: 'period' })
        .max({ max: 'periodIndex' })
        .first())!;
      const start = (max.max ?? -1) + 1;
      if (start > wanted) return;
      const suspended = await trx('client_contract_suspensions')
        .where({ clientContractId: row.id })
        .whereNull('ends_on')
        .first('id');
      // A suspension shifted later periods: continue after the last planned period's index.
      const planned = periodInstalments(termsOf(locked), anchor, start, wanted - start + 1);
      await trx('client_contract_instalments').insert(
        planned.map((i) => instalmentColumns(row.studioId, row.id, i, suspended ? 'suspended' : 'scheduled')),
      );
      await logEvent(trx, locked, { userId: null, via: 'job' }, 'scheduleExtended', {
        periods: planned.length,
      });
      added += planned.length;
    });
  }
  return added;
}

/**
 * The scheduled job's work: top up open-ended schedules, then turn every instalment due by today (in
 * each studio's time zone) into an order, one transaction per instalment so one failure never blocks
 * the others. Safe to run twice or concurrently.
 */
export async function processDueInstalments(
  knex: Knex,
  now: Date,
  log?: { error(obj: unknown, msg: string): void },
): Promise<{ extended: number; ordered: number; failed: number }> {
  const extended = await extendOpenEndedSchedules(knex, now);
  const due = (await knex('client_contract_instalments as i')
    .join('client_contracts as cc', 'cc.id', 'i.client_contract_id')
    .join('studios as s', 's.id', 'cc.studio_id')
    .whereIn('i.status', ['scheduled', 'due'])
    .whereRaw(`i.due_on <= (?::timestamptz at time zone s.time_zone)::date`, [now.toISOString()])
    .orderBy([{ column: 'i.due_on' }, { column: 'i.id' }])
    .limit(5000)
    .select('i.id', 's.time_zone')) as Array<{ id: string; timeZone: string }>;
  let ordered = 0;
  let failed = 0;
  for (const { id, timeZone } of due) {
    try {
      if (await knex.transaction((trx) => orderInstalment(trx, id, localDateOf(now, timeZone)))) ordered += 1;
    } catch (err) {
      failed += 1;
      log?.error({ err, instalmentId: id }, 'contract instalment could not become an order');
    }
  }
  return { extended, ordered, failed };
}
