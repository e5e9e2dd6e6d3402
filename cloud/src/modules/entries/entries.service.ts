import { v7 as uuidv7 } from 'uuid';
import type {
  ClientEntry,
  ClientEntryList,
  EntryEnrollmentInit,
  EntryEnrollmentRefusal,
  EntryService,
  EntryServiceInput,
  EntryServicePatch,
  OpeningWindow,
} from '../../../../shared/contracts/api/entries';
import { ENTRY_SERVICE_LIMITS } from '../../../../shared/contracts/api/entries';
import { entryRefusal, isOpenAt } from '../../../../shared/domain/entries/entry-limits';
import {
  addLocalDays,
  choosePassForVisit,
  localDateOf,
  startOfLocalDate,
  type PassCandidate,
} from '../../../../shared/domain/entitlements';
import { mapLocaleText, resolveLocaleText } from '../../../../shared/domain/locale-text';
import type { PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { EntryServicesRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import { readAll } from '../../db/read-all';
import type { Logger } from '../../logger';
import { clientTagIds } from '../bookings/index';
import { passCandidatesFor } from '../catalog/index';
import type { Studio } from '../identity/index';
import { createOrder, fulfilOrder, recordDeskPayment } from '../sales/index';

type LocaleText = Record<string, { value: string } | undefined>;

/** An entry service with what its limits read: who is inside now and how many entered today. */
interface Occupancy {
  insideNow: number;
  entriesToday: number;
}

function openingHoursOf(row: EntryServicesRow): OpeningWindow[] {
  return Array.isArray(row.openingHours) ? (row.openingHours as OpeningWindow[]) : [];
}

function limitsOf(row: EntryServicesRow) {
  return {
    openingHours: openingHoursOf(row),
    maxEntriesPerDay: row.maxEntriesPerDay,
    capacity: row.capacity,
  };
}

async function locationNames(db: Db, studioId: string): Promise<Map<string, string>> {
  const rows = await db('locations').where({ studioId }).select('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}

function todayStart(studio: Studio, now: Date): Date {
  return startOfLocalDate(localDateOf(now, studio.timeZone), studio.timeZone);
}

async function occupancyOf(
  db: Db,
  studio: Studio,
  serviceIds: string[],
  now: Date,
): Promise<Map<string, Occupancy>> {
  const out = new Map<string, Occupancy>();
  if (serviceIds.length === 0) return out;
  const from = todayStart(studio, now);
  const rows: Array<{ entryServiceId: string; insideNow: string | number; entriesToday: string | number }> =
    await db('client_entries')
      .where('studio_id', studio.id)
      .whereIn('entry_service_id', serviceIds)
      .where('leaves_at', '>', from < now ? from : now)
      .groupBy('entry_service_id')
      .select(
        'entry_service_id',
        db.raw('count(*) filter (where entered_at <= ? and leaves_at > ?) as inside_now', [now, now]),
        db.raw('count(*) filter (where entered_at >= ?) as entries_today', [from]),
      );
  for (const r of rows)
    out.set(r.entryServiceId, { insideNow: Number(r.insideNow), entriesToday: Number(r.entriesToday) });
  return out;
}

function present(
  row: EntryServicesRow,
  names: Map<string, string>,
  occ: Occupancy | undefined,
  studio: Studio,
  now: Date,
): EntryService {
  return {
    id: row.id,
    name: row.name as LocaleText,
    locationId: row.locationId,
    locationName: row.locationId ? (names.get(row.locationId) ?? null) : null,
    maxEntriesPerDay: row.maxEntriesPerDay,
    capacity: row.capacity,
    stayMinutes: row.stayMinutes,
    openingHours: openingHoursOf(row),
    price: row.price ?? null,
    vatRate: row.vatRate ?? '2300',
    archived: row.archivedAt !== null,
    insideNow: occ?.insideNow ?? 0,
    openNow: isOpenAt(openingHoursOf(row), now, studio.timeZone),
    entriesToday: occ?.entriesToday ?? 0,
  };
}

export function entryServiceInit(names: Map<string, string>) {
  return {
    locations: [...names].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
    defaults: { stayMinutes: 120 },
    limits: { ...ENTRY_SERVICE_LIMITS },
  };
}

export async function loadEntryServiceInit(db: Db, studio: Studio) {
  return entryServiceInit(await locationNames(db, studio.id));
}

export async function listEntryServices(db: Db, studio: Studio, now: Date): Promise<EntryService[]> {
  const rows = await db('entry_services')
    .where({ studioId: studio.id })
    .orderByRaw('archived_at is not null, created_at');
  const [names, occ] = await readAll(db, [
    () => locationNames(db, studio.id),
    () =>
      occupancyOf(
        db,
        studio,
        rows.map((r) => r.id),
        now,
      ),
  ]);
  return rows.map((r) => present(r, names, occ.get(r.id), studio, now));
}

async function assertLocation(db: Db, studio: Studio, locationId: string | null | undefined) {
  if (!locationId) return;
  const found = await db('locations').where({ studioId: studio.id, id: locationId }).first('id');
  if (!found) throw AppError.invalid({ locationId: ['unknown location'] });
}

export async function createEntryService(
  trx: Db,
  studio: Studio,
  input: Required<EntryServiceInput>,
  now: Date,
) {
  await assertLocation(trx, studio, input.locationId);
  const id = uuidv7();
  await trx('entry_services').insert({
    id,
    studioId: studio.id,
    name: JSON.stringify(input.name),
    locationId: input.locationId,
    maxEntriesPerDay: input.maxEntriesPerDay,
    capacity: input.capacity,
    stayMinutes: input.stayMinutes,
    openingHours: JSON.stringify(input.openingHours),
    price: input.price,
    vatRate: input.vatRate,
  });
  return entryServiceView(trx, studio, id, now);
}

async function serviceRow(db: Db, studio: Studio, id: string, lock = false): Promise<EntryServicesRow> {
  const q = db('entry_services').where({ studioId: studio.id, id });
  const row = lock ? await q.forUpdate().first() : await q.first();
  if (!row) throw AppError.notFound('entry service');
  return row;
}

export async function entryServiceView(db: Db, studio: Studio, id: string, now: Date): Promise<EntryService> {
  const row = await serviceRow(db, studio, id);
  const [names, occ] = await readAll(db, [
    () => locationNames(db, studio.id),
    () => occupancyOf(db, studio, [id], now),
  ]);
  return present(row, names, occ.get(id), studio, now);
}

export async function patchEntryService(
  trx: Db,
  studio: Studio,
  id: string,
  patch: EntryServicePatch,
  now: Date,
) {
  await serviceRow(trx, studio, id, true);
  await assertLocation(trx, studio, patch.locationId);
  await trx('entry_services')
    .where({ studioId: studio.id, id })
    .update({
      ...(patch.name !== undefined ? { name: JSON.stringify(patch.name) } : {}),
      ...(patch.locationId !== undefined ? { locationId: patch.locationId } : {}),
      ...(patch.maxEntriesPerDay !== undefined ? { maxEntriesPerDay: patch.maxEntriesPerDay } : {}),
      ...(patch.capacity !== undefined ? { capacity: patch.capacity } : {}),
      ...(patch.stayMinutes !== undefined ? { stayMinutes: patch.stayMinutes } : {}),
      ...(patch.openingHours !== undefined ? { openingHours: JSON.stringify(patch.openingHours) } : {}),
      ...(patch.price !== undefined ? { price: patch.price } : {}),
      ...(patch.vatRate !== undefined ? { vatRate: patch.vatRate } : {}),
      ...(patch.archived !== undefined ? { archivedAt: patch.archived ? now : null } : {}),
      updatedAt: now,
    });
  return entryServiceView(trx, studio, id, now);
}

export interface EntryClient {
  userId: string;
  firstName: string;
  lastName: string;
}

/** A live client of the studio (not archived), or 404. */
export async function requireEntryClient(db: Db, studio: Studio, clientId: string): Promise<EntryClient> {
  const row: EntryClient | undefined = await db('clients as c')
    .join('memberships as m', (j) => j.on('m.studio_id', 'c.studio_id').andOn('m.user_id', 'c.user_id'))
    .where({ 'c.studio_id': studio.id, 'c.user_id': clientId, 'm.is_client': true })
    .whereNull('c.archived_at')
    .whereNull('m.archived_at')
    .first('c.user_id', 'c.first_name', 'c.last_name');
  if (!row) throw AppError.notFound('client');
  return row;
}

async function clientEntriesToday(db: Db, studio: Studio, clientId: string, serviceIds: string[], now: Date) {
  const out = new Map<string, number>();
  if (serviceIds.length === 0) return out;
  const from = todayStart(studio, now);
  const to = startOfLocalDate(addLocalDays(localDateOf(now, studio.timeZone), 1), studio.timeZone);
  const rows: Array<{ entryServiceId: string; count: string | number }> = await db('client_entries')
    .where({ studioId: studio.id, clientId })
    .whereIn('entry_service_id', serviceIds)
    .where('entered_at', '>=', from)
    .where('entered_at', '<', to)
    .groupBy('entry_service_id')
    .select('entry_service_id', db.raw('count(*) as count'));
  for (const r of rows) out.set(r.entryServiceId, Number(r.count));
  return out;
}

/** Whether and how the client may enter each service now: the limits, then the pass rule. */
export interface EntryDecision {
  service: EntryServicesRow;
  insideNow: number;
  clientEntriesToday: number;
  passId: string | null;
  refusal: EntryEnrollmentRefusal | null;
}

export async function entryDecisions(
  db: Db,
  studio: Studio,
  clientId: string,
  services: EntryServicesRow[],
  now: Date,
  at: { locationId: string | null } = { locationId: null },
): Promise<EntryDecision[]> {
  const ids = services.map((s) => s.id);
  // One connection when `db` is a transaction (the desk's and the kiosk's enrolment): readAll.
  const [occ, today, passes, tags] = await readAll(db, [
    () => occupancyOf(db, studio, ids, now),
    () => clientEntriesToday(db, studio, clientId, ids, now),
    () => passCandidatesFor(db, studio, clientId),
    () => clientTagIds(db, studio.id, clientId),
  ]);
  return services.map((service) => {
    const insideNow = occ.get(service.id)?.insideNow ?? 0;
    const entriesToday = today.get(service.id) ?? 0;
    const limit = entryRefusal(
      limitsOf(service),
      { clientEntriesToday: entriesToday, insideNow },
      now,
      studio.timeZone,
    );
    const choice = choosePassForVisit(
      passes as PassCandidate[],
      {
        serviceType: 'entry',
        serviceId: service.id,
        locationId: service.locationId ?? at.locationId,
        startsAt: now,
        clientTagIds: tags,
      },
      studio.timeZone,
    );
    return {
      service,
      insideNow,
      clientEntriesToday: entriesToday,
      passId: choice.ok ? choice.passId : null,
      refusal: limit ?? (choice.ok ? null : choice.reason),
    };
  });
}

async function passNames(db: Db, studioId: string, passIds: string[]): Promise<Map<string, LocaleText>> {
  if (passIds.length === 0) return new Map();
  const rows = await db('client_pricing_options as cpo')
    .join('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
    .where('cpo.studio_id', studioId)
    .whereIn('cpo.id', passIds)
    .select('cpo.id', 'po.name');
  return new Map(rows.map((r) => [r.id, r.name as LocaleText]));
}

export async function enrollmentInit(
  db: Db,
  studio: Studio,
  clientId: string,
  now: Date,
): Promise<EntryEnrollmentInit> {
  const client = await requireEntryClient(db, studio, clientId);
  const services = await db('entry_services')
    .where({ studioId: studio.id })
    .whereNull('archived_at')
    .orderBy('created_at');
  const [decisions, names] = await readAll(db, [
    () => entryDecisions(db, studio, client.userId, services, now),
    () => locationNames(db, studio.id),
  ]);
  const passes = await passNames(
    db,
    studio.id,
    decisions.flatMap((d) => (d.passId ? [d.passId] : [])),
  );
  return {
    client: { id: client.userId, firstName: client.firstName, lastName: client.lastName },
    services: decisions.map((d) => ({
      id: d.service.id,
      name: d.service.name as LocaleText,
      locationName: d.service.locationId ? (names.get(d.service.locationId) ?? null) : null,
      openNow: isOpenAt(openingHoursOf(d.service), now, studio.timeZone),
      insideNow: d.insideNow,
      capacity: d.service.capacity,
      clientEntriesToday: d.clientEntriesToday,
      maxEntriesPerDay: d.service.maxEntriesPerDay,
      pass: d.passId ? { id: d.passId, name: passes.get(d.passId) ?? {} } : null,
      price: d.service.price ?? null,
      refusal: d.refusal,
    })),
  };
}

const LIMIT_ERRORS = {
  closed: 'entry.closed',
  dailyLimitReached: 'entry.dailyLimitReached',
  full: 'entry.full',
} as const;

function refusalError(refusal: EntryEnrollmentRefusal, field: string): AppError {
  const key =
    refusal in LIMIT_ERRORS ? LIMIT_ERRORS[refusal as keyof typeof LIMIT_ERRORS] : 'entry.noPassCovers';
  return new AppError(key, { message: `no entry now (${refusal})`, fields: { [field]: [refusal] } });
}

/**
 * Records one entry: the service's row is locked first, so two entries at once cannot both take the
 * last place or the client's last entry of the day.
 */
export async function recordEntry(
  trx: Db,
  studio: Studio,
  input: {
    clientId: string;
    entryServiceId: string;
    withoutPass: boolean;
    source: 'desk' | 'kiosk';
    enrolledByUserId: string | null;
    kioskId: string | null;
    kioskLocationId?: string | null;
  },
  now: Date,
): Promise<{ id: string; passId: string | null }> {
  const client = await requireEntryClient(trx, studio, input.clientId);
  const service = await serviceRow(trx, studio, input.entryServiceId, true);
  if (service.archivedAt)
    throw new AppError('entry.serviceArchived', {
      message: 'this entry service is archived',
      fields: { entryServiceId: ['archived'] },
    });
  const [decision] = await entryDecisions(trx, studio, client.userId, [service], now, {
    locationId: input.kioskLocationId ?? null,
  });
  const d = decision!;
  const limitOnly = entryRefusal(
    limitsOf(service),
    { clientEntriesToday: d.clientEntriesToday, insideNow: d.insideNow },
    now,
    studio.timeZone,
  );
  if (limitOnly) throw refusalError(limitOnly, 'entryServiceId');
  if (!d.passId && !input.withoutPass) throw refusalError(d.refusal ?? 'noPasses', 'clientId');
  const id = uuidv7();
  const passId = input.withoutPass ? null : d.passId;
  await trx('client_entries').insert({
    id,
    studioId: studio.id,
    entryServiceId: service.id,
    clientId: client.userId,
    enteredAt: now,
    leavesAt: new Date(now.getTime() + service.stayMinutes * 60_000),
    clientPricingOptionId: passId,
    source: input.source,
    enrolledByUserId: input.enrolledByUserId,
    kioskId: input.kioskId,
  });
  return { id, passId };
}

/**
 * Sells the service's single entry (a day ticket) at the desk and lets the client in, in one go (in
 * the request's transaction): the entry without a pass (the limits still apply, under the service's
 * row lock), then one order (source `desk`, an `entry` line at the service's price) paid with the
 * desk's method — a wallet without the money refuses it and nothing is recorded. A service with no
 * price is not sold (409 `entry.notForSale`).
 */
export async function sellEntry(
  trx: Db,
  studio: Studio,
  input: { clientId: string; entryServiceId: string; method: number; staffUserId: string },
  now: Date,
  log?: Logger,
): Promise<{ id: string; orderId: string }> {
  const service = await serviceRow(trx, studio, input.entryServiceId);
  if (service.price === null)
    throw new AppError('entry.notForSale', {
      message: 'this entry service has no price for a single entry',
      fields: { entryServiceId: ['not sold on its own'] },
    });
  const entry = await recordEntry(
    trx,
    studio,
    {
      clientId: input.clientId,
      entryServiceId: service.id,
      withoutPass: true,
      source: 'desk',
      enrolledByUserId: input.staffUserId,
      kioskId: null,
    },
    now,
  );
  const day = localDateOf(now, studio.timeZone);
  const tx = trx as Knex.Transaction;
  const { id: orderId } = await createOrder(tx, {
    studioId: studio.id,
    clientId: input.clientId,
    source: 'desk',
    sourceId: entry.id,
    createdBy: input.staffUserId,
    lines: [
      {
        kind: 'entry',
        refId: entry.id,
        name: `${resolveLocaleText(service.name as LocaleText, studio.defaultLocale, studio.defaultLocale)} ${day}`,
        nameTexts: mapLocaleText(service.name as LocaleText, (name) => `${name} ${day}`),
        quantity: 1,
        unitPriceMinor: service.price,
        vatRate: service.vatRate,
      },
    ],
  });
  if (service.price > 0)
    await recordDeskPayment(
      tx,
      studio,
      orderId,
      { method: input.method as PaymentMethod },
      input.staffUserId,
      now,
      log,
    );
  else await fulfilOrder(tx, orderId, null, now, log);
  await trx('client_entries').where({ studioId: studio.id, id: entry.id }).update({ orderId });
  return { id: entry.id, orderId };
}

export async function clientEntryView(db: Db, studio: Studio, id: string): Promise<ClientEntry> {
  const page = await clientEntriesPage(db, studio, null, { limit: 1, cursor: undefined }, id);
  return page.items[0]!;
}

/** A client's entries, newest first (keyset on entered_at, id). */
export async function clientEntriesPage(
  db: Db,
  studio: Studio,
  clientId: string | null,
  query: { limit: number; cursor?: string | undefined },
  onlyId?: string,
): Promise<ClientEntryList> {
  const q = db('client_entries as e')
    .join('entry_services as s', 's.id', 'e.entry_service_id')
    .leftJoin('client_pricing_options as cpo', 'cpo.id', 'e.client_pricing_option_id')
    .leftJoin('pricing_options as po', 'po.id', 'cpo.pricing_option_id')
    .leftJoin('users as u', 'u.id', 'e.enrolled_by_user_id')
    .where('e.studio_id', studio.id)
    .orderBy([
      { column: 'e.entered_at', order: 'desc' },
      { column: 'e.id', order: 'desc' },
    ])
    .limit(query.limit + 1)
    .select(
      'e.id',
      'e.entry_service_id',
      's.name as service_name',
      'e.entered_at',
      'e.leaves_at',
      'e.source',
      'e.client_pricing_option_id',
      'e.order_id',
      'po.name as pass_name',
      'u.first_name',
      'u.last_name',
    );
  if (clientId) q.where('e.client_id', clientId);
  if (onlyId) q.where('e.id', onlyId);
  if (query.cursor) {
    const [at, id] = query.cursor.split('_');
    const when = new Date(at ?? '');
    if (Number.isNaN(when.getTime()) || !id || !/^[0-9a-f-]{36}$/i.test(id))
      throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    q.where((w) =>
      w.where('e.entered_at', '<', when).orWhere((x) => x.where('e.entered_at', when).where('e.id', '<', id)),
    );
  }
  const rows: Array<{
    id: string;
    entryServiceId: string;
    serviceName: LocaleText;
    enteredAt: Date;
    leavesAt: Date;
    source: string;
    clientPricingOptionId: string | null;
    orderId: string | null;
    passName: LocaleText | null;
    firstName: string | null;
    lastName: string | null;
  }> = await q;
  const more = rows.length > query.limit;
  const items = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    entryServiceId: r.entryServiceId,
    serviceName: r.serviceName,
    enteredAt: new Date(r.enteredAt).toISOString(),
    leavesAt: new Date(r.leavesAt).toISOString(),
    source: r.source === 'kiosk' ? ('kiosk' as const) : ('desk' as const),
    pass: r.clientPricingOptionId ? { id: r.clientPricingOptionId, name: r.passName ?? {} } : null,
    enrolledBy: r.firstName !== null ? `${r.firstName} ${r.lastName ?? ''}`.trim() : null,
    orderId: r.orderId,
  }));
  const last = items.at(-1);
  return { items, next: more && last ? `${last.enteredAt}_${last.id}` : null };
}

/** The entry services a kiosk lets clients into: active, at its location or at none. */
export async function kioskEntryServices(db: Db, studio: Studio, kioskLocationId: string | null) {
  const q = db('entry_services')
    .where({ studioId: studio.id })
    .whereNull('archived_at')
    .orderBy('created_at');
  if (kioskLocationId) q.where((w) => w.whereNull('location_id').orWhere('location_id', kioskLocationId));
  return q;
}
