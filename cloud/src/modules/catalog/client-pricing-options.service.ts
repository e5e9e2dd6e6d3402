import { v7 as uuidv7 } from 'uuid';
import type {
  BulkChangeInput,
  BulkChangeResult,
  ClientPricingOptionChangeView,
  ClientPricingOptionInit,
  ClientPricingOptionPatch,
  ClientPricingOptionShareInput,
  ClientPricingOptionView,
  Restrictions,
} from '../../../../shared/contracts/api/catalog';
import {
  derivePassState,
  type PassCandidate,
  type PassChange,
  type PassFacts,
  type PassState,
  type PassVisit,
  type ValidityUnit,
} from '../../../../shared/domain/entitlements';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import type { PricingOptionExpirationType } from '../../../../shared/enums/pricing-options';
import { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError } from '../../../../shared/errors';
import { compiled } from '../../db/compiled';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { dateOnly, iso, priceOn } from './catalog.presenter';
import { pricingOptionRow } from './pricing-options.service';
import { readAll } from '../../db/read-all';
import { emitWebhookEvent } from '../../webhooks/emit';

interface PassRow {
  id: string;
  studioId: string;
  clientId: string;
  pricingOptionId: string;
  soldAt: Date;
  pricePaid: number | null;
  entries: number | null;
  expirationType: number;
  validityCount: number | null;
  validityUnit: string | null;
  validUntil: Date | string | null;
  name: Record<string, { value: string }>;
  serviceTypes: string[];
}

interface ChangeRow {
  id: string;
  clientPricingOptionId: string;
  kind: 'extend' | 'freeze' | 'entries';
  payload: Record<string, unknown>;
  note: string;
  actorId: string | null;
  bulkId: string | null;
  createdAt: Date;
  actorFirstName?: string | null;
  actorLastName?: string | null;
}

const notFound = () => AppError.notFound('client pricing option');

