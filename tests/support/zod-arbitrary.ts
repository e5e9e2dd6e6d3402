import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries derived from a zod 4 schema by introspection (`schema._zod.def`): values of
 * the schema's shape that reach the handler, mixed with the edges a hostile or careless caller sends
 * (dates at and past the accepted range, huge and negative numbers, unicode, NUL, empty strings,
 * missing and null fields, the wrong JSON type). No maintained zod→fast-check bridge supports zod 4
 * (zod-fast-check needs zod 3 and fast-check 3; @traversable/zod is a 0.0.x pre-release), so this is
 * the small walk over the kinds our contracts use; anything else becomes an arbitrary JSON value.
 *
 * `strings: true` (queries, path params) turns every leaf into its string form, as a URL carries it.
 */
export interface ArbitraryOptions {
  /** Values a `z.uuid()` field takes besides random uuids (ids of rows that exist). */
  ids?: string[];
  /** Query strings: leaves are sent as text. */
  strings?: boolean;
}

type Def = {
  type: string;
  format?: string;
  pattern?: RegExp;
  checks?: Array<{ _zod: { def: Record<string, unknown> } }>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Calendar days around and past the accepted range, and impossible ones. */
const EDGE_DATES = [
  '1900-01-01',
  '1899-12-31',
  '2199-12-31',
  '2200-01-01',
  '9999-12-31',
  '0000-01-01',
  '2024-02-29',
  '2026-02-29',
  '2026-13-01',
  '2026-03-29', // the spring DST change in Europe/Warsaw
  '2026-10-25', // and the autumn one
];
const anyDay = fc
  .date({ min: new Date('1890-01-01T00:00:00Z'), max: new Date('2210-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const nearDay = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const dateArb = fc.oneof(
  { weight: 3, arbitrary: nearDay },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_DATES) },
  { weight: 1, arbitrary: anyDay },
);
const offsetArb = fc.constantFrom('Z', '+00:00', '+01:00', '-05:00', '+14:00', '-12:00', '+05:45');
const dateTimeArb = fc
  .tuple(dateArb, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), offsetArb)
  .map(([day, h, m, off]) => `${day}T${pad(h)}:${pad(m)}:00${off}`);

const HUGE_NUMBERS = [
  0,
  -1,
  1,
  2 ** 31,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  5e-324,
  0.5,
  99999999999,
];
const textArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'a\u0000b',
      '\ud800',
      'ż'.repeat(5000),
      '🧘‍♀️'.repeat(300),
      "'; drop table users; --",
      '%',
      '_',
      '\\',
      '../../etc/passwd',
      '<script>alert(1)</script>',
      '‮RTL',
    ),
  },
);
const junkArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, '', 0, -1, 1e308, [], {}, 'x'),
  fc.jsonValue({ maxDepth: 2 }),
);

function checksOf(def: Def) {
  return (def.checks ?? []).map((c) => c._zod.def);
}

function stringArb(def: Def, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const checks = checksOf(def);
  const format =
    def.format ?? (checks.find((c) => c.check === 'string_format')?.format as string | undefined);
  const pattern =
    def.pattern ?? (checks.find((c) => c.check === 'string_format')?.pattern as RegExp | undefined);
  const max = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined;
  const min = checks.find((c) => c.check === 'min_length')?.minimum as number | undefined;
  if (format === 'uuid' || format === 'guid')
    return options.ids?.length
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...options.ids) },
          { weight: 1, arbitrary: fc.uuid() },
        )
      : fc.uuid();
  if (format === 'date') return dateArb;
  if (format === 'datetime') return dateTimeArb;
  if (format === 'email')
    return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'ÿ@ü.pl', `${'a'.repeat(300)}@x.pl`, ''));
  const fitted: fc.Arbitrary<string>[] = [];
  if (pattern && format === 'regex') {
    try {
      fitted.push(fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace(/[^msu]/g, ''))));
    } catch {
      // a pattern fast-check cannot generate from: the plain strings below stand in
    }
  }
  fitted.push(fc.string({ minLength: Math.min(min ?? 0, 50), maxLength: Math.min(max ?? 40, 40) }));
  if (max !== undefined) fitted.push(fc.constant('x'.repeat(max)), fc.constant('ż'.repeat(max + 1)));
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...fitted) }, { weight: 1, arbitrary: textArb });
}

