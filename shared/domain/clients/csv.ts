/**
 * CSV for spreadsheets: RFC 4180 quoting, CRLF line ends, and a UTF-8 byte order mark so Excel reads
 * Polish letters correctly. Studios whose locale uses a decimal comma (pl) get ';' as the delimiter,
 * which is what Excel expects there.
 */
export const CSV_BOM = '\uFEFF';
export type CsvDelimiter = ',' | ';';

export function csvDelimiterForLocale(locale: string): CsvDelimiter {
  return /^(pl|de|fr|es|it|nl|pt|cs|sk|hu|ro|da|sv|fi|nb|no)\b/i.test(locale) ? ';' : ',';
}

/** Values that only look like numbers or phone numbers: safe to leave as they are. */
const NUMERIC_LIKE = /^[+-]?[\d\s().,\-/]*$/;

/**
 * Spreadsheet formula injection: a cell starting with = + - @ (or a tab / carriage return) would be
 * run as a formula when the file is opened. Such cells get a leading apostrophe, except for
 * phone-number-like and numeric values ("+48 600 100 200", "-12"), which cannot carry a formula.
 */
export function neutraliseFormula(value: string): string {
  if (/^[=@\t\r]/.test(value)) return `'${value}`;
  if (/^[+-]/.test(value) && !NUMERIC_LIKE.test(value)) return `'${value}`;
  return value;
}

export function csvCell(
  value: string | number | boolean | null | undefined,
  delimiter: CsvDelimiter,
): string {
  if (value === null || value === undefined) return '';
  const text = neutraliseFormula(String(value));
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(
  values: ReadonlyArray<string | number | boolean | null | undefined>,
  delimiter: CsvDelimiter,
): string {
  return `${values.map((v) => csvCell(v, delimiter)).join(delimiter)}\r\n`;
}

/** Reads CSV text back into rows (tests, imports): the inverse of csvLine, BOM skipped. */
export function parseCsv(text: string, delimiter: CsvDelimiter): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const input = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (quoted) {
      if (ch === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && input[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
