import { CLIENT_SORTS, type ClientExportInput, type ClientSort } from '../../../shared/contracts/api/clients';
import { parseMonthDay } from '../../../shared/domain/clients/birthday';

/**
 * The client list's filters as the screen holds them, and their two other forms: the hash URL's
 * query string (so a filtered list can be reloaded, shared and reached with "back"), and the API's
 * query (`GET client/collection`) or JSON body (`POST client/export`). Values that are not valid are
 * dropped rather than sent, so a hand-edited URL or a half-typed range never turns the list into a
 * 400.
 */
export type ClientStatusFilter = 'active' | 'archived' | 'all';
export type BirthdayChoice =
  | { kind: 'none' }
  | { kind: 'thisMonth' }
  /** Days of the year as MM-DD; may run over the new year (12-20 → 01-10). */
  | { kind: 'range'; from: string; to: string };

export interface ClientListFilters {
  q: string;
  status: ClientStatusFilter;
  tagIds: string[];
  tagMode: 'any' | 'all';
  /** null: either. */
  hasValidPass: boolean | null;
  birthday: BirthdayChoice;
  /** YYYY-MM-DD (studio days, inclusive) or ''. */
  createdFrom: string;
  createdTo: string;
  sort: ClientSort;
}

export const DEFAULT_FILTERS: ClientListFilters = {
  q: '',
  status: 'active',
  tagIds: [],
  tagMode: 'any',
  hasValidPass: null,
  birthday: { kind: 'none' },
  createdFrom: '',
  createdTo: '',
  sort: 'name',
};

/** What the filter panel's "clear" resets: everything but the search and the sort. */
const { q: _q, sort: _sort, ...panelDefaults } = DEFAULT_FILTERS;
export const PANEL_DEFAULTS: Partial<ClientListFilters> = panelDefaults;

const STATUSES: readonly ClientStatusFilter[] = ['active', 'archived', 'all'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TAGS = 20;

const isIsoDate = (v: string) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
export const isMonthDay = (v: string) => parseMonthDay(v) !== null;

/** The birthday range is only applied when both ends are real days of the year. */
function effectiveBirthday(b: BirthdayChoice): BirthdayChoice {
  if (b.kind === 'range' && !(isMonthDay(b.from) && isMonthDay(b.to))) return { kind: 'none' };
  return b;
}

/** Creation bounds that make sense together (a reversed pair keeps only its start). */
function effectiveCreated(f: Pick<ClientListFilters, 'createdFrom' | 'createdTo'>) {
  const from = isIsoDate(f.createdFrom) ? f.createdFrom : '';
  let to = isIsoDate(f.createdTo) ? f.createdTo : '';
  if (from && to && from > to) to = '';
  return { from, to };
}

export function filtersFromSearchParams(params: URLSearchParams): ClientListFilters {
  const status = params.get('status') as ClientStatusFilter | null;
  const sort = params.get('sort') as ClientSort | null;
  const pass = params.get('hasValidPass');
  const tagIds = (params.get('tagIds') ?? '')
    .split(',')
    .filter((id) => UUID.test(id))
    .slice(0, MAX_TAGS);
  const from = params.get('birthdayFrom') ?? '';
  const to = params.get('birthdayTo') ?? '';
  const birthday: BirthdayChoice =
    params.get('birthday') === 'thisMonth'
      ? { kind: 'thisMonth' }
      : isMonthDay(from) && isMonthDay(to)
        ? { kind: 'range', from, to }
        : { kind: 'none' };
  const created = effectiveCreated({
    createdFrom: params.get('createdFrom') ?? '',
    createdTo: params.get('createdTo') ?? '',
  });
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    status: status && STATUSES.includes(status) ? status : DEFAULT_FILTERS.status,
    tagIds,
    tagMode: params.get('tagMode') === 'all' ? 'all' : 'any',
    hasValidPass: pass === 'true' ? true : pass === 'false' ? false : null,
    birthday,
    createdFrom: created.from,
    createdTo: created.to,
    sort: sort && (CLIENT_SORTS as readonly string[]).includes(sort) ? sort : DEFAULT_FILTERS.sort,
  };
}

