import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeApiRoutes } from '../../cloud/src/app';
import { seedDemoStudio } from '../../cloud/src/db/seed/demo';
import { createLogger } from '../../cloud/src/logger';
import { API_KEY_HEADER, hashApiKey } from '../../cloud/src/modules/bookings/bookings.routes';
import { findHandler, registeredCommands } from '../../cloud/src/sync/commands';
import { studioWithStation, type Station } from '../../cloud/src/sync/sync.test-support';
import { addMembership, createStudioScenario, createUser } from '../support/factories';
import type { HttpClient } from '../support/http-client';
import { ManualClock, startTestApp, type TestApp } from '../support/test-app';
import { arbitraryOf } from '../support/zod-arbitrary';

/**
 * Tenant isolation for EVERY route of the catalog, generated from it (no hand-written list to keep
 * up): studio A is the demo studio (one of everything: locations, rooms, services, timetable,
 * classes, passes, contracts, products, vouchers, orders, invoices, 200 clients, a kiosk) plus an
 * API key and a station; studio B has its own manager, client, API key and station. B's actors call
 *  - every studio route with A's studio uuid  → 401/403/404;
 *  - every route naming ids with A's ids (B's own studio uuid, a body the schema accepts) → 401/403/404;
 *  - every list and read of its own studio, and the public API with B's key → no id of A in the answer;
 *  - every sync command from B's station, its arguments naming A's ids → nothing of B's points at A.
 * Every answer is also searched for A's ids, and A's rows are compared before and after.
 */
const NOW = new Date('2026-11-22T12:00:00Z');
const routes = describeApiRoutes();
let app: TestApp;

/** Which table a path parameter names (by name, or by name after the path segment before it). */
const PARAM_TABLE: Record<string, string> = {
  card: 'client_payment_cards',
  classService: 'class_services',
  classServiceGuid: 'class_services',
  clientContract: 'client_contracts',
  clientContractInstalment: 'client_contract_instalments',
  clientDocument: 'client_documents',
  clientField: 'client_fields',
  clientIdentity: 'client_identities',
  clientNote: 'client_notes',
  clientOrder: 'client_orders',
  contract: 'contracts',
  clientVideo: 'client_videos',
  entryService: 'entry_services',
  experienceLevelGuid: 'experience_levels',
  fiscalDocument: 'fiscal_documents',
  invoice: 'invoices',
  kioskGuid: 'studio_kiosks',
  location: 'locations',
  pricingOption: 'pricing_options',
  pricingOptionGuid: 'client_pricing_options',
  product: 'products',
  productCategory: 'product_categories',
  promotion: 'pricing_option_promotions',
  referenceId: 'schedule_events',
  room: 'location_rooms',
  scheduleEvent: 'schedule_events',
  scheduleMeta: 'schedule_metas',
  scheduleMetaGuid: 'schedule_metas',
  shift: 'pos_shifts',
  smartLockGuid: 'studio_smart_locks',
  studioBankAccount: 'studio_bank_accounts',
  studioDocument: 'studio_documents',
  studioFiscalPrinter: 'studio_fiscal_printers',
  studioIamRole: 'studio_iam_roles',
  studioPos: 'studio_pos',
  tag: 'tags',
  tax: 'taxes',
  userAccountLinkRelation: 'client_links',
  userMessageGuid: 'user_messages',
  userNotificationGuid: 'user_notifications',
  video: 'videos',
  videoEvent: 'video_events',
  videoService: 'video_services',
  voucher: 'vouchers',
  'category<-class-service-category': 'class_service_categories',
  'category<-pricing-option-category': 'pricing_option_categories',
  'id<-client-pricing-option': 'client_pricing_options',
  'clientPricingOption<-passes': 'client_pricing_options',
  'id<-schedule-metas': 'schedule_metas',
};
/** Parameters that are not ids of a row (a provider's name, an issue kind): B's own, not A's. */
const NOT_IDS = new Set(['provider', 'type']);
const CLIENT_PARAMS = new Set(['user', 'userGuid']);

