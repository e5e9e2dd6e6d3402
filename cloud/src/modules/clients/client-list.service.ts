import { TZDate } from '@date-fns/tz';
import type { Knex } from 'knex';
import type { ClientFilter, ClientSort } from '../../../../shared/contracts/api/clients';
import {
  birthdayRanges,
  decodeCursor,
  encodeCursor,
  escapeLike,
  parseClientSearch,
  parseMonthDay,
  TRIGRAM_MIN_LENGTH,
  type ClientSearchQuery,
} from '../../../../shared/domain/clients';
import { AppError } from '../../../../shared/errors';
import { cardNumberKey } from '../../../../shared/domain/accounts/identity';
import type { ClientsRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { ClientPricingOptionStatus } from '../../../../shared/enums/pricing-options';

/** The list's filters once resolved against the studio's calendar and clock. */
export interface ResolvedClientFilter {
  status: 'active' | 'archived' | 'all';
  search: ClientSearchQuery;
  tagIds: string[];
  tagMode: 'any' | 'all';
  hasValidPass: boolean | undefined;
  birthday: Array<{ from: number; to: number }>;
  createdFrom: Date | undefined;
  /** Exclusive: the start of the day after `createdTo`. */
  createdBefore: Date | undefined;
  /** Only these clients (bulk export). */
  userIds: string[] | undefined;
  sort: ClientSort;
  /** "now" for the valid-pass filter. */
  now: Date;
}

type FilterInput = Partial<
  Pick<
    ClientFilter,
    | 'q'
    | 'status'
    | 'tagIds'
    | 'tagMode'
    | 'hasValidPass'
    | 'birthday'
    | 'birthdayFrom'
    | 'birthdayTo'
    | 'createdFrom'
    | 'createdTo'
    | 'sort'
  >
>;

const startOfDayIn = (isoDate: string, timeZone: string, addDays = 0): Date => {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + addDays, timeZone).getTime());
};

export function resolveFilter(
  input: FilterInput,
  studio: { timeZone: string },
  now: Date,
  userIds?: string[],
): ResolvedClientFilter {
  const birthday = input.birthday
    ? birthdayRanges({ kind: 'thisMonth' }, now, studio.timeZone)
    : input.birthdayFrom && input.birthdayTo
      ? birthdayRanges(
          { kind: 'range', from: parseMonthDay(input.birthdayFrom)!, to: parseMonthDay(input.birthdayTo)! },
          now,
          studio.timeZone,
        )
      : [];
  return {
    status: input.status ?? 'active',
    search: parseClientSearch(input.q ?? ''),
    tagIds: input.tagIds ?? [],
    tagMode: input.tagMode ?? 'any',
    hasValidPass: input.hasValidPass,
    birthday,
    createdFrom: input.createdFrom ? startOfDayIn(input.createdFrom, studio.timeZone) : undefined,
    createdBefore: input.createdTo ? startOfDayIn(input.createdTo, studio.timeZone, 1) : undefined,
    userIds,
    sort: input.sort ?? 'name',
    now,
  };
}

// Trigram search is there when the migration could create its index (real PostgreSQL with pg_trgm);
// the name is migration 0007's.
const CLIENT_SEARCH_TRGM_INDEX = 'clients_search_trgm';
const trigramByKnex = new WeakMap<object, Promise<boolean>>();

export function hasTrigramSearch(knex: Db): Promise<boolean> {
  let found = trigramByKnex.get(knex);
  if (!found) {
    found = knex
      .raw(`select to_regclass(?) is not null as ok`, [CLIENT_SEARCH_TRGM_INDEX])
      .then((r: { rows: Array<{ ok: boolean }> }) => Boolean(r.rows[0]?.ok));
    trigramByKnex.set(knex, found);
  }
  return found;
}

/** Columns every client view needs, plus the keys a cursor is made of. */
export const CLIENT_COLUMNS = [
  'c.id',
  'c.user_id',
  'c.first_name',
  'c.last_name',
  'c.email',
  'c.phone',
  'c.sex',
  'c.archived_at',
  'c.created_at',
  'c.updated_at',
  'c.last_key',
  'c.first_key',
] as const;

/** A client as every view selects it (`CLIENT_COLUMNS`), with the list's decorations. */
export type ClientRow = Pick<
  ClientsRow,
  | 'id'
  | 'userId'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'sex'
  | 'archivedAt'
  | 'createdAt'
  | 'updatedAt'
> & {
  /** `YYYY-MM-DD`, selected as text (a Date would shift with the server's zone). */
  birthDate: string | null;
  lastKey: string;
  firstKey: string;
  /** created_at to the microsecond, as text: a JS Date would lose the microseconds a cursor needs. */
  createdKey: string;
  /** From selectDecorations. */
  tags: Array<{ id: string; name: string }>;
  hasValidPass: boolean;
};