function selectPasses(db: Db, studioId: string) {
  return db('client_pricing_options as cpo')
    .join('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
    .where('cpo.studio_id', studioId)
    .select(
      'cpo.id',
      'cpo.studio_id',
      'cpo.client_id',
      'cpo.pricing_option_id',
      'cpo.sold_at',
      'cpo.price_paid',
      'cpo.entries',
      'cpo.expiration_type',
      'cpo.validity_count',
      'cpo.validity_unit',
      'cpo.valid_until',
      'po.name',
      'po.service_types',
    );
}

/** A pass with the facts its state derives from, as JSON columns (one round trip instead of three). */
interface PassFactsRow extends PassRow {
  changeFacts: Array<Pick<ChangeRow, 'kind' | 'payload'>>;
  visitFacts: Array<{ startsAt: string; status: number }>;
}

function selectPassFacts(db: Db, studioId: string) {
  return selectPasses(db, studioId).select(
    db.raw(
      `(select coalesce(json_agg(json_build_object('kind', c.kind, 'payload', c.payload)
                 order by c.created_at, c.id), '[]'::json)
          from client_pricing_option_changes c
         where c.studio_id = cpo.studio_id and c.client_pricing_option_id = cpo.id) as change_facts`,
    ),
    // Appointments paid by the pass count as visits (issue 21): one holding the entry reads as booked
    // (0), one that gave it back as an early cancel (3) — the appointments module's ENTRY_STATUSES.
    // A pass's visits are found by the pass alone (`client_visits_client_pricing_option_id_index`;
    // the pass row is the studio's): with `studio_id = cpo.studio_id` too, the planner intersected it
    // with the studio's whole (studio_id, starts_at) index, every visit of the studio read per pass.
    db.raw(
      `(select coalesce(json_agg(json_build_object('startsAt', v.starts_at, 'status', v.status)), '[]'::json)
          from (select starts_at, status from client_visits
                 where client_pricing_option_id = cpo.id
                union all
                -- An entry (entry services, issue 22) spends a pass entry as an attended visit does.
                select entered_at, ${ClientVisitStatus.present} from client_entries
                 where studio_id = cpo.studio_id and client_pricing_option_id = cpo.id
                union all
                select starts_at,
                       case when status in ('pending', 'booked', 'present', 'absent', 'lateCancelled')
                            then 0 else 3 end
                  from client_appointments
                 where studio_id = cpo.studio_id and client_pricing_option_id = cpo.id) v) as visit_facts`,
    ),
  );
}

function factsOfRow(row: PassFactsRow): PassFacts {
  return factsOf(
    row,
    row.changeFacts as ChangeRow[],
    row.visitFacts.map((v) => ({ startsAt: new Date(v.startsAt), status: v.status as PassVisit['status'] })),
  );
}

/** The client record of a user in the studio, or 404 (unknown user, staff only, another studio). */
export async function assertClient(db: Db, studioId: string, userId: string): Promise<void> {
  const row = await db('clients').where({ studioId, userId }).first('id');
  if (!row) throw AppError.notFound('client');
}

async function changesOf(db: Db, studioId: string, passIds: string[]): Promise<Map<string, ChangeRow[]>> {
  const byPass = new Map<string, ChangeRow[]>();
  if (passIds.length === 0) return byPass;
  const rows: ChangeRow[] = await db('client_pricing_option_changes as c')
    .leftJoin('users as u', 'u.id', 'c.actor_id')
    .where('c.studio_id', studioId)
    .whereIn('c.client_pricing_option_id', passIds)
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
    .select('c.*', 'u.first_name as actor_first_name', 'u.last_name as actor_last_name');
  for (const row of rows) {
    const list = byPass.get(row.clientPricingOptionId) ?? [];
    list.push(row);
    byPass.set(row.clientPricingOptionId, list);
  }
  return byPass;
}

/**
 * Visits paid with each pass: the fact source entries and first-visit activation derive from. The
 * bookings module owns `client_visits` (migration 0015, always run before this code); no
 * `information_schema` probe per call any more (it was the booking path's biggest cost).
 */
export async function visitsOf(
  db: Db,
  studioId: string,
  passIds: string[],
): Promise<Map<string, PassVisit[]>> {
  const byPass = new Map<string, PassVisit[]>();
  if (passIds.length === 0) return byPass;
  // Appointments paid by a pass count as its visits too (see `selectPassFacts`).
  const rows: Array<{ clientPricingOptionId: string; startsAt: Date; status: number }> = await db(
    'client_visits',
  )
    .where({ studioId })
    .whereIn('client_pricing_option_id', passIds)
    .select('client_pricing_option_id', 'starts_at', 'status')
    .unionAll((u) =>
      u
        .from('client_appointments')
        .where({ studioId })
        .whereIn('client_pricing_option_id', passIds)
        .select(
          'client_pricing_option_id',
          'starts_at',
          db.raw(
            `case when status in ('pending', 'booked', 'present', 'absent', 'lateCancelled') then 0 else 3 end as status`,
          ),
        ),
    );
  // Entries at an entry service (issue 22) spend pass entries too: read as attended visits.
  const entries: Array<{ clientPricingOptionId: string | null; enteredAt: Date }> = await db('client_entries')
    .where({ studioId })
    .whereIn('client_pricing_option_id', passIds)
    .select('client_pricing_option_id', 'entered_at');
  for (const e of entries)
    if (e.clientPricingOptionId)
      rows.push({
        clientPricingOptionId: e.clientPricingOptionId,
        startsAt: e.enteredAt,
        status: ClientVisitStatus.present,
      });
  for (const row of rows) {
    const list = byPass.get(row.clientPricingOptionId) ?? [];
    list.push({ startsAt: new Date(row.startsAt), status: row.status as PassVisit['status'] });
    byPass.set(row.clientPricingOptionId, list);
  }
  return byPass;
}

function toPassChange(row: ChangeRow): PassChange {
  const p = row.payload;
  if (row.kind === 'extend') return { kind: 'extend', days: Number(p.days) };
  if (row.kind === 'freeze') return { kind: 'freeze', from: String(p.from), to: String(p.to) };
  return { kind: 'entries', delta: Number(p.delta) };
}

function factsOf(row: PassRow, changes: ChangeRow[], visits: PassVisit[]): PassFacts {
  return {
    soldAt: new Date(row.soldAt),
    terms: {
      expirationType: row.expirationType as PricingOptionExpirationType,
      validityCount: row.validityCount,
      validityUnit: row.validityUnit as ValidityUnit | null,
      validUntil: dateOnly(row.validUntil),
      entries: row.entries,
    },
    changes: changes.map(toPassChange),
    visits,
  };
}

type Person = { userId: string; firstName: string; lastName: string };

async function sharesOf(db: Db, studioId: string, passIds: string[]): Promise<Map<string, Person[]>> {
  const byPass = new Map<string, Person[]>();
  if (passIds.length === 0) return byPass;
  const rows: Array<Person & { clientPricingOptionId: string }> = await db(
    'client_pricing_option_shares as s',
  )
    .join('users as u', 'u.id', 's.user_id')
    .where('s.studio_id', studioId)
    .whereIn('s.client_pricing_option_id', passIds)
    .orderBy('s.created_at')
    .select('s.client_pricing_option_id', 'u.id as user_id', 'u.first_name', 'u.last_name');
  for (const { clientPricingOptionId, ...person } of rows) {
    const list = byPass.get(clientPricingOptionId) ?? [];
    list.push(person);
    byPass.set(clientPricingOptionId, list);
  }
  return byPass;
}

function presentPass(row: PassRow, state: PassState, sharedWith: Person[]): ClientPricingOptionView {
  return {
    id: row.id,
    clientId: row.clientId,
    pricingOptionId: row.pricingOptionId,
    name: row.name,
    status: state.status,
    inactiveReason: state.inactiveReason,
    soldAt: iso(row.soldAt),
    pricePaid: row.pricePaid,
    activatedAt: state.activatedAt ? state.activatedAt.toISOString() : null,
    expiresAt: state.expiresAt ? state.expiresAt.toISOString() : null,
    lastValidDate: state.lastValidDate,
    expirationType: row.expirationType,
    entriesTotal: state.entriesTotal,
    entriesUsed: state.entriesUsed,
    entriesLeft: state.entriesLeft,
    frozenNow: state.frozenNow,
    freezes: state.freezes,
    serviceTypes: row.serviceTypes,
    sharedWith,
  };
}

/** Passes with their state derived from facts at `now`, newest sale first. */
async function derive(db: Db, studio: Studio, rows: PassRow[], now: Date) {
  const ids = rows.map((r) => r.id);
  const [changes, visits, shares] = await readAll(db, [
    () => changesOf(db, studio.id, ids),
    () => visitsOf(db, studio.id, ids),
    () => sharesOf(db, studio.id, ids),
  ]);
  return rows.map((row) => {
    const state = derivePassState(
      factsOf(row, changes.get(row.id) ?? [], visits.get(row.id) ?? []),
      now,
      studio.timeZone,
    );
    return {
      row,
      state,
      changes: changes.get(row.id) ?? [],
      view: presentPass(row, state, shares.get(row.id) ?? []),
    };
  });
}

export async function listClientPasses(db: Db, studio: Studio, userId: string, now: Date) {
  await assertClient(db, studio.id, userId);
  const rows: PassRow[] = await selectPasses(db, studio.id)
    .where('cpo.client_id', userId)
    .orderBy([
      { column: 'cpo.sold_at', order: 'desc' },
      { column: 'cpo.id', order: 'desc' },
    ])
    .limit(1000);
  return (await derive(db, studio, rows, now)).map((d) => d.view);
}

export async function passesSharedWith(db: Db, studio: Studio, userId: string, now: Date) {
  await assertClient(db, studio.id, userId);
  const rows: PassRow[] = await selectPasses(db, studio.id)
    .join('client_pricing_option_shares as s', 's.client_pricing_option_id', 'cpo.id')
    .where('s.user_id', userId)
    .orderBy([
      { column: 'cpo.sold_at', order: 'desc' },
      { column: 'cpo.id', order: 'desc' },
    ])
    .limit(1000);
  return (await derive(db, studio, rows, now)).map((d) => d.view);
}

/** Passes by id (of this studio only), state derived at `now`, in the order of `ids`. */
export async function passViewsByIds(db: Db, studio: Studio, ids: string[], now: Date) {
  if (ids.length === 0) return [];
  const rows: PassRow[] = await selectPasses(db, studio.id).whereIn('cpo.id', ids);
  const byId = new Map((await derive(db, studio, rows, now)).map((d) => [d.row.id, d.view]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function passRow(db: Db, studioId: string, id: string, lock = false): Promise<PassRow> {
  const query = selectPasses(db, studioId).where('cpo.id', id).first();
  if (lock) query.forUpdate('cpo');
  const row: PassRow | undefined = await query;
  if (!row) throw notFound();
  return row;
}

function presentChange(row: ChangeRow): ClientPricingOptionChangeView {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    note: row.note,
    actor: row.actorId
      ? { id: row.actorId, firstName: row.actorFirstName ?? '', lastName: row.actorLastName ?? '' }
      : null,
    bulk: row.bulkId !== null,
    createdAt: iso(row.createdAt),
  };
}

/** People the pass owner linked their account with who are clients of this studio. */
export async function linkedClients(db: Db, studioId: string, ownerId: string): Promise<Person[]> {
  const people: Person[] = await db('user_account_links as l')
    .join('users as u', function () {
      this.on(db.raw('u.id = case when l.user_id = ? then l.linked_user_id else l.user_id end', [ownerId]));
    })
    .join('clients as c', function () {
      this.on('c.user_id', 'u.id').andOn('c.studio_id', db.raw('?', [studioId]));
    })
    .where((q) => q.where('l.user_id', ownerId).orWhere('l.linked_user_id', ownerId))
    .orderBy([{ column: 'u.last_name' }, { column: 'u.first_name' }])
    .select('u.id as user_id', 'u.first_name', 'u.last_name');
  return people;
}

export async function passInit(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
  canEdit: boolean,
): Promise<ClientPricingOptionInit> {
  const [derived] = await derive(db, studio, [await passRow(db, studio.id, id)], now);
  return {
    clientPricingOption: derived!.view,
    changes: derived!.changes.map(presentChange).reverse(),
    shareCandidates: await linkedClients(db, studio.id, derived!.row.clientId),
    canEdit,
  };
}

/**
 * Keeps `status`, `activated_at` and `expires_at` of the row in step with the derived state: a
 * projection for SQL list filters only (clients' has-valid-pass), never read back by the catalog. The
 * schedule module calls this after it writes a visit paid with a pass. `known`: the pass's facts as the
 * caller already read them in this transaction (`passCandidatesFor`, after locking the client) plus
 * what it just wrote — saves re-reading them (the booking path's lock is held meanwhile).
 */
export async function refreshPassProjection(
  trx: Db,
  studio: Studio,
  id: string,
  now: Date,
  known?: PassFacts,
): Promise<void> {
  let facts = known;
  if (!facts) {
    const row: PassFactsRow | undefined = await selectPassFacts(trx, studio.id).where('cpo.id', id).first();
    if (!row) throw notFound();
    facts = factsOfRow(row);
  }
  const state = derivePassState(facts, now, studio.timeZone);
  await trx('client_pricing_options').where({ studioId: studio.id, id }).update({
    status: state.status,
    activatedAt: state.activatedAt,
    expiresAt: state.expiresAt,
    updatedAt: trx.fn.now(),
  });
}

type Change = Pick<ClientPricingOptionPatch, 'extendDays' | 'freeze' | 'entriesDelta' | 'note'>;

/** Applies a staff change to a locked pass: one audit row per kind of change. */
async function applyChange(
  trx: Db,
  studio: Studio,
  actorId: string,
  row: PassRow,
  change: Change,
  now: Date,
  bulkId: string | null,
): Promise<void> {
  if (change.entriesDelta !== undefined) {
    const [derived] = await derive(trx, studio, [row], now);
    const state = derived!.state;
    if (state.entriesTotal === null)
      throw AppError.invalid({ entriesDelta: ['this pass has unlimited entries'] });
    if (state.entriesTotal + change.entriesDelta < state.entriesUsed)
      throw AppError.invalid({
        entriesDelta: [`would leave fewer entries than the ${state.entriesUsed} already used`],
      });
  }
  const note = change.note ?? '';
  const rows: Array<{ kind: string; payload: Record<string, unknown> }> = [];
  if (change.extendDays !== undefined) rows.push({ kind: 'extend', payload: { days: change.extendDays } });
  if (change.freeze !== undefined) rows.push({ kind: 'freeze', payload: change.freeze });
  if (change.entriesDelta !== undefined)
    rows.push({ kind: 'entries', payload: { delta: change.entriesDelta } });
  for (const r of rows)
    await trx('client_pricing_option_changes').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientPricingOptionId: row.id,
      kind: r.kind,
      payload: JSON.stringify(r.payload),
      note,
      actorId,
      bulkId,
    });
  await refreshPassProjection(trx, studio, row.id, now);
}

export async function changePass(
  trx: Db,
  studio: Studio,
  actorId: string,
  id: string,
  change: ClientPricingOptionPatch,
  now: Date,
): Promise<ClientPricingOptionView> {
  const row = await passRow(trx, studio.id, id, true);
  await applyChange(trx, studio, actorId, row, change, now, null);
  const [derived] = await derive(trx, studio, [await passRow(trx, studio.id, id)], now);
  return derived!.view;
}

/** The same change to many passes, whole or nothing; every pass gets its own audit rows. */
export async function bulkChangePasses(
  trx: Db,
  studio: Studio,
  actorId: string,
  input: BulkChangeInput,
  now: Date,
): Promise<BulkChangeResult> {
  const ids = [...new Set(input.clientPricingOptionIds)];
  const rows: PassRow[] = await selectPasses(trx, studio.id)
    .whereIn('cpo.id', ids)
    .orderBy('cpo.id')
    .forUpdate('cpo');
  if (rows.length !== ids.length) throw notFound();
  const bulkId = uuidv7();
  for (const row of rows) {
    try {
      await applyChange(trx, studio, actorId, row, input, now, bulkId);
    } catch (err) {
      if (err instanceof AppError && err.fields?.entriesDelta)
        throw AppError.invalid({ entriesDelta: [`pass ${row.id}: ${err.fields.entriesDelta[0]}`] });
      throw err;
    }
  }
  return { changed: rows.length, bulkId };
}

export async function sharePass(
  trx: Db,
  studio: Studio,
  actorId: string,
  id: string,
  input: ClientPricingOptionShareInput,
  now: Date,
): Promise<ClientPricingOptionView> {
  const row = await passRow(trx, studio.id, id, true);
  if (input.shared) {
    const option = await pricingOptionRow(trx, studio.id, row.pricingOptionId);
    if (!option.shareable)
      throw new AppError('resource.conflict', {
        message: 'this pass cannot be shared',
        fields: { userId: ['this pass cannot be shared'] },
      });
    const candidates = await linkedClients(trx, studio.id, row.clientId);
    if (!candidates.some((c) => c.userId === input.userId))
      throw AppError.invalid({ userId: ['not a linked account of the pass owner in this studio'] });
    const existing: Array<{ userId: string }> = await trx('client_pricing_option_shares')
      .where({ studioId: studio.id, clientPricingOptionId: id })
      .select('user_id');
    if (!existing.some((s) => s.userId === input.userId)) {
      if (option.shareLimit !== null && existing.length >= option.shareLimit)
        throw new AppError('resource.conflict', {
          message: 'shared with as many accounts as allowed',
          fields: { userId: ['shared with as many accounts as allowed'] },
        });
      await trx('client_pricing_option_shares').insert({
        id: uuidv7(),
        studioId: studio.id,
        clientPricingOptionId: id,
        userId: input.userId,
        sharedBy: actorId,
      });
    }
  } else {
    await trx('client_pricing_option_shares')
      .where({ studioId: studio.id, clientPricingOptionId: id, userId: input.userId })
      .delete();
  }
  const [derived] = await derive(trx, studio, [await passRow(trx, studio.id, id)], now);
  return derived!.view;
}

/**
 * The front office's share (`passes/{clientPricingOption}/share`): the signed-in client shares their
 * own pass with (or withdraws it from) one of their linked accounts that is a client here, under the
 * same rules as staff (a shareable option, its share limit). Someone else's pass is not found.
 */
export async function shareMyPass(
  trx: Db,
  studio: Studio,
  clientId: string,
  id: string,
  input: ClientPricingOptionShareInput,
  now: Date,
): Promise<ClientPricingOptionView> {
  const row = await passRow(trx, studio.id, id, true);
  if (row.clientId !== clientId) throw notFound();
  return sharePass(trx, studio, clientId, id, input, now);
}

/**
 * Staff sell (or give) a pass to a client at the desk, or a paid order delivers one: the option's
 * terms are copied onto the pass. The order and payment are the sales module's; this records the
 * entitlement and the price paid. `channel` is where it was sold: an option sold only online is
 * refused at the desk, and one sold only at the desk is refused online.
 */
export async function sellPass(
  trx: Db,
  studio: Studio,
  actorId: string,
  userId: string,
  optionId: string,
  price: number | undefined,
  now: Date,
  channel: 'desk' | 'online' = 'desk',
  /** Whether the seller holds `sales.discount`: only then may `price` differ from the list price. */
  mayChangePrice = true,
): Promise<ClientPricingOptionView> {
  await assertClient(trx, studio.id, userId);
  const option = await pricingOptionRow(trx, studio.id, optionId, true);
  const refuse = (message: string) =>
    new AppError('resource.conflict', { message, fields: { pricingOption: [message] } });
  if (option.archivedAt) throw refuse('this pricing option is archived');
  if (channel === 'desk' && !option.sellAtDesk) throw refuse('this pricing option is not sold at the desk');
  if (channel === 'online' && !option.sellOnline) throw refuse('this pricing option is not sold online');
  const today = localDateOf(now, studio.timeZone);
  const validUntil = dateOnly(option.validUntil);
  if (validUntil !== null && option.expirationType === 4 && validUntil < today)
    throw refuse('this pricing option’s validity date has passed');
  if (option.limitPerClient !== null) {
    const [counted]: Array<{ n: number | string }> = await trx('client_pricing_options')
      .where({ studioId: studio.id, clientId: userId, pricingOptionId: optionId })
      .count('* as n');
    if (Number(counted?.n ?? 0) >= option.limitPerClient)
      throw refuse('the client has bought this as many times as allowed');
  }
  const promotions: Array<{ price: number; startsOn: Date; endsOn: Date }> = await trx(
    'pricing_option_promotions',
  )
    .where({ studioId: studio.id, pricingOptionId: optionId })
    .select('price', 'starts_on', 'ends_on');
  const listPrice = priceOn(
    option.price,
    promotions.map((p) => ({
      id: '',
      price: p.price,
      startsOn: dateOnly(p.startsOn)!,
      endsOn: dateOnly(p.endsOn)!,
    })),
    today,
  );
  if (price !== undefined && price !== listPrice && !mayChangePrice) {
    const message = 'selling at another price than the list price needs the discount right (sales.discount)';
    throw new AppError('auth.forbidden', { message, fields: { price: [message] } });
  }
  const id = uuidv7();
  await trx('client_pricing_options').insert({
    id,
    studioId: studio.id,
    clientId: userId,
    pricingOptionId: optionId,
    soldAt: now,
    soldBy: actorId,
    pricePaid: price ?? listPrice,
    entries: option.entries,
    expirationType: option.expirationType,
    validityCount: option.validityCount,
    validityUnit: option.validityUnit,
    validUntil,
  });
  await refreshPassProjection(trx, studio, id, now);
  await emitWebhookEvent(
    trx,
    studio.id,
    'pass.sold',
    { passId: id, userId, pricingOptionId: optionId, price: price ?? listPrice, channel },
    now,
  );
  const [derived] = await derive(trx, studio, [await passRow(trx, studio.id, id)], now);
  return derived!.view;
}

/** The client's passes and those shared with them, with their facts (`passCandidatesFor`), compiled once. */
export const PASS_CANDIDATES = compiled<{ studioId: string; userId: string }>((db, p) =>
  selectPassFacts(db, p.studioId)
    .select('po.restrictions')
    // Their own by (studio_id, client_id), the shared ones by (studio_id, user_id): two index lookups.
    // As `client_id = ? or exists (a share)`, the OR made the planner read every pass of the studio.
    .whereIn(
      'cpo.id',
      db('client_pricing_options as own')
        .where('own.studio_id', p.studioId)
        .where('own.client_id', p.userId)
        .select('own.id')
        .unionAll(
          db('client_pricing_option_shares as s')
            .where('s.studio_id', p.studioId)
            .where('s.user_id', p.userId)
            .select('s.client_pricing_option_id'),
        ),
    )
    .limit(1000),
);

/**
 * Everything the pass-choice rule needs about a client's passes (their own and those shared with
 * them): facts and coverage. The schedule, appointments, entries and videos call
 * `choosePassForVisit(await passCandidatesFor(...), visit, studio.timeZone)`.
 */
/** A pass the booking rule may choose, with its name (a booking's answer names what paid). */
export type NamedPassCandidate = PassCandidate & { name: Record<string, { value: string }> };

export async function passCandidatesFor(
  db: Db,
  studio: Studio,
  userId: string,
): Promise<NamedPassCandidate[]> {
  // One statement (passes with their changes and visits as JSON): the booking path calls this while
  // it holds the client's row lock, so every round trip here is time the client's next booking waits.
  const rows = await PASS_CANDIDATES.rows<PassFactsRow & { restrictions: Partial<Restrictions> }>(db, {
    studioId: studio.id,
    userId,
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    facts: factsOfRow(row),
    coverage: {
      serviceTypes: row.serviceTypes as PassCandidate['coverage']['serviceTypes'],
      classServiceIds: row.restrictions?.classServiceIds ?? [],
      locationIds: row.restrictions?.locationIds ?? [],
      timeWindows: row.restrictions?.timeWindows ?? [],
      tagIds: row.restrictions?.tagIds ?? [],
    },
  }));
}
