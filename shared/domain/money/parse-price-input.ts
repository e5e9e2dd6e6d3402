/**
 * Whole part either plain digits or digits grouped by threes with one consistent separator (space,
 * comma or dot); then an optional decimal part of one or two digits after a comma or dot.
 * Groups: 1 minus, 2 whole part, 3 group separator, 4 decimal separator, 5 decimal digits.
 */
const PRICE_INPUT = /^(-)?(\d+|\d{1,3}([ ,.])\d{3}(?:\3\d{3})*)?(?:([,.])(\d{1,2}))?$/;

/**
 * Reads what a user typed into a price field as minor units: "12" → 1200, "12.5" → 1250,
 * "12,50" → 1250, "1 234,56" → 123456, "1,234.56" → 123456. Returns null for anything else.
 *
 * A single separator followed by exactly three digits ("1,234", "1.234") is read as thousands:
 * money has at most two decimals, so that is the only reading that is a price in any locale.
 */
export function parsePriceInput(text: string): number | null {
  const normalized = text.trim().replace(/\s/g, ' ');
  const match = PRICE_INPUT.exec(normalized);
  if (!match) return null;
  const [, minus, whole, groupSeparator, decimalSeparator, decimals] = match;
  if (whole === undefined && decimals === undefined) return null;
  if (groupSeparator !== undefined && groupSeparator === decimalSeparator) return null;

  const units = Number((whole ?? '0').replace(/\D/g, ''));
  const cents = Number((decimals ?? '').padEnd(2, '0'));
  // Exact while the result is a safe integer, and anything larger is refused below.
  const minorUnits = units * 100 + cents;
  if (!Number.isSafeInteger(minorUnits)) return null;
  return minus && minorUnits !== 0 ? -minorUnits : minorUnits;
}