/** The columns of a client view, from a source aliased `c` (the table or a window of it). */
export function selectClientColumns(db: Db, qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb
    .select(...CLIENT_COLUMNS)
    .select(
      db.raw('c.birth_date::text as birth_date'),
      db.raw(`to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key`),
    );
}

export function selectClients(db: Db, studioId: string): Knex.QueryBuilder {
  return selectClientColumns(db, db('clients as c').where('c.studio_id', studioId));
}

const prefix = (value: string) => `${escapeLike(value)}%`;
const contains = (value: string) => `%${escapeLike(value)}%`;

/** The card key a search could be (one word, or digits), or null: such a search also finds that card's holder. */
function cardKeyOf(search: ClientSearchQuery): string | null {
  if (search.kind === 'phone') return cardNumberKey(search.prefixes[0] ?? '');
  if (search.kind === 'text' && search.tokens.length === 1) return cardNumberKey(search.tokens[0]!);
  return null;
}

/**
 * Which part of a search a query applies: all of it (the name or phone match OR the card's holder),
 * or one side of it alone — the candidates step runs the two sides as a UNION, each on its own index
 * (an OR with the card lookup would defeat the trigram index and read the studio's every client).
 */
type SearchPart = 'all' | 'names' | 'card';

/**
 * A search that could be a membership card number (one word, or digits) also finds the client holding
 * that card (client-accounts module, `client_identities`; exact match on its key, any case, spaces and
 * hyphens). Uncorrelated, so the card lookup (client_identities_key index) runs once per query.
 */
function applySearch(
  qb: Knex.QueryBuilder,
  search: ClientSearchQuery,
  trigram: boolean,
  part: SearchPart,
): void {
  const card = cardKeyOf(search);
  const holder = `(c.studio_id, c.user_id) in (select ci.studio_id, ci.user_id from client_identities ci
        where ci.kind = 'card' and ci.value_key = ?)`;
  if (!card || part === 'names') return applyNameOrPhoneSearch(qb, search, trigram);
  if (part === 'card') {
    qb.whereRaw(holder, [card]);
    return;
  }
  qb.where((w) => {
    w.where((inner) => applyNameOrPhoneSearch(inner, search, trigram)).orWhereRaw(holder, [card]);
  });
}

function applyNameOrPhoneSearch(qb: Knex.QueryBuilder, search: ClientSearchQuery, trigram: boolean): void {
  if (search.kind === 'phone') {
    if (trigram && search.infix.length >= TRIGRAM_MIN_LENGTH) {
      qb.where('c.search_text', 'like', contains(search.infix));
      return;
    }
    qb.where((w) => {
      for (const p of search.prefixes) {
        w.orWhere('c.phone_digits', 'like', prefix(p)).orWhere('c.phone_key', 'like', prefix(p));
      }
    });
    return;
  }
  if (search.kind !== 'text') return;
  for (const token of search.tokens) {
    if (trigram && token.length >= TRIGRAM_MIN_LENGTH) {
      qb.where('c.search_text', 'like', contains(token));
    } else {
      qb.where((w) =>
        w
          .where('c.last_key', 'like', prefix(token))
          .orWhere('c.first_key', 'like', prefix(token))
          .orWhere('c.email', 'like', prefix(token)),
      );
    }
  }
}

function applyStatus(qb: Knex.QueryBuilder, filter: ResolvedClientFilter): void {
  if (filter.status === 'active') qb.whereNull('c.archived_at');
  else if (filter.status === 'archived') qb.whereNotNull('c.archived_at');
}