function numberArb(def: Def): fc.Arbitrary<unknown> {
  const checks = checksOf(def);
  const int = checks.some((c) => c.format === 'safeint' || c.format === 'int32') || def.format === 'safeint';
  const lo = checks.find((c) => c.check === 'greater_than')?.value as number | undefined;
  const hi = checks.find((c) => c.check === 'less_than')?.value as number | undefined;
  const min = Math.max(lo ?? -1_000_000, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(hi ?? 1_000_000, Number.MAX_SAFE_INTEGER);
  const inRange = int
    ? fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) })
    : fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
  const edges = [lo, hi, lo !== undefined ? lo - 1 : undefined, hi !== undefined ? hi + 1 : undefined].filter(
    (v): v is number => v !== undefined && Number.isFinite(v),
  );
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(...HUGE_NUMBERS, ...edges) },
  );
}

/** Leaves as a query string carries them. */
function asText(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map(asText);
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asText(v)]));
  return String(value);
}

export function arbitraryOf(
  schema: z.ZodType | undefined,
  options: ArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return junkArb;
  const shaped = shapedArb(schema, options, depth);
  // Mostly the schema's shape (it reaches the handler), sometimes the wrong type altogether.
  const arb =
    depth === 0 ? shaped : fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: junkArb });
  return options.strings && depth === 0 ? arb.map(asText) : arb;
}

function shapedArb(schema: z.ZodType, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const next = (s: z.ZodType | undefined) => arbitraryOf(s, { ...options, strings: false }, depth + 1);
  switch (def.type) {
    case 'string':
      return stringArb(def, options);
    case 'number':
    case 'int':
      return numberArb(def);
    case 'bigint':
      return fc.constantFrom(0, 1, Number.MAX_SAFE_INTEGER + 2, -1);
    case 'boolean':
      return fc.boolean();
    case 'date':
      return dateTimeArb;
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'optional':
      return fc.oneof(
        { weight: 3, arbitrary: next(def.innerType) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
    case 'nullable':
      return fc.oneof(
        { weight: 3, arbitrary: next(def.innerType) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    case 'default':
    case 'prefault':
    case 'catch':
      return fc.oneof(
        { weight: 3, arbitrary: next(def.innerType) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
    case 'nonoptional':
    case 'readonly':
    case 'success':
      return next(def.innerType);
    case 'pipe':
      // What the caller sends is the pipe's input; a transform's input is anything.
      return defOf(def.in!).type === 'transform' ? next(def.out) : next(def.in);
    case 'lazy':
      return next(def.getter?.());
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, next(v)]));
      const keys = Object.keys(fields);
      if (keys.length === 0) return fc.constant({});
      return fc.oneof(
        { weight: 4, arbitrary: fc.record(fields) },
        // Missing fields: any subset of the keys left out.
        { weight: 2, arbitrary: fc.record(fields, { requiredKeys: [] }) },
        { weight: 1, arbitrary: fc.constant({}) },
      );
    }
    case 'array': {
      const checks = checksOf(def);
      const max = (checks.find((c) => c.check === 'max_length')?.maximum as number | undefined) ?? 4;
      return fc.array(next(def.element), { maxLength: Math.min(max + 1, 6) });
    }
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map(next));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), next(def.valueType), { maxKeys: 4 });
    case 'union':
      return fc.oneof(...(def.options ?? []).map(next));
    case 'intersection':
      return fc
        .tuple(next(def.left), next(def.right))
        .map(([a, b]) =>
          a && b && typeof a === 'object' && typeof b === 'object'
            ? { ...(a as object), ...(b as object) }
            : a,
        );
    default:
      return junkArb;
  }
}