interface StudioA {
  id: string;
  /** Every id of A's rows (and of A's people): none may show up in anything B sees. */
  ids: Set<string>;
  /** One id per table for the path parameters. */
  byTable: Map<string, string>;
  clientId: string;
  stationSlug: string | null;
}
let A: StudioA;
let B: {
  id: string;
  staff: HttpClient;
  client: HttpClient;
  apiKey: HttpClient;
  station: Station;
};

async function tablesWithStudio(): Promise<string[]> {
  const { rows } = (await app.knex.raw(
    `select c.table_name as t from information_schema.columns c
       join information_schema.columns i on i.table_name = c.table_name and i.table_schema = c.table_schema
        and i.column_name = 'id' and i.data_type = 'uuid'
      where c.column_name = 'studio_id' and c.table_schema = 'public' order by 1`,
  )) as { rows: Array<{ t: string }> };
  return rows.map((r) => r.t);
}

/** Single-column foreign keys of the tables that have a studio_id, to tables with a studio_id or to users. */
async function foreignKeys(): Promise<Array<{ table: string; column: string; ref: string }>> {
  const studioTables = new Set(await tablesWithStudio());
  const { rows } = (await app.knex.raw(
    `select cl.relname as t, a.attname as c, rt.relname as r
       from pg_constraint k
       join pg_class cl on cl.oid = k.conrelid
       join pg_class rt on rt.oid = k.confrelid
       join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'f' and array_length(k.conkey, 1) = 1 and cl.relnamespace = 'public'::regnamespace`,
  )) as { rows: Array<{ t: string; c: string; r: string }> };
  return rows
    .filter((r) => studioTables.has(r.t) && r.c !== 'studio_id' && (studioTables.has(r.r) || r.r === 'users'))
    .map((r) => ({ table: r.t, column: r.c, ref: r.r }));
}

/** A fingerprint of a studio's rows in every table (count and hash): A's must not change. */
async function fingerprint(studioId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of await tablesWithStudio()) {
    const { rows } = await app.knex.raw(
      `select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x.id), '')) as h from "${t}" x where studio_id = ?`,
      [studioId],
    );
    out[t] = `${rows[0].n}:${rows[0].h}`;
  }
  return out;
}

async function apiKeyClient(studioId: string): Promise<HttpClient> {
  const key = `sk_test_${uuidv7().replace(/-/g, '')}`;
  await app
    .knex('studio_apis')
    .insert({ id: uuidv7(), studioId: studioId, name: 'Partner', keyHash: hashApiKey(key) });
  const http = await app.anonymous();
  const request = http.request.bind(http);
  http.request = (method, path, body, options = {}) =>
    request(method, path, body, { ...options, headers: { ...options.headers, [API_KEY_HEADER]: key } });
  return http;
}

beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(NOW) });
  const tag = uuidv7().slice(-8);
  const demo = await seedDemoStudio(app.knex, createLogger('silent', false), NOW, { tag });
  if (!demo) throw new Error('demo seed refused');
  const stationA = await studioWithStation(
    app,
    (await app.knex('studios').where({ id: demo.studioUuid }).first()) as never,
  );
  await apiKeyClient(demo.studioUuid);
  await oneOfEverythingElse(demo.studioUuid);
  const ids = new Set<string>([demo.studioUuid]);
  const byTable = new Map<string, string>();
  for (const t of await tablesWithStudio()) {
    const rows = (await app
      .knex(t)
      .where({ studio_id: demo.studioUuid })
      .orderBy('id')
      .select('id')) as Array<{ id: string }>;
    for (const r of rows) ids.add(r.id);
    if (rows[0]) byTable.set(t, rows[0].id);
  }
  const people = (await app
    .knex('memberships')
    .where({ studioId: demo.studioUuid })
    .select('user_id')) as Array<{
    userId: string;
  }>;
  for (const p of people) ids.add(p.userId);
  const client = await app.knex('users').where({ email: demo.clientEmail }).first('id');
  const pos = await app.knex('studio_pos').where({ studioId: demo.studioUuid }).first('slug');
  A = { id: demo.studioUuid, ids, byTable, clientId: client!.id, stationSlug: pos?.slug ?? null };
  void stationA;

  const other = await createStudioScenario(app.knex);
  const station = await studioWithStation(app, other.studio);
  B = {
    id: other.studio.id,
    staff: await app.signedIn(other.manager.email, other.manager.password),
    client: await app.signedIn(other.client.email, other.client.password),
    apiKey: await apiKeyClient(other.studio.id),
    station,
  };
  // B's client is also a client of nothing in A; B's staff member is staff of nothing in A.
  const stranger = await createUser(app.knex, { firstName: 'B', lastName: 'Second' });
  await addMembership(app.knex, other.studio, stranger, { isClient: true });
}, 300_000);
afterAll(async () => app?.close());

/**
 * The rows the demo has none of, one each, written straight into A (each insert on its own: one that
 * a constraint refuses only lowers the coverage the suite prints).
 */
async function oneOfEverythingElse(studioId: string): Promise<void> {
  const k = app.knex;
  const first = async (table: string, where: Record<string, unknown> = {}) =>
    (
      (await k(table)
        .where({ studio_id: studioId, ...where })
        .orderBy('id')
        .first('id')) as { id: string } | undefined
    )?.id;
  const clients = (await k('memberships')
    .where({ studioId: studioId, isClient: true })
    .orderBy('id')
    .limit(2)
    .select('user_id')) as Array<{ userId: string }>;
  const [c1, c2] = [clients[0]!.userId, clients[1]!.userId];
  const service = await first('class_services');
  const location = await first('locations');
  const option = await first('pricing_options');
  const posId = uuidv7();
  const lt = JSON.stringify({ en: { value: 'X' }, pl: { value: 'X' } });
  const rows: Array<[string, Record<string, unknown>]> = [
    ['class_service_categories', { name: lt }],
    ['pricing_option_categories', { name: lt }],
    ['client_fields', { name: lt, type: 1 }],
    ['client_notes', { client_id: c1, type: 'private', content: 'a note of A' }],
    ['client_identities', { user_id: c1, kind: 'card', value: 'A-CARD-1', value_key: 'a-card-1' }],
    [
      'client_payment_cards',
      {
        client_id: c1,
        provider: 'test',
        customer_ref: 'cus_a',
        method_ref: 'pm_a',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2030,
      },
    ],
    ['experience_levels', { service_type: 'classroom', name: 'Beginner' }],
    [
      'pricing_option_promotions',
      { pricing_option_id: option, price: 100, starts_on: '2026-11-01', ends_on: '2026-12-31' },
    ],
    [
      'schedule_metas',
      {
        class_service_id: service,
        location_id: location,
        days_of_week: [1, 3],
        start_time: '18:00',
        duration_minutes: 60,
        first_date: '2026-11-01',
        capacity: 10,
      },
    ],
    ['studio_pos', { id: posId, name: 'Desk A', slug: `desk-a-${posId.slice(-6)}` }],
    ['pos_shifts', { pos_id: posId, opened_at: NOW, float: 0 }],
    [
      'studio_fiscal_printers',
      {
        name: 'Printer A',
        station_slug: `desk-a-${posId.slice(-6)}`,
        connection: JSON.stringify({ kind: 'emulator' }),
        vat_slots: JSON.stringify([]),
      },
    ],
    ['studio_smart_locks', { name: 'Door A', driver: 'httpRelay' }],
    ['studio_iam_roles', { name: 'Role of A' }],
    ['client_links', { client_a_id: c1, client_b_id: c2 }],
    ['user_messages', { user_id: c1, sender: 'studio', content: 'hello from A' }],
    ['user_notifications', { user_id: c2, type: 'info', title_key: 'x' }],
  ];
  for (const [table, values] of rows) {
    if (await first(table)) continue;
    try {
      await k.transaction((trx) => trx(table).insert({ id: uuidv7(), studio_id: studioId, ...values }));
    } catch (err) {
      console.info(`cross-studio: no ${table} row for A (${(err as Error).message.slice(0, 120)})`);
    }
  }
}