export function applyFilter(
  db: Db,
  qb: Knex.QueryBuilder,
  studioId: string,
  filter: ResolvedClientFilter,
  trigram: boolean,
  part: SearchPart = 'all',
): void {
  applyStatus(qb, filter);
  applySearch(qb, filter.search, trigram, part);
  if (filter.userIds) qb.whereRaw('c.user_id = any(?::uuid[])', [filter.userIds]);
  if (filter.tagIds.length > 0) {
    const tagged = (tagIds: string[]) =>
      db('user_tags as ut')
        .where('ut.studio_id', studioId)
        .whereRaw('ut.user_id = c.user_id')
        .whereRaw('ut.tag_id = any(?::uuid[])', [tagIds]);
    if (filter.tagMode === 'any') qb.whereExists(tagged(filter.tagIds).select(db.raw('1')));
    else {
      // Everyone holding every tag, as one grouped semi-join (a per-row count would run 50,000 times).
      const distinct = [...new Set(filter.tagIds)];
      qb.whereIn(
        'c.user_id',
        db('user_tags as ut')
          .select('ut.user_id')
          .where('ut.studio_id', studioId)
          .whereRaw('ut.tag_id = any(?::uuid[])', [distinct])
          .groupBy('ut.user_id')
          .havingRaw('count(*) = ?', [distinct.length]),
      );
    }
  }
  if (filter.hasValidPass !== undefined) {
    // A pass is valid when active (status 1) and not expired; one without an end date (expiration
    // "always") never expires.
    const validPass = db('client_pricing_options as cpo')
      .select(db.raw('1'))
      .where('cpo.studio_id', studioId)
      .whereRaw('cpo.client_id = c.user_id')
      .where('cpo.status', ClientPricingOptionStatus.active)
      .where((w) => w.whereNull('cpo.expires_at').orWhere('cpo.expires_at', '>', filter.now));
    if (filter.hasValidPass) qb.whereExists(validPass);
    else qb.whereNotExists(validPass);
  }
  if (filter.birthday.length > 0) {
    qb.where((w) => {
      for (const r of filter.birthday) w.orWhereBetween('c.birth_md', [r.from, r.to]);
    });
  }
  if (filter.createdFrom) qb.where('c.created_at', '>=', filter.createdFrom);
  if (filter.createdBefore) qb.where('c.created_at', '<', filter.createdBefore);
}

