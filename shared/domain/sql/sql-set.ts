/**
 * A named set of status values (`TAKES_PLACE`, `ON_CLASS`, … from `shared/domain`, built on the enums of
 * `shared/enums`) where SQL needs it, so a rule such as "visits that take a place" lives in one place
 * and no query spells `status in (0, 1, 2, 9)` by hand.
 *
 *   query builder: `.whereIn('v.status', setValues(TAKES_PLACE))`
 *   raw SQL:       `count(*) filter (where v.status in ${sqlSet(TAKES_PLACE)})`
 *
 * Values are sorted (stable SQL text, stable plans in logs). Numbers are written as they are; strings
 * are quoted with SQL's own escaping. Anything else is refused: this renders constants of the domain,
 * never user input (which goes through bindings).
 */
export type SqlSetValue = number | string;

export function setValues<T extends SqlSetValue>(set: Iterable<T>): T[] {
  const values = [...new Set(set)];
  if (values.length === 0) throw new Error('sqlSet: an empty set has no SQL (in () is a syntax error)');
  for (const v of values) {
    if (typeof v === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'string')
      throw new Error(`sqlSet: ${String(v)} is not an integer or a string`);
  }
  return values.sort((a, b) =>
    typeof a === 'number' && typeof b === 'number'
      ? a - b
      : String(a) < String(b)
        ? -1
        : String(a) > String(b)
          ? 1
          : 0,
  );
}

/** `(0, 1, 2, 9)` for raw SQL: `status in ${sqlSet(TAKES_PLACE)}`. */
export function sqlSet(set: Iterable<SqlSetValue>): string {
  return `(${setValues(set)
    .map((v) => (typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`))
    .join(', ')})`;
}