/** The URL form: only what differs from the defaults, in a stable order. */
export function filtersToSearchParams(f: ClientListFilters): URLSearchParams {
  const params = new URLSearchParams();
  const q = f.q.trim();
  if (q) params.set('q', q);
  if (f.status !== DEFAULT_FILTERS.status) params.set('status', f.status);
  if (f.tagIds.length > 0) {
    params.set('tagIds', f.tagIds.join(','));
    if (f.tagMode === 'all') params.set('tagMode', 'all');
  }
  if (f.hasValidPass !== null) params.set('hasValidPass', String(f.hasValidPass));
  const birthday = effectiveBirthday(f.birthday);
  if (birthday.kind === 'thisMonth') params.set('birthday', 'thisMonth');
  if (birthday.kind === 'range') {
    params.set('birthdayFrom', birthday.from);
    params.set('birthdayTo', birthday.to);
  }
  const created = effectiveCreated(f);
  if (created.from) params.set('createdFrom', created.from);
  if (created.to) params.set('createdTo', created.to);
  if (f.sort !== DEFAULT_FILTERS.sort) params.set('sort', f.sort);
  return params;
}

/** `GET client/collection` query (without limit and cursor). */
export function toListQuery(f: ClientListFilters): Record<string, string> {
  const query = Object.fromEntries(filtersToSearchParams(f));
  // The API's defaults equal ours; sending status and sort anyway keeps the query self-describing.
  return { ...query, status: f.status, sort: f.sort };
}

/** `POST client/export` body: the same filters as JSON (format and delimiter chosen by the user). */
export function toExportBody(
  f: ClientListFilters,
  options: { delimiter: ',' | ';'; format: string },
): Omit<ClientExportInput, 'format'> & { format: string } {
  const query = toListQuery(f);
  return {
    ...(query.q ? { q: query.q } : {}),
    status: f.status,
    ...(query.tagIds ? { tagIds: f.tagIds, tagMode: f.tagMode } : { tagMode: 'any' as const }),
    ...(f.hasValidPass !== null ? { hasValidPass: f.hasValidPass } : {}),
    ...(query.birthday ? { birthday: 'thisMonth' as const } : {}),
    ...(query.birthdayFrom ? { birthdayFrom: query.birthdayFrom, birthdayTo: query.birthdayTo } : {}),
    ...(query.createdFrom ? { createdFrom: query.createdFrom } : {}),
    ...(query.createdTo ? { createdTo: query.createdTo } : {}),
    sort: f.sort,
    format: options.format,
    delimiter: options.delimiter,
  };
}

/** How many filters of the panel are in use (search and sort are not "filters"). */
export function activeFilterCount(f: ClientListFilters): number {
  const params = filtersToSearchParams(f);
  let count = 0;
  if (params.has('status')) count += 1;
  if (params.has('tagIds')) count += 1;
  if (params.has('hasValidPass')) count += 1;
  if (params.has('birthday') || params.has('birthdayFrom')) count += 1;
  if (params.has('createdFrom') || params.has('createdTo')) count += 1;
  return count;
}

/** The file name of a download from its Content-Disposition header, else the fallback. */
export function downloadFileName(contentDisposition: string | null, fallback: string): string {
  if (!contentDisposition) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(contentDisposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(contentDisposition);
  const name = plain?.[1] ?? plain?.[2];
  return name && !/[\\/]/.test(name) ? name : fallback;
}

const LIST_SEARCH_KEY = 'backoffice.clients.listSearch';

/**
 * The list's path with the search and filters it last showed, for the profile's way back. Kept in
 * the tab's sessionStorage, so a reload of the profile keeps the way back too.
 */
export function clientListPath(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage,
): string {
  let search: string | null = null;
  try {
    search = storage?.getItem(LIST_SEARCH_KEY) ?? null;
  } catch {
    // storage refused (privacy mode): the plain list
  }
  return search ? `/clients?${search}` : '/clients';
}

export function rememberListSearch(
  search: string,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.sessionStorage,
): void {
  try {
    storage?.setItem(LIST_SEARCH_KEY, search);
  } catch {
    // storage refused: the way back is the plain list
  }
}