function paramNames(path: string): Array<{ name: string; before: string }> {
  return [...path.matchAll(/([^/]+)\/:([A-Za-z]+)/g)]
    .map((m) => ({ name: m[2]!, before: m[1]! }))
    .filter((p) => p.name !== 'uuid');
}

/** A's id for a path parameter, or null when the parameter names no row of A. */
function idOfA(param: { name: string; before: string }): string | null {
  if (CLIENT_PARAMS.has(param.name)) return A.clientId;
  if (param.name === 'slug') return A.stationSlug;
  const table = PARAM_TABLE[`${param.name}<-${param.before}`] ?? PARAM_TABLE[param.name];
  return table ? (A.byTable.get(table) ?? null) : null;
}

/** A body the route's schema accepts, its ids drawn from A's (so validation lets the call reach the scope check). */
function validBody(schema: z.ZodType | undefined, seed: number): { body: unknown; valid: boolean } {
  if (!schema) return { body: undefined, valid: true };
  const pool = [...A.byTable.values(), A.clientId];
  const samples = fc.sample(arbitraryOf(schema, { ids: pool }), { numRuns: 300, seed });
  for (const s of samples) if (schema.safeParse(s).success) return { body: s, valid: true };
  return { body: {}, valid: false };
}

const leakedIds = (text: string) =>
  [...new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [])].filter(
    (id) => A.ids.has(id.toLowerCase()),
  );

const DENIED = [401, 403, 404];

