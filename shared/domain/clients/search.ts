import { looksLikePhoneQuery, phoneDigits } from './phone';

/**
 * Search keys of a client: lower case, Latin diacritics folded ("Łucja Żółć" → "lucja zolc"), so
 * a receptionist finds "Łukasz" by typing "lukasz". The same fold runs in the database, in the
 * generated columns of `clients` (first_key, last_key, search_text; migration 0007, as
 * `translate(lower(x), FOLD_FROM, FOLD_TO)`), and here for the query: keep both in step (an
 * integration test compares them).
 */
const FOLD_GROUPS: ReadonlyArray<readonly [string, string]> = [
  ['a', 'ąàáâãäåāă'],
  ['c', 'ćçčĉċ'],
  ['d', 'ďđ'],
  ['e', 'ęèéêëēĕėě'],
  ['g', 'ğĝġģ'],
  ['h', 'ĥħ'],
  ['i', 'ìíîïĩīĭįı'],
  ['j', 'ĵ'],
  ['k', 'ķ'],
  ['l', 'ĺļľŀł'],
  ['n', 'ńñňņ'],
  ['o', 'òóôõöøōŏő'],
  ['r', 'ŕřŗ'],
  ['s', 'śšşŝș'],
  ['t', 'ťţț'],
  ['u', 'ùúûüũūŭůűų'],
  ['w', 'ŵ'],
  ['y', 'ýÿŷ'],
  ['z', 'źżž'],
];

export const FOLD_FROM = FOLD_GROUPS.map(([, from]) => from).join('');
export const FOLD_TO = FOLD_GROUPS.map(([to, from]) => to.repeat([...from].length)).join('');

const FOLD_MAP = new Map<string, string>(
  FOLD_GROUPS.flatMap(([to, from]) => [...from].map((ch) => [ch, to] as const)),
);

export function foldSearchText(value: string): string {
  let out = '';
  for (const ch of value.toLowerCase()) out += FOLD_MAP.get(ch) ?? ch;
  return out;
}

/** Escapes LIKE's wildcards so what the user typed is matched literally (backslash is the escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export const SEARCH_MAX_TOKENS = 5;
export const SEARCH_TOKEN_MAX_LENGTH = 64;
/** Shorter tokens cannot use a trigram index: they are matched as word prefixes. */
export const TRIGRAM_MIN_LENGTH = 3;

export type ClientSearchQuery =
  | { kind: 'empty' }
  /**
   * A phone number or its start. `prefixes`: what the stored digits (or the 9-digit match key) may
   * start with, however the caller typed the country code or trunk prefix; `infix`: the digits
   * without leading zeros, for a contains-search.
   */
  | { kind: 'phone'; prefixes: string[]; infix: string }
  /** Words that must each match the start of the first name, last name or email (or, with
   * trigram search, appear anywhere in name, email or phone). */
  | { kind: 'text'; tokens: string[] };

export function parseClientSearch(raw: string): ClientSearchQuery {
  const query = raw.trim();
  if (query === '') return { kind: 'empty' };
  if (looksLikePhoneQuery(query)) {
    const digits = phoneDigits(query) ?? '';
    const withoutIntl = digits.replace(/^00/, '');
    const withoutTrunk = digits.replace(/^0+/, '');
    const prefixes = [...new Set([digits, withoutIntl, withoutTrunk])].filter((p) => p.length > 0);
    return { kind: 'phone', prefixes, infix: withoutTrunk || digits };
  }
  const tokens = [
    ...new Set(
      foldSearchText(query)
        .split(/\s+/)
        .filter((t) => t.length > 0)
        .map((t) => t.slice(0, SEARCH_TOKEN_MAX_LENGTH)),
    ),
  ].slice(0, SEARCH_MAX_TOKENS);
  return tokens.length ? { kind: 'text', tokens } : { kind: 'empty' };
}