const SORT_KEYS: Record<ClientSort, { columns: string[]; desc: boolean; keyCount: number }> = {
  name: { columns: ['last_key', 'first_key', 'id'], desc: false, keyCount: 3 },
  '-name': { columns: ['last_key', 'first_key', 'id'], desc: true, keyCount: 3 },
  created: { columns: ['created_at', 'id'], desc: false, keyCount: 2 },
  '-created': { columns: ['created_at', 'id'], desc: true, keyCount: 2 },
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const badCursor = () => AppError.invalid({ 'query.cursor': ['invalid cursor: start from the first page'] });

function cursorValues(cursor: string, sort: ClientSort): string[] {
  const keys = SORT_KEYS[sort];
  const decoded = decodeCursor(cursor, sort, keys.keyCount);
  if (!decoded || !decoded.values.every((v) => typeof v === 'string')) throw badCursor();
  const values = decoded.values as string[];
  if (!UUID_RE.test(values[values.length - 1]!)) throw badCursor();
  if (keys.keyCount === 2 && !TIMESTAMP_RE.test(values[0]!)) throw badCursor();
  if (values.some((v) => v.length > 300 || v.includes('\u0000'))) throw badCursor();
  return values;
}

function cursorOf(row: ClientRow, sort: ClientSort): string {
  const values =
    sort === 'name' || sort === '-name' ? [row.lastKey, row.firstKey, row.id] : [row.createdKey, row.id];
  return encodeCursor({ sort, values });
}

/**
 * The tags and the valid-pass flag of each row of `alias`, as two more columns of the same statement
 * (no query per row, no extra round trip). Only ever applied to a page already cut to size.
 */
export function selectDecorations(db: Db, qb: Knex.QueryBuilder, alias: string, studioId: string, now: Date) {
  return qb.select(
    db.raw(
      `(select coalesce(json_agg(json_build_object('id', t.id, 'name', t.name) order by lower(t.name), t.id), '[]'::json)
        from user_tags ut join tags t on t.id = ut.tag_id
        where ut.studio_id = ? and ut.user_id = ??) as tags`,
      [studioId, `${alias}.user_id`],
    ),
    // A pass is valid when active (status 1) and not expired; one without an end date (expiration
    // "always") never expires.
    db.raw(
      `exists (select 1 from client_pricing_options cpo
        where cpo.studio_id = ? and cpo.client_id = ?? and cpo.status = ${ClientPricingOptionStatus.active}
          and (cpo.expires_at is null or cpo.expires_at > ?)) as has_valid_pass`,
      [studioId, `${alias}.user_id`, now],
    ),
  );
}

/**
 * A narrowing filter (search, tags, birthdays, creation days, chosen clients) is where LIMIT plans go
 * wrong: walking the sort index and filtering reads tens of thousands of rows when the matches are
 * few or sort late ("Smith"), while collecting every match first is slow when they are many. So a
 * page is cut in up to three steps, each with a bounded cost:
 * 1. walk the first WINDOW rows in sort order and filter them: a full page found there is exact
 *    (every match inside the window sorts before any match after it) — common terms stop here;
 * 2. else collect up to CANDIDATES_MAX matches through whichever index suits the filter and sort
 *    them — rare terms stop here;
 * 3. else (many matches, all sorting after the window) the unbounded walk.
 */
const WINDOW = 1000;
const CANDIDATES_MAX = 2000;

const isNarrowing = (f: ResolvedClientFilter) =>
  f.search.kind !== 'empty' ||
  f.tagIds.length > 0 ||
  f.hasValidPass !== undefined ||
  f.birthday.length > 0 ||
  f.createdFrom !== undefined ||
  f.createdBefore !== undefined ||
  f.userIds !== undefined;

/** One keyset page: rows after the cursor in the sort's order, and the next page's cursor. */
export async function pageOfClients(
  db: Db,
  studioId: string,
  filter: ResolvedClientFilter,
  page: { limit: number; cursor?: string | undefined },
  trigram: boolean,
): Promise<{ rows: ClientRow[]; next: string | null }> {
  const keys = SORT_KEYS[filter.sort];
  const after = page.cursor ? cursorValues(page.cursor, filter.sort) : null;
  const direction = keys.desc ? 'desc' : 'asc';
  const wanted = page.limit + 1;
  /** The studio, the status and the cursor: what the sort index walk itself is bounded by. */
  const base = (qb: Knex.QueryBuilder) => {
    qb.where('c.studio_id', studioId);
    applyStatus(qb, filter);
    if (after) {
      const casts = keys.keyCount === 3 ? ['?', '?', '?::uuid'] : ['?::timestamptz', '?::uuid'];
      const columns = keys.columns.map((c) => `c.${c}`).join(', ');
      qb.whereRaw(`(${columns}) ${keys.desc ? '<' : '>'} (${casts.join(', ')})`, after);
    }
    return qb;
  };
  const narrowed = (qb: Knex.QueryBuilder, part: SearchPart = 'all') => {
    applyFilter(db, qb, studioId, filter, trigram, part);
    return qb;
  };
  const ordered = (qb: Knex.QueryBuilder, alias: string) => {
    for (const column of keys.columns) qb.orderBy(`${alias}.${column}`, direction);
    return qb;
  };
  /** Tags and pass flags are computed on the page only, outside the query that cut it. */
  const decorated = async (pageQuery: Knex.QueryBuilder) => {
    const qb = db.from(pageQuery.as('p')).select('p.*');
    selectDecorations(db, qb, 'p', studioId, filter.now);
    return (await ordered(qb, 'p')) as Array<ClientRow & { candidateTotal?: number }>;
  };
  const walk = () =>
    decorated(ordered(narrowed(base(selectClientColumns(db, db('clients as c')))), 'c').limit(wanted));

  let rows: ClientRow[];
  if (!isNarrowing(filter)) rows = await walk();
  else {
    // Steps 1 and 2 in one statement: the candidates branch runs only when the window did not fill
    // the page (a one-time filter: otherwise its CTE is never evaluated).
    const window = ordered(base(db('clients as c').select('c.*')), 'c').limit(WINDOW);
    const inWindow = ordered(narrowed(selectClientColumns(db, db.from(window.as('c')))), 'c')
      .select(db.raw('null::int as candidate_total'))
      .limit(wanted);
    // Only ids and sort keys are collected, sorted and cut while still narrow; full rows are read
    // by primary key for the page alone.
    const collect = (part: SearchPart) =>
      narrowed(base(db('clients as c')), part)
        .select('c.id', 'c.last_key', 'c.first_key', 'c.created_at')
        .limit(CANDIDATES_MAX + 1);
    // A search that may be a card number: the name matches and the card's holder as a UNION, each
    // through its own index (see SearchPart).
    const candidates = cardKeyOf(filter.search)
      ? db
          .from(db.union([collect('names'), collect('card')], true).as('u'))
          .select('u.*')
          .limit(CANDIDATES_MAX + 1)
      : collect('all');
    const top = ordered(db('candidates as k').select('k.*'), 'k').limit(wanted);
    const fromCandidates = selectClientColumns(db, db('clients as c'))
      .where('c.studio_id', studioId)
      .join(top.as('k'), 'k.id', 'c.id')
      .select(db.raw('(select count(*) from candidates)::int as candidate_total'))
      .whereRaw('(select count(*) from w) < ?', [wanted]);
    const found = await decorated(
      db
        .with('w', inWindow)
        .withMaterialized('candidates', candidates)
        .from('w')
        .select('*')
        .whereRaw('(select count(*) from w) = ?', [wanted])
        .unionAll(fromCandidates, true),
    );
    const total = found[0]?.candidateTotal ?? null;
    // 3. Many matches, all sorting after the window: the unbounded walk.
    rows = total !== null && total > CANDIDATES_MAX ? await walk() : found;
  }
  const more = rows.length > page.limit;
  if (more) rows.length = page.limit;
  const last = rows[rows.length - 1];
  return { rows, next: more && last ? cursorOf(last, filter.sort) : null };
}