describe("a second studio's staff, client, API key and station get nothing of the first", () => {
  it('every route, called by B with A’s studio or A’s ids, is refused and shows none of A’s ids', async () => {
    const before = await fingerprint(A.id);
    const failures: string[] = [];
    let checks = 0;
    let withRealIds = 0;
    const unresolved = new Set<string>();
    for (const [index, route] of routes.entries()) {
      const method = route.method.toUpperCase();
      const params = paramNames(route.fullPath);
      const ids = params.filter((p) => !NOT_IDS.has(p.name)).map((p) => ({ ...p, id: idOfA(p) }));
      for (const p of ids) if (!p.id) unresolved.add(`${p.name}<-${p.before}`);
      const { body, valid } =
        method === 'GET' ? { body: undefined, valid: true } : validBody(route.body as z.ZodType, index);
      const fill = (studio: string) =>
        route.fullPath.replace(/([^/]+)\/:([A-Za-z]+)/g, (whole, before: string, name: string) => {
          if (name === 'uuid') return `${before}/${studio}`;
          if (NOT_IDS.has(name)) return `${before}/test`;
          return `${before}/${ids.find((p) => p.name === name && p.before === before)?.id ?? uuidv7()}`;
        });
      const actors: Array<[string, HttpClient]> =
        route.access === 'public'
          ? [['API key', B.apiKey]]
          : route.access === 'client'
            ? [['client', B.client]]
            : [
                ['staff', B.staff],
                ['client', B.client],
              ];
      const headers = { 'idempotency-key': `x-${uuidv7()}` };
      const namesAnId = ids.some((p) => p.id);
      if (namesAnId) withRealIds += 1;
      for (const [who, http] of actors) {
        const calls: Array<{ path: string; mustRefuse: boolean }> = [];
        // A's studio in the path (public routes are anyone's to call: only their answers are checked).
        if (route.fullPath.includes(':uuid') && route.access !== 'public')
          calls.push({ path: fill(A.id), mustRefuse: true });
        // B's own studio with A's ids: refused when the route names an id of A.
        if (route.fullPath.includes(':uuid') || namesAnId)
          calls.push({ path: fill(B.id), mustRefuse: namesAnId });
        else calls.push({ path: route.fullPath, mustRefuse: false });
        for (const call of calls) {
          checks += 1;
          const res = await http.request(method, call.path, body, { headers });
          const label = `${method} ${call.path} as B's ${who} → ${res.status}`;
          if (res.status >= 500) failures.push(`${label}: ${res.text.slice(0, 200)}`);
          else if (call.mustRefuse && !DENIED.includes(res.status) && !(res.status === 400 && !valid))
            failures.push(`${label}: not refused ${res.text.slice(0, 200)}`);
          const leaked = leakedIds(res.text);
          if (leaked.length) failures.push(`${label}: shows A's ids ${leaked.slice(0, 3).join(', ')}`);
        }
      }
    }
    console.info(
      `cross-studio: ${checks} calls over ${routes.length} routes, ${withRealIds} routes named a real row of A; no row of A for: ${[...unresolved].sort().join(' ') || 'none'}`,
    );
    expect(failures).toEqual([]);
    expect(await fingerprint(A.id)).toEqual(before);
  }, 600_000);

  it('sync commands from B’s station naming A’s ids leave nothing of B pointing at A, and A unchanged', async () => {
    const before = await fingerprint(A.id);
    const pool = [...A.byTable.values(), A.clientId];
    const failures: string[] = [];
    let seq = 0;
    for (const [index, key] of registeredCommands().entries()) {
      const [name, version] = key.split('@') as [string, string];
      const handler = findHandler(name, Number(version))!;
      const samples = fc.sample(arbitraryOf(handler.args as z.ZodType, { ids: pool }), {
        numRuns: 200,
        seed: index,
      });
      const args = samples.filter((s) => handler.args.safeParse(s).success).slice(0, 5);
      for (const a of args) {
        seq += 1;
        const res = await B.station.call('POST', '/sync/push', {
          mutations: [
            B.station.mutation(seq, name, a as Record<string, unknown>, { version: Number(version) }),
          ],
        });
        // A fact (kioskEntry) the rules refuse is kept for review: 503 sync.transient, then quarantined.
        if (res.status >= 500 && res.body?.error?.key !== 'sync.transient')
          failures.push(`${key}: ${res.status} ${res.text.slice(0, 200)}`);
        // The answer may echo the ids the station sent; anything else of A is a leak.
        const sent = JSON.stringify(a);
        const leaked = leakedIds(res.text).filter((id) => !sent.includes(id));
        if (leaked.length) failures.push(`${key}: the answer shows A's ids ${leaked.join(', ')}`);
        if (res.status === 409 && typeof res.body?.expectedSeq === 'number') seq = res.body.expectedSeq - 1;
      }
    }
    // Nothing of B may point at A: every foreign key of B's rows, checked in SQL against A's rows
    // (and against A's people, for keys to users).
    for (const fk of await foreignKeys()) {
      const target =
        fk.ref === 'users'
          ? `select user_id from memberships where studio_id = :a`
          : `select id from "${fk.ref}" where studio_id = :a`;
      const { rows } = (await app.knex.raw(
        `select count(*)::int as n from "${fk.table}" x where x.studio_id = :b and x."${fk.column}" in (${target})`,
        { a: A.id, b: B.id },
      )) as { rows: Array<{ n: number }> };
      if (rows[0]!.n > 0)
        failures.push(
          `${rows[0]!.n} row(s) of ${fk.table} in studio B point at ${fk.ref} of A (${fk.column})`,
        );
    }
    const pulled = await B.station.call('POST', '/sync/pull', {});
    if (leakedIds(pulled.text).length) failures.push(`pull shows A's ids`);
    expect(failures).toEqual([]);
    expect(await fingerprint(A.id)).toEqual(before);
  }, 300_000);
});
