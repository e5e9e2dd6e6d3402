import { describe, expect, it } from 'vitest';
import { ClientExportInputSchema, ClientListQuerySchema } from '../../../shared/contracts/api/clients';
import {
  DEFAULT_FILTERS,
  activeFilterCount,
  clientListPath,
  rememberListSearch,
  downloadFileName,
  filtersFromSearchParams,
  filtersToSearchParams,
  toExportBody,
  toListQuery,
  type ClientListFilters,
} from './client-filters';

const TAG_A = '0190a4b2-1111-7000-8000-000000000001';
const TAG_B = '0190a4b2-1111-7000-8000-000000000002';

const full: ClientListFilters = {
  q: 'Nowak',
  status: 'all',
  tagIds: [TAG_A, TAG_B],
  tagMode: 'all',
  hasValidPass: false,
  birthday: { kind: 'range', from: '12-20', to: '01-10' },
  createdFrom: '2026-01-01',
  createdTo: '2026-02-28',
  sort: '-created',
};

describe('client list filters ↔ URL', () => {
  it('defaults make an empty query string, and an empty one reads back as the defaults', () => {
    expect(filtersToSearchParams(DEFAULT_FILTERS).toString()).toBe('');
    expect(filtersFromSearchParams(new URLSearchParams())).toEqual(DEFAULT_FILTERS);
  });

  it('every filter survives the round trip', () => {
    const params = filtersToSearchParams(full);
    expect(filtersFromSearchParams(new URLSearchParams(params.toString()))).toEqual(full);
    expect(activeFilterCount(full)).toBe(5);
  });

  it('drops what is not valid instead of sending it', () => {
    const read = filtersFromSearchParams(
      new URLSearchParams(
        `status=deleted&sort=age&tagIds=${TAG_A},not-a-uuid&hasValidPass=maybe&birthdayFrom=02-30&birthdayTo=03-01&createdFrom=2026-13-01`,
      ),
    );
    expect(read).toEqual({ ...DEFAULT_FILTERS, tagIds: [TAG_A] });
  });

  it('a half-typed birthday range and a reversed creation range are not applied', () => {
    const params = filtersToSearchParams({
      ...DEFAULT_FILTERS,
      birthday: { kind: 'range', from: '05-0', to: '' },
      createdFrom: '2026-03-01',
      createdTo: '2026-02-01',
    });
    expect(params.toString()).toBe('createdFrom=2026-03-01');
  });

  it('the tag mode only counts with tags', () => {
    expect(filtersToSearchParams({ ...DEFAULT_FILTERS, tagMode: 'all' }).toString()).toBe('');
    expect(activeFilterCount({ ...DEFAULT_FILTERS, tagMode: 'all', sort: '-name', q: 'x' })).toBe(0);
  });
});

describe('client list filters → API', () => {
  it('the list query is accepted by the API schema with the same meaning', () => {
    const parsed = ClientListQuerySchema.parse(toListQuery(full));
    expect(parsed).toMatchObject({
      q: 'Nowak',
      status: 'all',
      tagIds: [TAG_A, TAG_B],
      tagMode: 'all',
      hasValidPass: false,
      birthdayFrom: '12-20',
      birthdayTo: '01-10',
      createdFrom: '2026-01-01',
      createdTo: '2026-02-28',
      sort: '-created',
    });
    expect(ClientListQuerySchema.parse(toListQuery(DEFAULT_FILTERS))).toMatchObject({
      status: 'active',
      sort: 'name',
    });
  });

  it('the export body is accepted by the export schema, with the chosen delimiter', () => {
    const body = toExportBody(
      { ...full, birthday: { kind: 'thisMonth' } },
      { delimiter: ';', format: 'csv' },
    );
    const parsed = ClientExportInputSchema.parse(body);
    expect(parsed).toMatchObject({
      q: 'Nowak',
      tagIds: [TAG_A, TAG_B],
      tagMode: 'all',
      hasValidPass: false,
      birthday: 'thisMonth',
      delimiter: ';',
      format: 'csv',
    });
    expect(parsed.birthdayFrom).toBeUndefined();
    expect(
      ClientExportInputSchema.parse(toExportBody(DEFAULT_FILTERS, { delimiter: ',', format: 'csv' })),
    ).toEqual({
      status: 'active',
      tagMode: 'any',
      sort: 'name',
      format: 'csv',
      delimiter: ',',
    });
  });
});

describe('downloadFileName', () => {
  it('reads plain and RFC 5987 names and refuses paths', () => {
    expect(downloadFileName('attachment; filename="clients-2026-11-22.csv"', 'x.csv')).toBe(
      'clients-2026-11-22.csv',
    );
    expect(downloadFileName("attachment; filename*=UTF-8''klienci%20%C5%BC.csv", 'x.csv')).toBe(
      'klienci ż.csv',
    );
    expect(downloadFileName('attachment; filename="../etc/passwd"', 'x.csv')).toBe('x.csv');
    expect(downloadFileName(null, 'x.csv')).toBe('x.csv');
  });
});

describe('the way back to the list', () => {
  it('returns to the search and filters last shown, or the plain list', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(clientListPath(storage)).toBe('/clients');
    rememberListSearch('q=Nowak&sort=-created', storage);
    expect(clientListPath(storage)).toBe('/clients?q=Nowak&sort=-created');
    rememberListSearch('', storage);
    expect(clientListPath(storage)).toBe('/clients');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(clientListPath(refusing)).toBe('/clients');
  });
});
